"""A yes/no asked of each quarter of a fiscal year, or of any of them ('was the gross margin above 43% in each
quarter of fiscal 2018', 'did quarterly revenue exceed $10 billion in any quarter of 2019', 'did net income grow in
every quarter of 2017 compared with the same quarter of 2016'): the criterion read in each quarter's column, never
the fiscal year's figure, which answers none of them."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.question.criteria import Criterion
from rag_assets.answer.question.formulas import Node, items_of, substitute
from rag_assets.answer.question.period import AskedPeriod

_QUARTERS = r"(?:of\s+)?(?:the\s+|its\s+)?(?:four\s+)?(?:fiscal\s+)?quarters?\b"
EACH_QUARTER_RE = re.compile(rf"\b(?:each|every|all)\s+{_QUARTERS}", re.I)
ANY_QUARTER_RE = re.compile(rf"\b(?:any|at\s+least\s+one|one\s+or\s+more)\s+{_QUARTERS}", re.I)
QUARTERS = (1, 2, 3, 4)


def each_quarter(found: Criterion, body: str, asked: AskedPeriod) -> Criterion | None:
    """``found`` asked of each (or any) quarter of the year asked: a level in each quarter, or a movement from the
    same quarter of the year before; None when the question asks no such thing or names a quarter itself."""
    anyof = ANY_QUARTER_RE.search(body) is not None
    if asked.months or not (anyof or EACH_QUARTER_RE.search(body)):
        return None
    if found.before is None:
        each = tuple(replace(found, now=_in_quarter(found.now, q)) for q in QUARTERS)
    elif found.test in ("up", "down") and len(set(asked.years)) == 2:
        each = tuple(replace(found, now=_in_quarter(found.now, q), before=_in_quarter(found.before, q))
                     for q in QUARTERS)
    else:
        return None
    return replace(found, each=each, any_of=anyof)


def _in_quarter(node: Node, quarter: int) -> Node:
    return substitute(node, {i: replace(i, months=3, quarter=quarter) for i in items_of(node)})
