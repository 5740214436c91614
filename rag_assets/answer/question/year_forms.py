"""Forms over several fiscal years: an N-year average, a sum over the years, a compound annual growth rate, and a
figure named in the first and the last year of a span (what a change or a CAGR compares)."""

from __future__ import annotations

import re

from rag_assets.answer.question.comparisons import COMPARED_RE
from rag_assets.answer.question.formulas import (Const, Item, MetricPlan, Mean, Node, Op, Parser, added, items_of,
                                                  money)
from rag_assets.answer.question.period import AskedPeriod
from rag_assets.answer.question.phrases import read_metric

AVERAGE_RE = re.compile(r"\b(?:(?:\d|two|three|four|five)[\s-]+years?\s+)?(?:average|mean|avg)\b(?:\s+(?:of|over))?"
                        r"(?:\s+the)?|\bover\s+the\s+(?:\d|two|three|four|five)\s+years\b|\b(?:for\s+)?each\s+of\b|"
                        r"\bthen\s+give\b|\bof\s+the\s+(?:\d|two|three|four|five)\s+years\b", re.I)
SUM_YEARS_RE = re.compile(r"\b(?:the\s+)?(?:sum(?:med|ming)?(?:\s+up)?|combined|cumulative(?:ly)?|aggregated?|"
                          r"altogether|in\s+total|add(?:ed|ing)?\s+(?:up|together)|(?:taken\s+)?together|"
                          r"^\s*(?:please\s+)?add\b|"  # an instruction: 'Add X's 2021 and 2022 Y (together)'
                          r"total\s+(?=(?:\w+\s+){0,6}?(?:over|across)\s+(?:the\s+)?"
                          r"(?:\w+\s+)?(?:years|fiscal\s+years|periods?)\b))(?:\s+of)?(?:\s+the)?", re.I)
CAGR_RE = re.compile(r"\bcagr\b|\bcompound(?:ed)?\s+annual(?:\s+growth)?(?:\s+rate)?\b", re.I)

# how a plan over several years says it is one (``MetricPlan.how``): what no one printed figure is
OVER_YEARS_HOW_RE = re.compile(r"a sum over \d+ years|a \d+-year average")


def average_over_years(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    """'the FY2017 - FY2019 3 year average of X', 'the average of X over fiscal 2019, 2020 and 2021', 'X for each
    of fiscal 2017, 2018 and 2019, then give the average': X in every year of the span, averaged."""
    if len(period.span) < 2 or not AVERAGE_RE.search(clause):
        return None
    inner = AVERAGE_RE.sub(" ", clause)
    terms = [read_metric(inner, at_year(parser, y)) for y in period.span]
    if any(t is None for t in terms) or all(isinstance(t, Item) for t in terms) and len(period.span) == 2 and \
            not re.search(r"\b(?:average|mean|avg)\b", clause, re.I):
        return None
    return MetricPlan(Mean(tuple(terms)), f"a {len(period.span)}-year average")


def sum_over_years(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    """'the combined X of fiscal 2020, 2021 and 2022', 'the sum of X for FY2019-FY2021', 'total X over the three
    years', 'X in 2021 and 2022 added together': X in every year of the span, added up."""
    asked = sum_asked(clause)
    if len(period.span) < 2 or re.search(r"\b(?:average|mean|avg)\b", clause, re.I) or asked is None:
        return None
    inner, said = asked
    terms = [read_metric(inner, at_year(parser, y)) for y in period.span]
    if any(t is None for t in terms) or len(set(terms)) < len(terms):
        return None
    items = [i for t in terms for i in items_of(t)]
    if not said and not all(is_flow(i, parser) for i in items) and \
            not (OVER_YEARS_RE.search(clause) and not any(is_balance(i, parser) for i in items)):
        return None  # 'total assets at the end of 2021 and 2022': a balance at two dates, not a sum
    return MetricPlan(added(terms), f"a sum over {len(terms)} years")


TOTAL_RE = re.compile(r"\b(?:the\s+)?total\b", re.I)  # 'total capex from 2020 to 2022': the flows added up
# 'total segment net income over 2020, 2021 and 2022': a total over the years of any row but a balance
OVER_YEARS_RE = re.compile(r"\b(?:over|across)\s+(?:the\s+)?(?:fiscal\s+|fy\s?)?(?:19|20)\d\d\b", re.I)


def sum_asked(clause: str) -> tuple[str, bool] | None:
    """``clause`` without the words asking a sum, and whether they were words of a sum proper ('combined', 'the
    sum of', 'added together') rather than a bare 'total' (which a balance at two dates also says); None when
    it says neither."""
    if SUM_YEARS_RE.search(clause):
        return SUM_YEARS_RE.sub(" ", clause), True
    return (TOTAL_RE.sub(" ", clause), False) if TOTAL_RE.search(clause) else None


def is_balance(item: Item, parser: Parser) -> bool:
    """``item`` is a balance of the library (a balance-sheet row), which does not add up over years."""
    spec = parser.library.items.get(item.name)
    return spec is not None and spec.statement == "balance_sheet"


def is_flow(item: Item, parser: Parser) -> bool:
    """``item`` is a flow of a period (an income or cash-flow row), which adds up over years; a balance does not."""
    spec = parser.library.items.get(item.name)
    return spec is not None and spec.statement in ("income_statement", "cash_flow")


def cagr(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    m = CAGR_RE.search(clause)
    if m is None or len(period.years) < 2:
        return None
    first, last = min(period.years), max(period.years)
    ends = span_ends(CAGR_RE.sub(" ", clause), first, last, parser)
    if ends is None:
        return None
    a, b = ends
    growth = Op("^", Op("/", b, a), Const(1 / (last - first)))
    return MetricPlan(Op("-", growth, Const(1.0)), "a compound annual growth rate")


def span_ends(words: str, first: int, last: int, parser: Parser) -> tuple[Node, Node] | None:
    """The figure ``words`` name in the first and in the last year, or None when they name none; a ratio named
    in the plural for its two years ('the 2017 and 2016 operating margins') is the ratio, but words that read as
    a ratio as written keep their plural ('net earnings as a percent of sales', not of 'sale'); what they are
    compared with is no part of them ('net income in 2022 compared to 2021')."""
    words, read = COMPARED_RE.sub("", words), []
    for named in dict.fromkeys((words, re.sub(r"(?<=\w[^s\W])s$", "", words.strip()))):
        a, b = read_metric(named, at_year(parser, first)), read_metric(named, at_year(parser, last))
        if a is not None and b is not None:
            read.append((named, a, b))
    ratio = next(((a, b) for _, a, b in read if not money(a)), None)
    return ratio or next(((a, b) for named, a, b in read if named == words), None)


def at_year(parser: Parser, year: int) -> Parser:
    """``parser`` reading another fiscal year (the question's definitions kept)."""
    return Parser(parser.library, year, parser.defined)


