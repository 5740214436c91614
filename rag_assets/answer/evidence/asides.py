"""Figures a row's label prints in brackets: the per-share amounts beside a total ('Dividends declared ($2.585,
$2.535, $2.485 per share) | (10,860) | (10,532) | (10,284)'; 'Dividends (per share - $1.48, $1.40 and $1.32 in
2017, 2016 and 2015, respectively)'). They are a row of their own, per share, each amount dated by its column's
year in order (or by the years the bracket names); the row's figures stay the total's."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.evidence.numbers import parse_number

ASIDE_RE = re.compile(r"\(([^()]*\bper\s+(?:common\s+)?share\b[^()]*)\)", re.I)
AMOUNT_RE = re.compile(r"\$\s?(\d+(?:\.\d+)?)(?!\s*(?:million|billion|thousand))")
ASIDE_YEARS_RE = re.compile(r"\bin\s+((?:(?:19|20)\d\d(?:,\s*|\s+and\s+|,\s+and\s+)?)+)")


def per_share_aside(cand):
    """The row of per-share amounts ``cand``'s label prints in brackets, named by the label's words before the
    bracket and 'per share' ('Dividends declared per share'), or None: the amounts must be as many as the row's
    dated figures (or the years the bracket names)."""
    m = ASIDE_RE.search(cand.label)
    if m is None or cand.source != "row":
        return None
    amounts = AMOUNT_RE.findall(m.group(1))
    named = ASIDE_YEARS_RE.search(m.group(1))
    years = re.findall(r"(?:19|20)\d\d", named.group(1)) if named else \
        [f.period for f in cand.figures if f.period and not f.percent]
    if not amounts or len(amounts) != len(years) or len(set(years)) != len(years):
        return None
    head = cand.label[:m.start()].strip(" -—:")
    dated = next((f for f in cand.figures if f.period), None)
    figures = tuple(replace(dated, written=f"${a}", value=parse_number(a), percent=False, period=y)
                    for a, y in zip(amounts, years)) if dated else ()
    if not head or not figures:
        return None
    return replace(cand, label=f"{head} per share", figures=figures, scale=1.0, scale_words="")
