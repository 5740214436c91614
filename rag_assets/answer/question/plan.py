"""What formula a question asks Python to compute. Read from the question's canonical text
(``question.wording``): the clause that asks (its own sentence first, never the boilerplate after it) is read
with the question's definitions known, so a defined name inside it ('EBITDA margin, where EBITDA is ...') is
its formula and a definition is never the whole answer; then the generic forms analysts write (an N-year average,
a change or growth between two years, a CAGR, 'X as a % of Y', 'X-to-Y ratio', 'X margin'), then a metric or a
line item of the library. The plan is checked before it runs: a percent or a ratio asked is never an amount.
Only questions that name a fiscal year are computed; the others (the ERC templates: 'the last period') are read
as printed."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.question.comparisons import COMPARED_RE, figure_words
from rag_assets.answer.question.differences import difference_of_items
from rag_assets.answer.question.exclusions import excluded
from rag_assets.answer.question.formulas import (OVER_DIVIDES, FormulaError, Item, Mean, MetricPlan, Node, Op, Parser,
                                                 items_of, money, of_library, of_months, of_part, substitute)
from rag_assets.answer.question.metric_library import Library, fold
from rag_assets.answer.question.nested_parts import is_region
from rag_assets.answer.question.parts import read_part
from rag_assets.answer.question.period import SEQUENTIAL_RE, AskedPeriod, asked_period
from rag_assets.answer.question.quarter_forms import quarter_share, quarterly_average, quarters_sum
from rag_assets.answer.question.phrases import SCOPE_RE, defined_in, read_metric, refused_scope
from rag_assets.answer.question.unit import asked_unit, percent_asked, points_asked, without_answer_form
from rag_assets.answer.question.year_forms import CAGR_RE, average_over_years, cagr, span_ends, sum_over_years
from rag_assets.answer.question.wording import (Definitions, asked_clauses, canonical, definitions, name_key,
                                                without)

# 'for' before the period or the owner of a figure ('for FY2022', 'for the second quarter', 'for Globex'), not inside
# its name ('provision for credit losses')
_FOR_WHEN = (r"(?=(?:the\s+)?(?:fiscal|fy|years?|quarters?|first|second|third|fourth|three|six|nine|twelve|full|half|"
             r"prior|previous|last|\d|q[1-4]\b|h[12]\b)|(?-i:[A-Z]))")
_CHANGE = r"(?:change|growth|difference|increase|decrease|decline|rise|drop|expansion|contraction|improvement|deterioration)"
GROWTH_RES = (  # tried in this order: 'growth in X', then 'X growth', then 'did X grow'
    re.compile(r"\b(?:year[\s-]+over[\s-]+year|yoy|y/y|annual)?\s*(?:%\s*|percent(?:age)?\s+)?" + _CHANGE +
               r"\s+(?:rate\s+)?(?:in|of|between)\s+(?:the\s+)?(.+?)(?:\s+from\b|\s+between\b|\s+for\s+" + _FOR_WHEN +
               r"|\s+in\s+"
               r"(?:fiscal\s+|fy\s?)?\d{4}\b.*\band\b|\s+and\s+(?:fiscal\s+|fy\s?)?\d{4}\b|\?|$)", re.I),
    re.compile(r"\b(.+?)\s+(?:yoy|year[\s-]+over[\s-]+year|y/y|annual)?\s*" + _CHANGE + r"(?:\s+rate)?"
               r"(?:\s+(?:yoy|year[\s-]+over[\s-]+year|y/y))?(?:\s*%|\s+in\s+%)?"  # 'revenue growth YoY', '... growth %'
               r"(?:,?\s+(?:from|between|for|in|during|over|versus|vs\.?|compared|relative)(?=\s|$)|,|\s*\?|\s*$)", re.I),
    re.compile(r"\bdid\s+(.+?)\s+(?:grow|increase|decrease|decline|change|rise|fall(?!\s+short)|expand|contract|improve|"
               r"deteriorate|widen|narrow|shrink|move|shift|swing)\b", re.I),
    # "the revenue growth (rate) of Globex's Cloud segment": the figure before the growth, of the owner after it
    re.compile(r"\b(?P<what>.+?)\s+growth(?:\s+rate)?\s+(?:of|for|at)\s+(?P<whose>.+?)(?:\s+(?:from|between|in|during|"
               r"over)\b|,|\s*\?|\s*$)", re.I),
    # 'how many basis points of gross margin did Globex gain (lose, add, give up)': the points counted are the figure's
    re.compile(r"\b(?:points?|bps?)\s+of\s+(.+?)\s+did\s+.+?\s+(?:gain|lose|add|shed|give\s+up|pick\s+up)\b", re.I),
    # 'the difference between FY2021 and FY2020 gross margin': the years first, the figure after them
    re.compile(r"\b" + _CHANGE + r"\s+(?:between|from)\s+(?:the\s+)?(?:[\w&.-]+['’]s\s+)?(?:(?:fiscal\s+(?:year\s+)?|fy\s?)?\d{4})\s+(?:and|to)\s+"
               r"(?:(?:fiscal\s+(?:year\s+)?|fy\s?)?\d{4})(?:'s)?\s+(.+?)(?:,|\?|$)", re.I),
)
HOW_MUCH_MORE_RE = re.compile(r"(?:\bhow\s+much\s+|^)(higher|lower|more|less|greater|bigger|larger|smaller)\s+(?:was|were|is|are|"
                              r"did)\s+(.+?)\s+than\b", re.I)  # 'how much higher was X in 2021 than in 2020'
# 'by how much did X in 2018 exceed (fall short of) those of 2017': the first year's figure less the other's
EXCEED_RE = re.compile(r"(?:\bby\s+how\s+much\s+|^)(?:did|does|do|had|has|have)\s+(.+?)\s+(?:(?P<up>exceed|surpass|outpace|"
                       r"outstrip|top|beat)|fall\s+short\s+of|trail|lag(?:\s+behind)?)\b", re.I)
RELATIVE_RE = re.compile(r"%|percent|growth|grow|yoy|year[\s-]+over|rate", re.I)
WORD_OPERATOR_RE = re.compile(r"\b(?:less|minus|plus|divided\s+by|times|multiplied\s+by)\b|\s[+*/]\s|"
                              rf"{OVER_DIVIDES}|"
                              r"(?<!\d)\s-\s(?!(?:fy\s?)?\d{4})", re.I)  # 'FY2017 - FY2019' is a span of years
UNIT_PHRASE_RE = re.compile(r"(?i:,?\s*\(?\s*\b(?:in|answer\s+in)\s+(?:units\s+of\s+)?(?:usd|us\$|\$)?\s*(?:thousands|"
                            r"millions|billions|(?:percentage|basis)\s+points|bps|percents?)\s*\)?,?)|"
                            r"(?i:,?\s*\bas\s+an?\s+(?:decimal|fraction)\b(?!\s+of\b))|\b(?i:for)\s+[A-Z][^?]*(?:\?.*)?$|\?.*$")
STATEMENT_REF_RE = re.compile(  # 'on 3M's balance sheet', 'in its income statement': where, not what
    r"\b(?:on|in|from|per|according\s+to)\s+(?:the\s+|its\s+|their\s+|[\w&.-]+(?:'s|’s)\s+)?(?:consolidated\s+)?"
    r"(?:balance\s+sheets?|income\s+statements?|cash[\s-]+flows?\s+statements?|statements?\s+of\s+(?:financial\s+"
    r"position|operations|income|earnings|cash\s+flows?)|p&l(?:\s+statement)?|10-?[kq]|annual\s+report|"
    r"(?:(?:q[1-4]|(?:first|second|third|fourth)[\s-]+quarter)\s+)?(?:(?:fy\s?|fiscal\s+)?\d{4}\s+)?(?:earnings|results|"
    r"quarterly|press)\s+(?:release|report|results)|(?:q[1-4]|(?:first|second|third|fourth)[\s-]+quarter)\s+(?:\d{4}\s+)?"
    r"results)\b", re.I)


def asks_part(question: str) -> bool:
    """The question asks a part of the company or an adjusted figure (``SCOPE_RE``) and defines no formula."""
    return SCOPE_RE.search(question) is not None and not definitions(question)


def plan(question: str, library: Library) -> MetricPlan | None:
    """The formula ``question`` asks for, or None when it names no fiscal year, nothing Python can compute, a
    result whose dimension contradicts the unit asked, or (without a definition) a part of the company (a
    segment, a region, per share, adjusted): the company's total would be a confident wrong answer."""
    text = canonical(question)
    period = asked_period(text)
    if period.target is None or period.part_year and not period.months:  # 'H2': no column prints it
        return None
    defs = definitions(text)
    try:
        found = _read(text, period, defs, library)
    except (FormulaError, RecursionError, ZeroDivisionError):
        return None
    if found is not None and not money(found.node) and asked_unit(question).money:
        found = _metric_row(text, period, library)  # 'gross margin in USD millions': the row so named
    elif found is not None and period.months not in (0, 12) and (spec := library.metric_in(text)) and \
            (printed := _as_printed_ratio(found.node, spec.names[0])) != found.node:  # a quarter's ROA: as printed
        found = replace(found, node=printed, how=f"{found.how}, as printed for a part of the year")
    if found is None or dimension_problem(found.node, question):
        return None
    node = of_months(as_written(_of_its_base(found.node), text, library), period.months, period.quarter or 0)
    return replace(found, node=at_quarters(node, period))


