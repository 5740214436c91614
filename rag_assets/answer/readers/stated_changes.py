"""A change a sentence states in points ('Gross margin increased 280 basis points', 'the net yield was 2.62 %, an
increase of 82 bps', 'down 1.2 percentage points'): its size signed by the words just before it, as a fraction
(0.028), which the unit asked writes in basis points or percentage points; a fall asked ('by how many basis points
did the margin contract') is counted downwards."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.evidence.figures import Figure

DOWN_RE = re.compile(r"\b(?:decreas|declin|drop|fell|fall|lower|down|contract|compress|deteriorat|narrow|reduc|erod|"
                     r"shr[iu]nk|worsen|unfavorabl)\w*", re.I)
UP_RE = re.compile(r"\b(?:increas|expan|improv|grew|grow|rise|rising|rose|higher|up|widen|gain|favorabl)\w*", re.I)
BEFORE_CHARS = 60  # the verb of a stated change is next to its figure ('increased 280', 'an increase of 82')


def stated_change(cand: Candidate, fig: Figure, asked_down: bool = False) -> float:
    """The change ``fig`` states in ``cand``'s sentence, as a fraction: positive for a rise, negative for a fall
    (the later of the two kinds of words before it decides; none is a rise), the other way for a fall asked."""
    at = next((m.start() for m in re.finditer(rf"(?<![\d.,]){re.escape(fig.written)}\s*(?:basis|bps?\b|percentage|"
                                              r"pp\b|points?)", cand.label, re.I)), len(cand.label))
    before = cand.label[max(0, at - BEFORE_CHARS):at]
    down = max((m.end() for m in DOWN_RE.finditer(before)), default=-1)
    up = max((m.end() for m in UP_RE.finditer(before)), default=-1)
    sign = -1.0 if down > up else 1.0
    return (-sign if asked_down else sign) * abs(fig.value) * fig.points / 100
