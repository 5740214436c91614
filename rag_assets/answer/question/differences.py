"""A difference of two figures of one period ('the difference between X's net interest income and its noninterest
revenue in Q2 2023', 'by how much did operating cash flow exceed capital expenditures in 2022', 'how much more
was spent on R&D than on SG&A'): the first figure less the second, each an item or metric of the library. A
difference between two periods of one figure ('the difference between FY2021 and FY2020 gross margin', 'by how
much did X in 2021 exceed that of 2020') is no such form: one side is no figure."""

from __future__ import annotations

import re

from rag_assets.answer.question.formulas import MetricPlan, Op, Parser
from rag_assets.answer.question.period import AskedPeriod
from rag_assets.answer.question.phrases import read_metric

_THE = r"(?:the\s+|its\s+|their\s+|(?:[A-Z0-9][\w&.-]*\s+)*[A-Z0-9][\w&.-]*['’]s\s+)?"  # 'its', "Globex's" before a side
_END = r"(?=\s+(?:for|in|during|at|over|as\s+of|on\s+(?:a|an|the)\b)|\s*[,?;]|\s*$)"  # the period after a side
DIFFERENCE_RES = (
    re.compile(rf"\bdifference\s+between\s+{_THE}(?P<a>.+?)\s+and\s+{_THE}(?P<b>.+?){_END}", re.I),
    re.compile(rf"(?:\bby\s+how\s+much\s+|^)(?:did|does|do|had|has|have|was|were)\s+{_THE}(?P<a>.+?)\s+(?:exceed|surpass|"
               rf"outstrip|outpace|top)(?:ed)?\s+{_THE}(?P<b>.+?){_END}", re.I),
    re.compile(rf"\bhow\s+much\s+(?:more|higher|greater|larger|bigger)\s+(?:was|were|is|are)\s+{_THE}(?P<a>.+?)\s+than"
               rf"\s+{_THE}(?P<b>.+?){_END}", re.I),
)
NO_FIGURE_RE = re.compile(r"^(?:that|those|the\s+(?:prior|previous|same))\b|^(?:(?:fiscal\s+(?:year\s+)?|fy\s?|in\s+)?"
                          r"(?:19|20)\d\d)\b", re.I)  # a side naming a period, not a figure


def difference_of_items(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    """The first figure less the second where ``clause`` asks the difference of two figures of one period, each
    read as an item or metric of the library; None otherwise (a side naming a period, or no figure)."""
    if len(period.years) > 1:
        return None  # two years asked: a change between them, another form's
    for pattern in DIFFERENCE_RES:
        m = pattern.search(clause)
        if m is None or any(NO_FIGURE_RE.search(m[side].strip()) for side in ("a", "b")):
            continue
        a, b = read_metric(m["a"], parser), read_metric(m["b"], parser)
        if a is not None and b is not None and a != b:
            return MetricPlan(Op("-", a, b), "a difference of two figures")
    return None