def _metric_row(text: str, period: AskedPeriod, library: Library) -> MetricPlan | None:
    """A metric asked as an amount ('What did X report as gross margin, in USD millions'): the row a filing prints
    under the metric's name, read as an amount (a ratio in millions is no answer); None when no metric is named."""
    folded, spec = fold(text), library.metric_in(text)
    names = [n for n in (spec.names if spec else ()) if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", folded)]
    return MetricPlan(Item(max(names, key=len), period.target, amount=True), "a row as printed (an amount asked)") \
        if names else None


def _as_printed_ratio(node: Node, name: str) -> Node:
    """``node`` with each ratio over an average balance ('net income / average total assets') made the row the
    filing prints under the metric's ``name``: over a quarter or a half year the flow over the balance is not
    the annualized ratio filings print (0.38 % against 1.51 %)."""
    if isinstance(node, Op) and node.op == "/" and isinstance(node.right, Mean):
        return Item(name, items_of(node.left)[0].year)
    if isinstance(node, Op):
        return Op(node.op, _as_printed_ratio(node.left, name), _as_printed_ratio(node.right, name))
    return node


def _of_its_base(node: Node) -> Node:
    """A ratio asked as a share of its own denominator is the ratio: 'the gross profit margin as a fraction of net
    sales' is gross profit / revenue, not that divided by revenue again."""
    if isinstance(node, Op) and node.op == "/" and isinstance(node.left, Op) and node.left.op == "/" and \
            node.left.right == node.right:
        return node.left
    return node


def at_quarters(node: Node, period: AskedPeriod) -> Node:
    """``node`` of two periods with each item read in the quarter the question names for it: the earlier year's
    items in the earlier quarter named ('the change from 1Q23 to 2Q23': 2023's first quarter, not 2022's). Unchanged
    unless two quarters are named and the items are of two years."""
    points, years = sorted(period.points), sorted({i.year for i in items_of(node)})
    if period.months != 3 or len(points) != 2 or len(years) != 2:
        return node
    at = dict(zip(years, points))
    return substitute(node, {i: replace(i, year=at[i.year][0], quarter=at[i.year][1]) for i in items_of(node)})


def as_written(node: Node, question: str, library: Library) -> Node:
    """``node`` with each item that the question names by one of its printed labels ('net sales', 'total
    revenue') carrying that label: of two rows printing the item's labels, the question's own is read."""
    swaps = {}
    for item in items_of(node):
        spec = library.items.get(item.name)
        written = library.written_label(spec, question) if spec else ""
        if written:
            swaps[item] = replace(item, written=written)
    return substitute(node, swaps) if swaps else node


def dimension_problem(node: Node, question: str) -> str | None:
    """Why ``node`` cannot answer ``question``: a percent (or basis points), a rate, a ratio or a return on something
    asked and an amount computed. None when they agree."""
    unit = asked_unit(question)
    if isinstance(node, Item) and node.amount:  # a row named like a ratio, asked as an amount
        return None
    if money(node) and (unit.percent or unit.basis_points or
                        re.search(r"\bratio\b|\bturnover\b|\bmargin\b|\brate\b|\breturn\s+on\b", question, re.I)):
        return "a percent or ratio is asked and the formula gives an amount"
    return None


def _read(text: str, period: AskedPeriod, defs: Definitions, library: Library) -> MetricPlan | None:
    parser = Parser(library, period.target, defs.named)
    if defs.anonymous:  # the question writes the formula of what it asks: that is the plan
        return MetricPlan(parser.parse(defs.anonymous), "the question's definition")
    item = None  # a bare line item: what is asked only when the question defines no formula
    for clause in asked_clauses(without(text, defs.spans)):
        try:
            found = _clause(clause, period, parser, defs, points_asked(text))
        except FormulaError:  # a clause that writes no readable formula: the next one may
            found = None
        if found is not None and not (defs and isinstance(found.node, Item)):
            return found
        item = item or found
    if defs:
        return MetricPlan(parser.parse(defs.first()), "the question's definition")
    return item


def _clause(clause: str, period: AskedPeriod, parser: Parser, defs: Definitions, points: bool = False
            ) -> MetricPlan | None:
    """The formula one asking clause names, or None; ``points``: the question asks a change in percentage or
    basis points. A part of the company named in the words the clause's tail drops ('... margin for Globex's
    Cloud Services in 2021') is the part of every figure read."""
    found = _plain_clause(clause, period, parser, defs, points)
    part = read_part(clause, parser.library)[0]
    if found is None or not part or any(i.part for i in items_of(found.node)):
        return found
    return MetricPlan(of_part(found.node, part), found.how)


def _plain_clause(clause: str, period: AskedPeriod, parser: Parser, defs: Definitions, points: bool
                  ) -> MetricPlan | None:
    percent, amount = percent_asked(clause), asked_unit(clause).money
    relative = percent or SEQUENTIAL_RE.search(clause) is not None  # 'the sequential change': as 'year-over-year'
    clause = STATEMENT_REF_RE.sub(" ", UNIT_PHRASE_RE.sub(" ", without_answer_form(SEQUENTIAL_RE.sub(" ", clause))))
    clause = clause.strip(" ,")
    defined = defined_in(clause, defs.named)
    if defined is None and (rest := excluded(clause, parser)) is not None:  # 'X excluding the Y segment'
        return rest
    if defined is None and refused_scope(clause, parser.library):  # an adjusted figure, or a part not named
        return None
    form = (quarter_share(clause, period, parser) or quarterly_average(clause, period, parser) or
            cagr(clause, period, parser) or difference_of_items(clause, period, parser) or _growth(clause, period, parser, relative, points, amount)
            or _how_much_more(clause, period, parser) or sum_over_years(clause, period, parser)
            or quarters_sum(clause, period, parser)
            or average_over_years(clause, period, parser))
    if form is not None:
        return form
    if WORD_OPERATOR_RE.search(clause):  # a formula written out: read whole, or not at all
        return _written(clause, parser)
    node = read_metric(clause, parser)
    if node is None:
        return None
    named = parser.library.metric_in(clause)
    if defined or (named and any(n in parser.defined for n in named.names)):
        how = "the question's definition"
    else:
        how = "a line item" if isinstance(node, Item) else "a share, ratio, margin or metric of the library"
    return MetricPlan(node, how)


def written_formula(words: str, parser: Parser) -> Node | None:
    """The formula ``words`` write out with a word operator ('operating cash flow minus capital expenditures'),
    read whole as ``_written`` reads it; None when they write none."""
    found = _written(words, parser) if WORD_OPERATOR_RE.search(words) else None
    return found.node if found is not None else None


def _written(clause: str, parser: Parser) -> MetricPlan | None:
    """A formula the clause writes ('FY2021 unadjusted EBITDA less capex'), when every operand is a line item or
    metric of the library or the question defines one of them (never a half-read: 'EBITDA' alone for 'EBITDA less
    capex')."""
    node = parser.parse(clause)
    if of_library(node, parser.library):
        return MetricPlan(node, "a formula the question writes")
    return None if defined_in(clause, parser.defined) is None else \
        MetricPlan(node, "a formula the question writes, with its definitions")


def _growth(clause: str, period: AskedPeriod, parser: Parser, percent: bool, points: bool = False,
            amount: bool = False) -> MetricPlan | None:
    """'revenue growth from FY2021 to FY2022', 'the change in X between ...', 'by how much did X grow year over
    year': a relative change when growth or a percent is asked, else the difference (always when an amount of
    money is asked: 'the year-over-year change in X, in USD millions'); a fall asked ('by how much did X
    decline') is measured downwards (``asks_down``)."""
    if CAGR_RE.search(clause):
        return None
    years = period.years
    first, last = (min(years), max(years)) if len(years) >= 2 else (parser.year - 1, parser.year)
    for pattern in GROWTH_RES:  # the first form whose words name a figure
        m = pattern.search(clause)
        words = (f"{m['what']} of {m['whose']}" if "whose" in pattern.groupindex else m.group(1)) if m else ""
        ends = span_ends(words, first, last, parser) if m and not _only_part(words, parser.library) else None
        if ends:
            break
    else:  # a figure of one period compared with another in words no form holds ('how did X in 2022 compare with
        # 2021', 'X in 2022 versus 2021 (percent change)'), or a change in points ('margin points lost in 2018 vs 2017')
        words = figure_words(clause)
        compared = COMPARED_RE.search(clause) is not None
        ends = span_ends(words, first, last, parser) if (points or compared) and len(years) == 2 else None
        if ends is None:
            return None
    a, b = ends
    diff = Op("-", a, b) if asks_down(clause) else Op("-", b, a)  # 'how much did X decline': the fall, positive
    if points:  # percentage or basis points: the difference of two ratios, as printed where they are
        printed = _ratio_name(words, diff, parser.library)
        return MetricPlan(diff, "a change in points between two years", printed) if not money(diff) else None
    relative = not amount and (percent or bool(RELATIVE_RE.search(clause)))
    return MetricPlan(Op("/", diff, a) if relative else diff, "a change between two years")


def _only_part(words: str, library: Library) -> bool:
    """``words`` name a part of the company and no figure ('the U.S.' of 'sales growth in the U.S.'): where
    the growth is, not what grew."""
    head = re.sub(r"^(?:the|its|their|our)\s+", "", re.split(r",|\s+(?:in|for|during|from|between|over)\s+", words)[0],
                  flags=re.I)
    name, rest = read_part(head, library)
    return is_region(fold(head), library) or bool(name) and not re.sub(r"[\W_]", "", rest)


DOWN_WORDS_RE = re.compile(r"\b(?:decreas|declin|drop|fall|fell|contract|shrink|shrank|compress|deteriorat|narrow|"
                           r"reduc|erod|weaken|los[et])\w*", re.I)
UP_WORDS_RE = re.compile(r"\b(?:increas|grow|grew|rise|rose|expan|improv|widen|gain|chang|differ)\w*", re.I)


def asks_down(clause: str) -> bool:
    """The clause asks the size of a fall ('by how many basis points did the margin contract', 'the decline in
    revenue'): the earlier figure less the later one, positive when it fell. A change asked either way ('expand or
    contract', 'the change') is the later less the earlier."""
    return DOWN_WORDS_RE.search(clause) is not None and UP_WORDS_RE.search(clause) is None


def _ratio_name(words: str, node: Node, library: Library) -> str:
    """The name a filing prints a ratio under ('operating margin'): the question's words for it, without the part
    of the company whose ratio it is ("Lockheed Martin's Aeronautics operating margin", "operating margin for
    its Space segment" are the part's 'operating margin' rows)."""
    rest = read_part(words, library)[1] if any(i.part for i in items_of(node)) else words
    metric = library.metric_in(rest)
    if metric is not None:  # the library's name of it as the question writes it ('operating income margin')
        folded = fold(rest)
        return max((n for n in metric.names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", folded)), key=len,
                   default=metric.names[0])
    return name_key(re.sub(r"\s+(?:for|of|at|in)\s+.*$", "", rest, flags=re.I))


def _how_much_more(clause: str, period: AskedPeriod, parser: Parser) -> MetricPlan | None:
    """'how much higher was X in 2021 than in 2020': the later year's figure less the earlier one ('lower': the
    earlier less the later); 'by how much did X in 2021 exceed that of 2020': the first year named less the
    other ('fall short of': the other less it)."""
    m, exceeds = HOW_MUCH_MORE_RE.search(clause), EXCEED_RE.search(clause)
    if m is None and exceeds is None or len(period.years) < 2:
        return None
    ends = span_ends(m.group(2) if m else exceeds.group(1), min(period.years), max(period.years), parser)
    if ends is None:
        return None
    a, b = ends
    if m is not None:
        lower = m.group(1).lower() in ("lower", "less", "smaller")
    else:  # the year named first is the one said to exceed (or to fall short)
        first = re.search(r"(?:19|20)\d\d", exceeds.group(1))
        lower = (first is not None and int(first.group()) == min(period.years)) == bool(exceeds.group("up"))
    return MetricPlan(Op("-", a, b) if lower else Op("-", b, a), "a change between two years")
