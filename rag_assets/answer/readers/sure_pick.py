"""The figure Python reads without the model: the one row of the shortlist that names the metric's words in the
period asked (``sure_pick``)."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.evidence.figures import Figure
from rag_assets.answer.readers.figure_periods import of_period
from rag_assets.answer.readers.line_checks import names_metric, own_words

NOTE_REF_RE = re.compile(r"\(\s*(?:see\s+)?notes?\s+\d+[^()]*\)", re.I)  # '(Note 14)', '(see Notes 3 and 4)'


def sure_pick(cands: list[Candidate], metric: MetricQuery, year: int | None, months: int,
              quarter: tuple[int, int] | None, own_quarters: dict[str, int] | None = None,
              template: frozenset[str] = frozenset(), change: bool = False, as_of: tuple[int, int] | None = None
              ) -> tuple[Candidate, Figure] | None:
    """The figure Python reads without the model: the rows that print nearly every word of the metric
    (``names_metric``), or exactly its words (``template`` words and an aside in brackets aside: 'Book value per
    share', 'Adjusted EPS (diluted)'), each hold one figure of the period asked; of those, the rows adding the
    fewest words of their own ('Book value per share' before 'Tangible book value per share'; a note reference is
    none), and where they differ, those printing every word asked, their asides' too ('Translated earnings contract
    gain (loss), net' before the cash flow's 'Translated earnings contract (gain) loss'), when they all
    print the same value (the best-ranked row then); None
    when no row does, they disagree, or no year is asked. ``own_quarters``: the quarter each interim filing
    reports on, whose unnamed quarter columns are that quarter's. ``change``: a percentage change is asked, the
    row's one undated percentage (its '% Change' column, the shortlist keeps the months asked). ``as_of``: the
    (year, month) of a date asked 'at' ('at June 30, 2023'), of which the filing's own quarter column is."""
    if year is None:
        return None
    want = own_words(metric)
    picks = []
    for cand in cands:
        label = NOTE_REF_RE.sub(" ", cand.label)  # '(Note 14)' is no word of the row's
        printed = set(metric.words(re.sub(r"\([^()\d]*\)", " ", label)))  # an aside in words: 'EPS (diluted)'
        extra = printed - want - template - metric.aliases  # 'EPS' asked: 'earnings per share' adds none
        if cand.source != "row" or not (names_metric(metric, cand.label) or want and not extra and want <= printed):
            continue
        own = (own_quarters or {}).get(cand.sha1, 0)
        figs = [f for f in cand.figures if (not f.period if change else of_period(f, year, months, quarter, own, as_of))]
        if len(figs) == 1:
            missing = want - set(metric.words(re.sub(r"[()]", " ", label)))  # its asides' words too: 'gain (loss), net'
            picks.append((len(extra), len(missing), cand, figs[0]))
    fewest = [p for p in picks if p[0] == min(q[0] for q in picks)]
    if len({c.value_of(f) for _, _, c, f in fewest}) > 1:  # of those, the rows printing every word asked
        fewest = [p for p in fewest if p[1] == min(q[1] for q in fewest)]
    return fewest[0][2:] if fewest and len({c.value_of(f) for _, _, c, f in fewest}) == 1 else None
