"""Forms over the quarters of one fiscal year: a quarter's share of its year ('what share of full-year 2018
revenues came in the fourth quarter', 'Q4 sales as a percentage of annual sales') and a quarterly average
('average quarterly net sales in 2018': the year's flow over its four quarters, which add up to it)."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.question.formulas import Const, Item, MetricPlan, Node, Op, Parser, added, money
from rag_assets.answer.question.period import QUARTER_LIST_RE, AskedPeriod
from rag_assets.answer.question.phrases import read_metric
from rag_assets.answer.question.year_forms import is_flow, sum_asked

SHARE_WORDS_RE = re.compile(r"\b(?:what\s+|the\s+)?(?:share|percentage|percent|proportion|fraction|portion|part)\s+of\b|"
                            r"%\s+of\b|\bhow\s+much\s+of\b|\bas\s+an?\s+(?:%|percent(?:age)?|share|proportion|fraction)"
                            r"\s+of\b", re.I)
WHOLE_YEAR_RE = re.compile(r"\b(?:(?:the\s+)?(?:full|whole|entire)[\s-]+(?:fiscal[\s-]+)?year(?:['’]s)?|annual|yearly|"
                           r"(?:twelve|12)[\s-]+months?)\b", re.I)
QUARTERLY_AVERAGE_RE = re.compile(r"\b(?:average|mean|avg)\s+(?:per\s+)?quarter(?:ly)?\b|\bquarterly\s+(?:average|mean)\b|"
                                  r"\b(?:on\s+)?average\s+(?:per|a|each)\s+quarter\b|\bper\s+quarter\s+on\s+average\b", re.I)
# the verbs of 'came in', 'was earned in', 'did Globex book in': how a share of a year is said, no figure's words
VERB_RE = re.compile(r"\b(?:came|come|comes|was|were|is|are|did|does|do|earned|booked|generated|recorded|reported|"
                     r"realized|made|fell|landed|arrived|earn|book|generate|record|report|realize|make)\b", re.I)
QUARTERS_IN_YEAR = 4
# words comparing the quarters named rather than adding them up
COMPARING_RE = re.compile(r"\b(?:between|versus|vs|compared?|change[ds]?|differ\w*|gr[eo]w\w*|increase[ds]?|"
                          r"decrease[ds]?|r[io]se|fell|fall|declined?|higher|lower|more|less|than|exceed\w*|ratio|"
                          r"share|percent\w*)\b", re.I)



def quarter_share(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    """The quarter's figure over its fiscal year's ('what share of full-year 2018 revenues came in the fourth
    quarter of 2018'): the question names one quarter of one year, a share, and the whole year; the figure is an
    amount of the period (a flow), read in the quarter's column and in the year's."""
    if period.months != 3 or not period.quarter or len(set(period.years)) != 1:
        return None
    if not (SHARE_WORDS_RE.search(clause) and (WHOLE_YEAR_RE.search(clause) or _year_is_the_whole(clause))):
        return None
    node = _flow(WHOLE_YEAR_RE.sub(" ", SHARE_WORDS_RE.sub(" ", clause)), parser)
    if node is None:
        return None
    quarter = replace(node, months=3, quarter=period.quarter)
    return MetricPlan(Op("/", quarter, node), "a quarter's share of its fiscal year")


def _year_is_the_whole(clause: str) -> bool:
    """The share's whole names the year, the quarter is said after it ('what percentage of X's 2017 revenues was
    earned in the fourth quarter', 'what share of 2017 sales came in Q4'): the year's figure is the whole."""
    m = re.search(rf"(?:{SHARE_WORDS_RE.pattern})(?P<whole>.*?){VERB_RE.pattern}(?P<rest>.*)$", clause, re.I)
    return m is not None and re.search(r"\b(?:19|20)\d\d\b", m.group("whole")) is not None and \
        not QUARTER_WORD_RE.search(m.group("whole")) and QUARTER_WORD_RE.search(m.group("rest")) is not None


QUARTER_WORD_RE = re.compile(r"\bquarter\b|\b[1-4]Q\b|\bQ[1-4]\b", re.I)


def quarterly_average(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    """'the average quarterly net sales in 2018': the fiscal year's flow over its four quarters (a balance has no
    such average in an annual report: None)."""
    if period.months or len(set(period.years)) != 1 or not QUARTERLY_AVERAGE_RE.search(clause):
        return None
    node = _flow(QUARTERLY_AVERAGE_RE.sub(" ", clause), parser)
    if node is None:
        return None
    return MetricPlan(Op("/", node, Const(QUARTERS_IN_YEAR)), "a quarterly average: the year's flow over its quarters")


def quarters_sum(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    """'the sum of revenues in the first and second quarters of 2023', 'Q1 and Q2 2023 net sales combined', 'net
    sales in the third and fourth quarters of 2023' (a flow over them, nothing compared): the flow of each quarter
    the period names (``points``, all of one fiscal year) added up, each read in its quarter's column or derived
    from the spans the filings print."""
    listed = tuple(q for _, q in period.points) if len({y for y, _ in period.points}) == 1 else ()
    asked = sum_asked(clause) or (None if COMPARING_RE.search(clause) else (clause, True))
    if len(listed) < 2 or len(set(period.years)) != 1 or asked is None:
        return None
    node = _flow(QUARTER_LIST_RE.sub(" ", asked[0]), parser)
    if node is None:
        return None
    return MetricPlan(added([replace(node, months=3, quarter=q) for q in listed]), f"a sum over {len(listed)} quarters")


def _flow(words: str, parser: Parser) -> Item | None:
    """The line item ``words`` name when it is a flow of a period (an income or cash-flow row, which its quarters
    add up to); None for a balance, a ratio or words naming no item."""
    node: Node | None = read_metric(VERB_RE.sub(" ", words), parser)
    return node if isinstance(node, Item) and money(node) and not node.part and is_flow(node, parser) else None

