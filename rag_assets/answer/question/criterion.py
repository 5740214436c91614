"""The figure criterion a yes/no question states, in the forms analysts write: a sign ('positive working capital
based on FY2022 data'), a movement between two years ('did X increase its debt between 2021 and 2022', 'was X
higher at December 31, 2022 than at December 31, 2021', 'is X trending upward'), two figures of one year compared
('more current assets than current liabilities', 'more cash in dividends than it spent on capex'), a profit or a
loss ('did X report a net loss', 'was X profitable'), a figure against a bound the question prints ('net sales
exceed $70 billion', 'an effective tax rate above 50%', 'a current ratio below one', 'fall by more than half'), or
a judgement of the library ('a capital-intensive business')."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.question.comparisons import figure_words
from rag_assets.answer.question.formulas import (MONTHS, FormulaError, Node, Op, Parser, items_of, money, of_library,
                                                 of_months, of_part, substitute)
from rag_assets.answer.question.parts import read_part
from rag_assets.answer.question.criteria import Criterion
from rag_assets.answer.question.metric_library import Library
from rag_assets.answer.question.occurrence import occurred
from rag_assets.answer.question.period import AskedPeriod, asked_period
from rag_assets.answer.question.phrases import adjusted, read_metric
from rag_assets.answer.question.plan import as_written, written_formula
from rag_assets.answer.question.quarter_criteria import each_quarter
from rag_assets.answer.question.year_criteria import EACH_RE, each_year
from rag_assets.answer.question.year_forms import at_year
from rag_assets.answer.question.wording import canonical, definitions, without

SIGN_RE = re.compile(r"\b(positive|negative)\s+(.+?)(?:\s+based\b|\s+as\s+of\b|\s+in\b|\s+for\b|\s+at\b|\?|$)|"
                     r"\b(?:was|were|is|are)\s+(.+?)\s+(positive|negative)\b", re.I)
# 'above its FY2021 gross margin': the same figure of another period of its own, so a movement between the two
_ITS_OTHER_PERIOD = (r"\s+(?:its|their)\s+(?:fy\s?\d{4}|fiscal\s+\d{4}|(?:19|20)\d\d|q[1-4]\b|prior[\s-]year|previous[\s-]year|"
                     rf"(?:{MONTHS})\.?\s+\d{{1,2}},?\s+(?:19|20)\d\d)")  # 'its December 31, 2022 level' too
UP_RE = re.compile(r"\b(?:increas|improv|grow|grew|rais|rise|rose|expand|higher|larger|greater(?!\s+(?-i:[A-Z]))|bigger|"
                   r"trending\s+up|"
                   r"upward|climb|jump|(?:go|goes|gone|went|going|move|moved|moving|trend|trended)\s+up\b|"
                   r"(?:exceed|surpass|outpac|outstrip|above|more\s+than|top)\w*(?=\s+(?:that|those)\s+of\b|"
                   rf"{_ITS_OTHER_PERIOD}))\w*", re.I)
DOWN_RE = re.compile(r"\b(?:decreas|declin|reduc|fall|fell|shrink|shrank|contract|lower|smaller|drop|downward|"
                     r"trending\s+down|deteriorat|weaken|slid|slip|dip|"
                     r"(?:go|goes|gone|went|going|move|moved|moving|trend|trended)\s+down\b|"
                     rf"(?:below|under|less\s+than)(?={_ITS_OTHER_PERIOD}))\w*", re.I)
_COMPARATIVE = r"(more|less|fewer|higher|lower|greater|larger|smaller|bigger)"
_THEN_TIME = (r"(?:\s+(?:in|for|at|during|as\s+of|on)\s+(?:both\s+|each\s+of\s+|either\s+)?(?:(?:fiscal|fy|the|q\d|year[\s-]end)\b|fy\s?\d{4}|(?:19|20)\d\d\b|"
              rf"(?:{MONTHS})\.?\s+\d{{1,2}}\b).*)?(?:\?|$)")  # "than its equity at December 31, 2022"
MORE_THAN_RES = (  # 'more current assets than current liabilities', 'X larger than Y', 'more on A than on B'
    re.compile(rf"\b{_COMPARATIVE}\s+(.+?)\s+than\s+(?:it\s+\w+\s+(?:on|in|for)\s+)?(.+?){_THEN_TIME}", re.I),
    re.compile(rf"\b(?:was|were|is|are)\s+(.+?)\s+{_COMPARATIVE}\s+than\s+(?:its\s+|their\s+|the\s+)?(.+?){_THEN_TIME}",
               re.I),
)
NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "half": 0.5}
_ABOVE = (r"above|over|exceed\w*|surpass\w*|outstrip\w*|(?<!the\s)(?<!its\s)(?<!their\s)top(?:ped|s)?|"
          r"in\s+excess\s+of|more\s+than|greater\s+than|higher\s+than|at\s+least")
_BELOW = r"below|under|less\s+than|lower\s+than|beneath|short\s+of"
BOUND_RE = re.compile(rf"\b({_ABOVE}|{_BELOW})\s+(\$|us\$|usd\s*)?"
                      rf"(\d+(?:[.,]\d+)*|(?:{'|'.join(NUMBER_WORDS)})\b)"
                      r"\s*(%|percent|trillion|billion|million|thousand|tn|bn|m|x|times)?(?!\w)"
                      r"(?!\s*(?:years?|quarters?|months?|periods?|times|segments?|consecutive|straight)\b)", re.I)
YEAR_RE = re.compile(r"(?:19|20)\d\d")
LOSS_RE = re.compile(r"\b(?:(an?\s+)|((?:net|operating|pre-?tax)\s+))+loss(?:es)?\b"
                     r"(?!\s+(?:on|from|of|related|associated|due|in\s+connection|contingenc))", re.I)
PROFITABLE_RE = re.compile(r"\bprofitable\b|\b(?:an?\s+)(?:net\s+)?profit\b(?!\s+(?:on|from|of|margin))", re.I)
BY_MORE_THAN_RE = re.compile(r"\b(?:fall|fell|decline|declined|drop|dropped|decrease|decreased|grow|grew|increase|"
                             r"increased|rise|rose|expand|expanded|contract|contracted|improve|improved)\w*\s+by\s+"
                             r"(?:more|over)\s+than\s+(\d+(?:\.\d+)?)\s*(%|percent(?:age\s+points?)?|basis\s+points?|"
                             r"bps|pp)(?!\w)", re.I)
POINTS = {"percentage point": 0.01, "pp": 0.01, "basis point": 1e-4, "bp": 1e-4}  # a bound in points of a ratio
# 'revenue growth in FY2022 above 10%', 'a decline of less than 5 percent': the change, not the level, is bounded
CHANGE_BOUND_RE = re.compile(rf"\b(growth|increase|rise|gain|decline|decrease|drop|fall|reduction)(?:\s+rate)?\b"
                             rf"(?:(?!\bthan\b).)*?\b({_ABOVE}|{_BELOW})\s+(\d+(?:\.\d+)?)\s*(?:%|percent)", re.I)
# 'did total debt exceed total equity': two figures, not a figure and a number
EXCEED_RE = re.compile(r"\b(?:did|does|do|has|have|had|was|were|is|are)\s+(.+?)\s+(?:exceed|surpass|outstrip|outpace)"
                       r"\w*\s+(?:its\s+|their\s+|the\s+)?(.+?)" + _THEN_TIME, re.I)
# 'did operating expenses grow faster than revenue': the two growth rates compared
FASTER_RE = re.compile(r"\b(?:did|does|do|has|have|had)\s+(.+?)\s+(?:grow|grew|grown|increase[sd]?|rise|rose|risen)\s+"
                       r"(?:faster|more\s+quickly|more)\s+than\s+(?:its\s+|their\s+|the\s+)?(.+?)" + _THEN_TIME, re.I)
SCALES = {"trillion": 1e12, "tn": 1e12, "billion": 1e9, "bn": 1e9, "million": 1e6, "m": 1e6, "thousand": 1e3}


def criterion(question: str, library: Library) -> Criterion | None:
    """The figure criterion ``question`` states or names (see the module), or None (a judgement the model makes,
    or a question naming no fiscal year)."""
    text = canonical(question)
    asked = asked_period(text)
    if asked.target is None or asked.part_year and not asked.months:
        return None
    defs = definitions(text)
    parser = Parser(library, asked.target, defs.named)
    body = re.split(r"\?", without(text, defs.spans))[0]
    if adjusted(body, library) and not defs:  # 'adjusted EPS': no statement prints it
        return None
    try:
        found = (_sign(body, parser) or _profit(body, parser) or _relative_bound(body, asked, parser)
                 or _change_bound(body, asked, parser) or _bound(body, parser) or _faster(body, asked, parser)
                 or _compared(body, parser) or _movement(body, asked, parser) or occurred(body, parser)
                 or _judgement(text, parser))
    except (FormulaError, RecursionError):
        return None
    if found is None:
        return None
    quarter = asked.quarter or 0
    before = of_months(as_written(found.before, text, library), asked.months, quarter) \
        if found.before is not None else None
    found = replace(found, now=of_months(as_written(found.now, text, library), asked.months, quarter), before=before)
    found = _at_points(found, asked)
    return each_quarter(found, body, asked) or each_year(found, body, asked)


def _at_points(found: Criterion, asked: AskedPeriod) -> Criterion:
    """A movement between two quarters the question names ('in the second quarter of 2023 compared with the first
    quarter of 2023'): ``now`` read in the later one, ``before`` in the earlier one, not in the year before."""
    if asked.months != 3 or len(asked.points) != 2 or found.before is None:
        return found
    earlier, later = sorted(asked.points)

    def at(node: Node, point: tuple[int, int]) -> Node:
        return substitute(node, {i: replace(i, year=point[0], quarter=point[1]) for i in items_of(node)})
    return replace(found, now=at(found.now, later), before=at(found.before, earlier))


def _sign(body: str, parser: Parser) -> Criterion | None:
    m = SIGN_RE.search(body)
    if not m:
        return None
    sign, words = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    node = read_metric(words, parser)
    return Criterion(sign.lower(), node) if node is not None else None


def _profit(body: str, parser: Parser) -> Criterion | None:
    """'did X report a net loss' (net income negative), 'an operating loss' (operating income negative), 'was X
    profitable' (net income positive). A loss of one thing ('a loss on the sale of ...') is no such figure."""
    m = LOSS_RE.search(body)
    part = read_part(body, parser.library)[0]  # 'did its Cloud segment post an operating loss': the part's
    if m:
        node = read_metric(f"{(m.group(2) or 'net ').strip()} income", parser)
        return Criterion("negative", of_part(node, part) if part else node) if node is not None else None
    if PROFITABLE_RE.search(body):  # a part's profit is its operating profit: a segment prints no net income
        node = read_metric("operating income" if part else "net income", parser)
        return Criterion("positive", of_part(node, part) if part else node) if node is not None else None
    return None


def _bound(body: str, parser: Parser) -> Criterion | None:
    """'did net sales exceed $70 billion', 'an effective tax rate above 50%'."""
    m = BOUND_RE.search(body)
    if not m:
        return None
    number, unit = m.group(3).lower(), (m.group(4) or "").lower()
    node = written_formula(body[:m.start()], parser) or read_metric(body[:m.start()], parser)  # 'X minus Y exceed'
    amount_of = re.match(r"\s+(?:of|in)\s+(?:the\s+|its\s+|their\s+)?(.+?)" + _THEN_TIME, body[m.end():], re.I)
    if amount_of and (m.group(2) or unit in SCALES) and not of_library(node, parser.library):  # not 'Globex record'
        node = read_metric(amount_of.group(1), parser) or node  # 'report more than $10 billion of revenue'
    if node is None:
        return None
    if YEAR_RE.fullmatch(number) and not (m.group(2) or unit):  # 'higher than 2021' compares two years
        return None
    value = NUMBER_WORDS[number] if number in NUMBER_WORDS else float(number.replace(",", ""))
    percent, amount = unit in ("%", "percent"), bool(m.group(2)) or unit in SCALES
    share_of = re.match(r"\s+of\s+(?:the\s+|its\s+|their\s+|[\w&.-]+['’]s\s+)?(.+?)" + _THEN_TIME, body[m.end():], re.I)
    if percent and share_of and money(node):  # 'membership fees more than 2% of total revenue': a share
        whole = read_metric(share_of.group(1), parser)
        if whole is None or whole == node:
            return None
        node = Op("/", node, whole)
    if (percent or amount) and percent == money(node):  # a percent bound for an amount, an amount for a ratio
        return None
    bound = value / 100 if percent else value * SCALES.get(unit, 1.0)
    return Criterion("less" if _below(m.group(1)) else "more", node, bound=bound)


def _relative_bound(body: str, asked: AskedPeriod, parser: Parser) -> Criterion | None:
    """'did X fall by more than 50% (half) in FY2017 compared with FY2016': the change over the earlier figure
    against the bound."""
    m = BY_MORE_THAN_RE.search(body)
    if not m:
        return None
    node = read_metric(body[:m.start()], parser)
    before = read_metric(body[:m.start()], _earlier(asked, parser))
    if node is None or before is None:
        return None
    down = DOWN_RE.search(m.group(0)) is not None
    unit = re.sub(r"s$", "", re.sub(r"\s+", " ", m.group(2).lower()))
    if unit in POINTS:  # 'fell by more than 100 basis points': the difference of the ratio, not its change
        if money(node):
            return None
        bound = float(m.group(1)) * POINTS[unit]
        return Criterion("less" if down else "more", Op("-", node, before), bound=-bound if down else bound)
    return Criterion("down_by" if down else "up_by", node, before, bound=float(m.group(1)) / 100)


def _change_bound(body: str, asked: AskedPeriod, parser: Parser) -> Criterion | None:
    """'was revenue growth in FY2022 above 10%', 'a decline in margin of less than 5%': the change over the
    earlier figure against the bound (a growth's ``up_by``/``up_less``, a decline's ``down_by``/``down_less``)."""
    m = CHANGE_BOUND_RE.search(body)
    if not m:
        return None
    words = body[:m.start(1)] + body[m.end(1):m.start(2)]  # 'revenue growth in FY2022' without 'growth'
    node, before = read_metric(words, parser), read_metric(words, _earlier(asked, parser))
    if node is None or before is None:
        return None
    test = ("down" if DOWN_RE.match(m.group(1)) else "up") + ("_less" if _below(m.group(2)) else "_by")
    return Criterion(test, node, before, bound=float(m.group(3)) / 100)


def _below(words: str) -> bool:
    """A bound's words set an upper limit ('below', 'less than')."""
    return re.fullmatch(_BELOW, words, re.I) is not None


def _faster(body: str, asked: AskedPeriod, parser: Parser) -> Criterion | None:
    """'did operating expenses grow faster than revenue in FY2022': the first's growth less the second's is
    positive."""
    m = FASTER_RE.search(body)
    if not m:
        return None
    earlier = _earlier(asked, parser)
    rates = []
    for words in (m.group(1), m.group(2)):
        now, before = _grown(words, parser), _grown(words, earlier)
        if now is None or before is None:
            return None
        rates.append(Op("/", Op("-", now, before), before))
    return Criterion("positive", Op("-", rates[0], rates[1])) if rates[0] != rates[1] else None


# the words around a part's name that name no figure: its owner, a determiner
_NO_FIGURE_RE = re.compile(r"\S*\w['’]s?(?=\s|$)|\b(?:its|their|the|company|segments?|did|does|do|has|have|had|in|for|"
                          r"during|over|fiscal|year|quarter|first|second|third|fourth|fy\s?\d*|q[1-4]|\d+)\b", re.I)


def _grown(words: str, parser: Parser) -> Node | None:
    """The figure that grows or shrinks: the metric ``words`` name, or the sales of a part they name alone ('did
    the Pharmaceutical segment grow faster than its MedTech segment': the two segments' sales)."""
    node = read_metric(words, parser)
    if node is not None:
        return node
    if re.fullmatch(r"\s*(?:the\s+)?(?:whole\s+|overall\s+)?(?:company|firm|group)(?:\s+as\s+a\s+whole)?\s*", words, re.I):
        return read_metric("revenue", parser)  # 'grow faster than the company': the company's sales
    part, rest = read_part(words, parser.library)
    if not part or _NO_FIGURE_RE.sub(" ", rest).strip():
        return None
    revenue = read_metric("revenue", parser)
    return of_part(revenue, part) if revenue is not None else None


def _compared(body: str, parser: Parser) -> Criterion | None:
    """'more current assets than current liabilities', 'were current liabilities larger than current assets',
    'spend more on capex than on R&D': two figures of the year asked, their difference's sign."""
    m = EXCEED_RE.search(body)
    if m and not re.search(r"\d", m.group(2)):  # 'exceed $5 billion' is a bound
        a, b = read_metric(_on(m.group(1)), parser), read_metric(_on(m.group(2)), parser)
        if a is not None and b is not None and a != b:
            return Criterion("positive", Op("-", a, b))
    for pattern, (word, first, second) in zip(MORE_THAN_RES, ((1, 2, 3), (2, 1, 3))):
        m = pattern.search(body)
        if not m or re.search(r"\d{4}", m.group(second)) or re.match(r"\s*[$\d]", m.group(second)) or \
                re.match(r"\s*(?:that|those)\s+of\s+[A-Z]", m.group(second)):
            # 'higher in 2022 than in 2021' is a movement; 'more than 2% of revenue' a bound; 'than that of
            # Initech' another company's figure (a comparison of companies)
            continue
        a = _of_subject(read_metric(_on(m.group(first)), parser), body[:m.start()], parser)
        that = re.match(r"\s*(?:that|those)\s+(?:of|from)\b", m.group(second), re.I)
        b = None if that else read_metric(_on(m.group(second)), parser)
        b = _other_part(a, m.group(second), parser) if b is None else b
        if a is None or b is None or a == b:
            continue
        less = m.group(word).lower() in ("less", "fewer", "lower", "smaller")
        return Criterion("negative" if less else "positive", Op("-", a, b))
    return None


def _of_subject(a: Node | None, subject: str, parser: Parser) -> Node | None:
    """``a`` of the part of the company the words before the comparison name, when ``a`` names none ("Did Globex's
    Cloud segment have higher net sales than its Devices segment": the Cloud segment's net sales)."""
    if a is None or any(i.part for i in items_of(a)):
        return a
    part = read_part(re.sub(r"(?:\s+[a-z]+)+\s*$", "", subject), parser.library)[0]  # without its verb ('earn')
    return of_part(a, part) if part else a


def _other_part(a: Node | None, words: str, parser: Parser) -> Node | None:
    """The figure ``a`` names, of the part of the company ``words`` name instead ('higher than from its King
    segment', 'than that of the Space segment'); None when ``a`` is of no part or ``words`` name none."""
    part = read_part(_on(re.sub(r"^\s*(?:that|those)\s+(?:of|from)\s+", "", words, flags=re.I)), parser.library)[0]
    parts = {i.part for i in items_of(a)} if a is not None else set()
    if not part or parts in (set(), {""}):
        return None
    return substitute(a, {i: replace(i, part=part) for i in items_of(a) if i.part})


def _on(words: str) -> str:
    """'on capital expenditures' (what is spent on) as the item's words."""
    return re.sub(r"^(?:on|in|for|from)\s+", "", words.strip(), flags=re.I)


def _movement(body: str, asked: AskedPeriod, parser: Parser) -> Criterion | None:
    """'did X increase/decrease ... between FYa and FYb' (default: the year before the one asked)."""
    if not (UP_RE.search(body) or DOWN_RE.search(body)):
        return None
    if _than_no_period(body):  # 'higher than from its King segment' compares two figures, not two periods
        return None
    text = re.sub(rf"\b(?:compared\s+(?:to|with)|versus|vs\.?|from(?={FROM_PERIOD})|between|than|(?:that|those)\s+of"
                  r"\b(?=.*?(?:\d{4}|\b(?:prior|previous|preceding|last)\b)))\b.*$", "",
                  DOWN_RE.sub(" ", UP_RE.sub(" ", body)), flags=re.I)  # 'exceed' before 'that of 2016' is cut
    text = figure_words(EACH_RE.sub(" ", text))  # the item's words alone ('total deposits')
    now = _grown(text, parser)
    before = _grown(text, _earlier(asked, parser))
    if now is None or before is None:
        return None
    up = (UP_RE.search(body) is not None) != _backwards(body)
    return Criterion("up" if up else "down", now, before)


COMPARED_WITH_RE = re.compile(r"\b(?:than|compared\s+(?:to|with)|versus|vs\.?)(?!\w)", re.I)


def _backwards(body: str) -> bool:
    """The year named before 'than' is the earlier one ('higher in 2018 than in 2022'): the comparison runs
    back in time, so a figure higher then went down since."""
    m = COMPARED_WITH_RE.search(body)
    years = [YEAR_RE.findall(t) for t in (body[:m.start()], body[m.end():])] if m else [[], []]
    return all(years) and int(years[0][-1]) < int(years[1][0])


# 'from' opening the period compared with ('from fiscal 2020', 'from the prior year'), not what the figure is of
# ('revenue from the Zephyr segment')
FROM_PERIOD = (r"\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?(?:fy\s*)?'?\d{2,4}\b"
               r"|\s+(?:the\s+|a\s+)?(?:prior|previous|preceding|last|year)\b")
PERIOD_WORDS_RE = re.compile(r"\d{4}|\b(?:prior|previous|preceding|last|year|quarter|period|before|ago|earlier)\b",
                             re.I)


def _than_no_period(body: str) -> bool:
    """The question compares with 'than' something that is no period ('than from its King segment', 'than
    that of Initech'): not a movement between years."""
    m = re.search(r"\bthan\b(.*)$", body, re.I)
    return m is not None and PERIOD_WORDS_RE.search(m.group(1)) is None


def _earlier(asked: AskedPeriod, parser: Parser) -> Parser:
    """A parser of the year compared with: the first the question names, else the year before the one asked."""
    return at_year(parser, min(asked.years) if len(asked.years) >= 2 else asked.target - 1)


def _judgement(question: str, parser: Parser) -> Criterion | None:
    spec = parser.library.judgement_in(question)
    if spec is None:
        return None
    return Criterion("at_least", parser.parse(spec.formula), bound=spec.yes_at_least, rule=spec.rule)
