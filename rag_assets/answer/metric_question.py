"""What formula a question asks Python to compute: its own definitions first ("DPO is defined as: ..."), then
the generic forms analysts write ("3 year average of X from FY2017 to FY2019", "X as a % of Y", "X % margin",
"revenue CAGR from FY2020 to FY2022"), then a metric or a single line item of the library. Only questions that
name a fiscal year are computed; the others (the ERC templates: 'the last period') are read as printed."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_assets.answer.filings import asked_period
from rag_assets.answer.formulas import Const, FormulaError, Item, Mean, Node, Op, Parser, items_of
from rag_assets.answer.metric_library import Library, fold

DEFINED_RE = re.compile(r"(?:^|[.?!:]\s+)([^.?!:]{1,80}?)\s+(?:here\s+)?is\s+defined\s+as:?\s+(.+?)(?=\.\s|\.?$)", re.I)
DEFINE_RE = re.compile(r"\bdefine\s+([^.?!]{1,80}?)\s+as:?\s+(.+?)(?=\.\s|\.?$)", re.I)
YEAR_AVG_RE = re.compile(r"\b(\d|two|three|four|five)[\s-]+year\s+average\s+(?:of\s+)?(?:the\s+)?(.+?)"
                         r"(?:\s+from\s+|\s+for\s+|\s+between\s+|\?|$)", re.I)
CAGR_RE = re.compile(r"(?:\d+\s+year\s+)?(.+?)\s+cagr\b", re.I)
SHARE_OF_RE = re.compile(r"(.+?)\s+as\s+an?\s+(?:%|percent(?:age)?)\s+of\s+(?:the\s+)?(.+?)(?:\s+for\b|\s+from\b|\?|$)",
                         re.I)
MARGIN_RE = re.compile(r"(.+?)\s*%?\s*margin\b", re.I)
GROWTH_RE = re.compile(r"\b(?:year[\s-]+over[\s-]+year|yoy|y/y)?\s*(?:%\s*|percent(?:age)?\s+)?(?:change|growth)\s+"
                       r"(?:rate\s+)?in\s+(?:the\s+)?(.+?)(?:\s+from\b|\s+between\b|\s+for\b|\?|$)|"
                       r"\b(.+?)\s+(?:yoy|year[\s-]+over[\s-]+year|y/y)?\s*(?:growth|change)(?:\s+rate)?"
                       r"(?:\s+(?:from|between|for)\b|\s*\?|\s*$)", re.I)
ASKS_RE = re.compile(r"\b(?:what\s+(?:is|was|are|were)|how\s+much)\s+(?:the\s+)?", re.I)


@dataclass(frozen=True)
class MetricPlan:
    node: Node
    how: str  # where the formula came from: the question's definition, a form, the library


def _name_key(name: str) -> str:
    name = re.sub(r"\bhere\b|\bthe\b", " ", fold(name))
    return " ".join(name.split()[-5:])


def definitions(question: str) -> dict[str, str]:
    """Names the question defines -> their formula text (every word form of the name: 'dpo', 'days payable
    outstanding dpo')."""
    out: dict[str, str] = {}
    for m in [*DEFINED_RE.finditer(question), *DEFINE_RE.finditer(question)]:
        name, formula = m.group(1), m.group(2)
        key = _name_key(name)
        out.setdefault(key, formula)
        for abbr in re.findall(r"\(([A-Za-z&]{2,8})\)", name):  # 'days payable outstanding (DPO)'
            out.setdefault(fold(abbr), formula)
    return out


def plan(question: str, library: Library) -> MetricPlan | None:
    """The formula ``question`` asks for, or None when it names no fiscal year, nothing Python can compute, or
    (without a definition) a part of the company (a segment, a region, per share, adjusted): the company's
    total would be a confident wrong answer."""
    year = asked_period(question).target
    if year is None:
        return None
    defined = definitions(question)
    parser = Parser(library, year, defined)
    try:
        if defined:
            return MetricPlan(parser.parse(next(iter(defined.values()))), "the question's definition")
        asked = _asked_text(question)
        if SCOPE_RE.search(asked):  # a part of the company (a segment, per share, adjusted): not its statements
            return None
        if WORD_OPERATOR_RE.search(asked):  # a formula written out: read whole, or not at all
            return _written(asked, parser)
        return _form(asked, question, parser) or _library(asked, parser)
    except (FormulaError, RecursionError, ZeroDivisionError):
        return None


WORD_OPERATOR_RE = re.compile(r"\b(?:less|minus|plus|divided\s+by|times|multiplied\s+by)\b|\s[+*/]\s|"
                              r"(?<!\d)\s-\s(?!(?:fy\s?)?\d{4})", re.I)  # 'FY2017 - FY2019' is a span of years
UNIT_PHRASE_RE = re.compile(r"\(?\s*\b(?:in|answer\s+in)\s+(?:units\s+of\s+)?(?:usd|us\$|\$)?\s*(?:thousands|millions|"
                            r"billions|percents?)\s*\)?|\bfor\s+[A-Z][^?]*\?.*$|\?.*$", re.I)


def _written(asked: str, parser: Parser) -> MetricPlan | None:
    """A formula the question writes in its own clause ('FY2021 unadjusted EBITDA less capex'), when every
    operand is a line item or metric of the library (never a half-read: 'EBITDA' alone for 'EBITDA less
    capex')."""
    node = parser.parse(UNIT_PHRASE_RE.sub(" ", asked).strip())
    if all(item.name in parser.library.items for item in items_of(node)):
        return MetricPlan(node, "a formula the question writes")
    return None


def _asked_text(question: str) -> str:
    """The clause that names the metric: from 'what is' to the end of that sentence."""
    asks = list(ASKS_RE.finditer(question))
    text = question[asks[-1].end():] if asks else question
    return re.split(r"(?<=[?])\s|\.\s", text, maxsplit=1)[0]


def _form(asked: str, question: str, parser: Parser) -> MetricPlan | None:
    years = sorted(asked_period(question).years)
    m = YEAR_AVG_RE.search(asked)
    if m and len(years) >= 2:
        span = range(years[0], years[-1] + 1)
        inner = [_metric(m.group(2), Parser(parser.library, y, parser.defined)) for y in span]
        if all(inner):
            return MetricPlan(Mean(tuple(inner)), f"a {len(span)}-year average")
    m = GROWTH_RE.search(asked)
    if m and "cagr" not in asked.lower():
        words = m.group(1) or m.group(2)
        first, last = (years[0], years[-1]) if len(years) >= 2 else (parser.year - 1, parser.year)
        a, b = _metric(words, Parser(parser.library, first)), _metric(words, Parser(parser.library, last))
        if a is not None and b is not None:
            relative = bool(re.search(r"%|percent|growth|yoy|year[\s-]+over", asked, re.I))
            diff = Op("-", b, a)
            return MetricPlan(Op("/", diff, a) if relative else diff, "a change between two years")
    m = CAGR_RE.search(asked)
    if m and len(years) >= 2:
        first, last = years[0], years[-1]
        a, b = parser.item(m.group(1), first), parser.item(m.group(1), last)
        growth = Op("^", Op("/", b, a), Const(1 / (last - first)))
        return MetricPlan(Op("-", growth, Const(1.0)), "a compound annual growth rate")
    node = _metric(asked, parser)
    return MetricPlan(node, "a share, margin or metric") if node is not None and not isinstance(node, Item) else None


def _metric(text: str, parser: Parser) -> Node | None:
    """'X as a % of Y' (X / Y), 'X % margin' (X / revenue), a library metric, or a line item."""
    m = SHARE_OF_RE.search(text)
    if m:
        return Op("/", _operand(m.group(1), parser), _operand(m.group(2), parser))
    m = MARGIN_RE.search(text)
    if m and (parser.library.item_in(m.group(1)) or parser.library.metric_in(m.group(1))):
        base = _operand(m.group(1), parser)
        if base is not None and not (isinstance(base, Item) and base.name in ("gross profit", "revenue")):
            return Op("/", base, Item("revenue", parser.year))
    return _operand(text, parser)


def _operand(text: str, parser: Parser) -> Node | None:
    spec = parser.library.metric_in(text)
    if spec:
        return parser.parse(spec.formula)
    item = parser.library.item_in(text)
    return Item(item.name, parser.year) if item else None


SCOPE_RE = re.compile(r"\b(?:segments?|divisions?|regions?|geograph\w*|per\s+\w+|business\s+units?|products?\s+line|"
                      r"excluding|adjusted|non-gaap|organic)\b", re.I)


def _library(asked: str, parser: Parser) -> MetricPlan | None:
    """A metric or line item of the library named in the asked clause."""
    node = _operand(asked, parser)
    if node is None:
        return None
    return MetricPlan(node, "a line item" if isinstance(node, Item) else "the metric library")


SIGN_RE = re.compile(r"\b(positive|negative)\s+(.+?)(?:\s+based\b|\s+as\s+of\b|\s+in\b|\s+for\b|\?|$)", re.I)
UP_RE = re.compile(r"\b(?:increas|improv|grow|grew|rais|rise|rose|expand)\w*", re.I)
DOWN_RE = re.compile(r"\b(?:decreas|declin|reduc|fall|fell|shrink|shrank|contract)\w*", re.I)


@dataclass(frozen=True)
class Criterion:
    """A yes/no that figures decide: ``now`` is positive/negative, went up/down from ``before``, or (an
    analyst's judgement, ``at_least``) reaches ``bound`` by the library's rule of thumb."""

    test: str  # positive, negative, up, down, at_least
    now: Node
    before: Node | None = None
    bound: float = 0.0
    rule: str = ""


def criterion(question: str, library: Library) -> Criterion | None:
    """The figure criterion a yes/no question states ('positive working capital based on FY2022 data', 'did X
    increase its debt between 2021 and 2022', 'an improving gross margin as of FY2022') or names (a judgement
    of the library: 'a capital-intensive business based on FY2022 data'), or None (a judgement the model makes,
    or a question naming no fiscal year)."""
    asked = asked_period(question)
    if asked.target is None:
        return None
    try:
        m = SIGN_RE.search(question)
        if m:
            node = _metric(m.group(2), Parser(library, asked.target))
            return Criterion(m.group(1).lower(), node) if node is not None else None
        return _movement(question, asked, library) or _judgement(question, asked.target, library)
    except (FormulaError, RecursionError):
        return None


def _movement(question: str, asked, library: Library) -> Criterion | None:
    """'did X increase/decrease ... between FYa and FYb' (default: the year before the one asked)."""
    move = UP_RE.search(question) or DOWN_RE.search(question)
    if move is None:
        return None
    years = sorted(asked.years)
    before_year = years[0] if len(years) >= 2 else asked.target - 1
    text = re.split(r"[?]", question)[0]
    text = re.sub(r"\b(?:compared\s+to|versus|vs\.?|from|between)\b.*$", "", text, flags=re.I)
    now = _metric(text, Parser(library, asked.target))
    before = _metric(text, Parser(library, before_year))
    if now is None or before is None:
        return None
    return Criterion("up" if UP_RE.search(question) else "down", now, before)


def _judgement(question: str, year: int, library: Library) -> Criterion | None:
    spec = library.judgement_in(question)
    if spec is None:
        return None
    return Criterion("at_least", Parser(library, year).parse(spec.formula), bound=spec.yes_at_least, rule=spec.rule)
