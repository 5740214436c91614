"""What a phrase of a question names: a part of a whole, a ratio ('X as a % of Y', 'ratio of X to Y', 'X to Y'
between two whole names), a sum, a margin, a name the question defines, a metric or line item of the library, or
a line item as the question prints it. ``plan`` reads whole clauses (periods, changes, averages) with these."""

from __future__ import annotations

import re

from rag_assets.answer.question.formulas import (Item, Node, Op, Parser, money, of_library, of_part, printed_ratio,
                                                 shifted)
from rag_assets.answer.question.metric_library import MODIFIES_RE, SEGMENT_WORD_RE, Library, fold
from rag_assets.answer.question.parts import leading_part, named_part, read_part, region_named_otherwise
from rag_assets.answer.question.wording import name_key

SHARE_OF_RE = re.compile(r"(.+?)\s+(?:as\s+an?\s+(?:%|percent(?:age)?|share|proportion|fraction)\s+of|relative\s+to)"
                         r"\s+(?:the\s+)?(?:company's\s+)?(.+?)(?:\s+for\b|\s+from\b|\s+in\b|\s+over\b|,|\?|$)", re.I)
_PART = r"\b(?:share|proportion|percentage|portion|fraction|percent|part)\s+of\s+(?:the\s+company's\s+|its\s+|their\s+)?"
_NAME_GOES_ON = r",(?!\s+(?-i:[A-Z][a-z]))"  # a comma ends a part, unless a capitalized word goes on with its name
_EARNED = r"(?:generated|earned|derived|made|realized)"  # 'was generated in Europe', 'were earned outside Asia'
PART_OF_RES = (  # what part of a whole one figure is: part / whole
    re.compile(_PART + r"(?P<whole>.+?)\s+(?:came|comes|come|was|were|is|are)\s+(?:from|generated\s+by|made\s+up\s+by|"
               rf"{_EARNED}\s+(?:in|from)|{_EARNED}(?=\s+outside\b)|"
               r"attributable\s+to|accounted\s+for\s+by|represented\s+by|spent\s+on|used\s+(?:for|on)|paid\s+out\s+as|"
               r"(?:made\s+)?to(?!\s+be\b)|derived\s+from)"  # 'what percentage of net sales were (made) to X'
               r"\s+(?P<part>.+?)(?:\s+(?:for|in|during|over)\b|" + _NAME_GOES_ON + r"|\?|$)", re.I),
    re.compile(_PART + r"(?P<whole>.+?)\s+(?:did|does|do)\s+(?P<part>.+?)\s+(?:account\s+for|represent|make\s+up|take\s+up|"
               r"consume|absorb|use\s+up)\b", re.I),
    # 'the share of net sales from products': no verb before 'from'
    re.compile(_PART + r"(?P<whole>.+?)\s+from\s+(?P<part>(?!(?:fy\s?|fiscal\s+)?\d)[^?]+?)(?:\s+(?:for|in|during|over|"
               r"between|to)\b|" + _NAME_GOES_ON + r"|\?|$)", re.I),
    # 'how many dollars of X did it generate per dollar of Y', 'X per dollar of Y', 'X for every dollar of Y'
    re.compile(r"(?:\b(?:dollars?|cents?|\$)\s+(?:of|in)\s+(?P<part>.+?)\s+(?:did|does|do|was|were|is|are)\b.*?|"
               r"^(?:the\s+)?(?P<part2>.+?))\s+(?:per|for\s+(?:every|each))\s+(?:dollar|\$\s?1)\s+(?:of|in)\s+"
               r"(?:the\s+company's\s+|its\s+|their\s+)?(?P<whole>.+?)(?:\s+(?:for|in|during|at|over)\b|,|\?|$)", re.I),
)
# "the Cloud segment's share of Globex's revenue": a part of the company owns its share of the whole
OWNED_SHARE_RE = re.compile(r"(?:^|\b(?:the|its|their)\s+)(?P<part>[^,?]+?)['’]s?\s+(?:share|proportion|percentage|"
                            r"portion|fraction)\s+of\s+(?:the\s+company's\s+|its\s+|their\s+|"
                            r"(?:[A-Z][\w&.-]*\s+)*[A-Z][\w&.-]*['’]s\s+)?(?P<whole>.+?)(?:\s+(?:for|in|during|at|over)\b|,|"
                            r"\?|$)", re.I)
RATIO_OF_RE = re.compile(r"\bratio\s+of\s+(.+?)\s+to\s+(.+?)(?:\s+for\b|\s+from\b|\s+in\b|,|\?|$)", re.I)
RATIO_TO_RE = re.compile(r"([\w&'’ -]+?)[\s-]+to[\s-]+([\w&'’ -]+?)\s+ratio\b", re.I)  # 'capex-to-revenue ratio'
MARGIN_RE = re.compile(r"(.+?)\s*%?\s*margin\b", re.I)
SUM_RES = (re.compile(r"\b(?:sum|total|combination)\s+of\s+(?:the\s+)?(.+?)\s+and\s+(.+?)(?:\s+(?:for|in|during|at|over)\b|,|"
                      r"\?|$)", re.I),
           re.compile(r"^(?:the\s+)?(.+?)\s+and\s+(.+?)\s+(?:combined|together|taken\s+together|added\s+together)\b", re.I))
SCOPE_RE = re.compile(r"\b(?:segments?|divisions?|regions?|geograph\w*|per\s+(?!dollar\b)\w+|business\s+units?|products?\s+line|"
                      r"excluding|adjusted|non[\s-]gaap|organic)\b", re.I)
ADJUSTED_RE = re.compile(r"\b(?:per\s+(?!dollar\b)\w+|excluding|adjusted|non[\s-]gaap|organic)\b", re.I)


def refused_scope(clause: str, library: Library) -> bool:
    """The clause asks what the statements do not print as such: an adjusted or per-unit figure (a per-share item
    of the library, 'diluted earnings per share', is printed as such), or a part of the company (a segment, a
    region) whose name it does not write ('by segment')."""
    rest = SEGMENT_WORD_RE.sub(" ", without_items(clause, library))  # 'total segment net sales' is printed
    return ADJUSTED_RE.search(rest) is not None or (SCOPE_RE.search(rest) is not None
                                                    and not read_part(clause, library)[0])


# the total of the parts a segment note prints as its own row ('Total segment net sales', 'Total business segment
# operating profit'): not the company's figure (no corporate items), and no part's
SEGMENTS_TOTAL_RE = re.compile(r"\btotal\s+(?:(?:reportable|business|operating)\s+)?segments?\s+(?=[a-z])", re.I)
# 'segment' as the first word of a figure's name, not after a part's name: 'segment net revenues' (a part's row as
# its segment note prints it; with no part named, the segments' total); 'pretax segment income' a part's pretax income
SEGMENT_MEASURE_RE = re.compile(r"^(?:(?:the|its|their)\s+)?(?:(?:reportable|business|operating)\s+)?segments?\s+"
                                r"(?=[a-z])", re.I)


def segments_total(text: str) -> str:
    """The item words of a segments' total ('total segment net sales', 'segment net revenues' -> 'net sales',
    'net revenues'), or ''."""
    m = SEGMENTS_TOTAL_RE.search(text) or SEGMENT_MEASURE_RE.search(text)
    return text[m.end():].strip() if m else ""


def adjusted(clause: str, library: Library) -> bool:
    """The clause asks an adjusted, non-GAAP or per-unit figure that no statement prints as such (a per-share item
    of the library excepted)."""
    return ADJUSTED_RE.search(without_items(clause, library)) is not None


def without_items(clause: str, library: Library) -> str:
    """``clause`` folded, without the names of the library's items it prints ('diluted earnings per share')."""
    folded = fold(clause)
    for spec in library.items.values():
        for name in spec.names:
            if " per " in f" {name} ":
                folded = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", folded)
    return folded


# a label the question quotes: 'as "Membership fees"', "the line ‘Other income, net’" (never a possessive's ')
QUOTED_RE = re.compile(r"(?:(?<=\s)|^)[\"“‘'](?P<label>[^\"“”‘’']{3,80})[\"”’'](?!\w)")


def defined_in(clause: str, named: dict[str, str]) -> str | None:
    """The longest name the question defines (``named``: name -> formula) that the clause prints, or None."""
    folded = fold(clause)
    names = [k for k in named if re.search(rf"(?<!\w){re.escape(k)}(?!\w)", folded)]
    return max(names, key=len) if names else None


def _owned_share(text: str, parser: Parser) -> Node | None:
    """"the Cloud segment's share of revenue": the part's figure over the whole's, when the owner is a part the
    company prints (a segment, a division, a region), never the company itself ("Globex's share of the market")."""
    m = OWNED_SHARE_RE.search(text)
    if m is None:
        return None
    part = read_part(m.group("part"), parser.library)[0]
    whole = _operand(m.group("whole"), parser)
    if whole is not None and part:
        return Op("/", of_part(whole, part), whole)
    owner = m.group("part").strip()  # "products' share of total net sales": the row 'Products' of the whole
    row = printed_item(owner) if re.fullmatch(r"[a-z][\w\s&-]*", owner) else None
    return Op("/", Item(row, parser.year), whole) if whole is not None and row else None


def _ratio_of(text: str, parser: Parser) -> Node | None:
    """'X as a % of Y', 'X-to-Y ratio', 'ratio of X to Y', 'what share of Y came from X' (X / Y, a part's figure
    over the whole's where X names a part), or None."""
    for pattern in (RATIO_OF_RE, RATIO_TO_RE, SHARE_OF_RE, *PART_OF_RES):
        m = pattern.search(text)
        if m:
            parts = ((m.group("part") or m.groupdict().get("part2"), m.group("whole")) if "part" in pattern.groupindex
                     else (m.group(1), m.group(2)))
            x, y = _operand(parts[0], parser), _operand(parts[1], parser)
            rest = _outside(parts[0], parser) if y is not None else ""
            if rest:  # 'what share of sales came from outside Europe': the whole's less Europe's, over the whole's
                return Op("/", Op("-", y, of_part(y, rest)), y)
            part = read_part(parts[0], parser.library)[0] if x is None and y is not None else ""
            if y is not None and x is not None and not of_library(x, parser.library) and pattern not in \
                    (RATIO_OF_RE, RATIO_TO_RE):  # 'what share of operating profit came from Space': Space's
                part = named_part(parts[0], parser.library)
            x = of_part(y, part) if part else x  # 'what share of sales came from its Cloud segment'
            inner = segments_total(name_key(parts[1]))  # 'what share of total segment net sales came from Space'
            inner_item = _operand(inner, parser) if part and inner else None
            x = of_part(inner_item, part) if inner_item is not None else x
            if x is not None and x == y and isinstance(x, Item) and name_key(parts[0]) != name_key(parts[1]):
                x = _as_printed(parts[0], parser) or x  # 'sales of services as a % of total revenues': its own row
            if pattern in PART_OF_RES and not part and not of_library(x, parser.library) and \
                    not of_library(y, parser.library):
                continue  # 'what percentage of its employees were represented by unions': a share a sentence states
            if x is not None and y is not None and x != y:
                return Op("/", x, y)
    return None


OUTSIDE_RE = re.compile(r"^(?:from\s+)?outside(?:\s+of)?\s+(?P<part>.+)$", re.I)


def _outside(words: str, parser: Parser) -> str:
    """The part ``words`` put outside ('outside North America', 'outside the Americas segment'), when the library
    names no region for them ('outside the US' is the international part); '' otherwise."""
    m = OUTSIDE_RE.match(words.strip())
    if m is None or region_named_otherwise(words, parser.library):
        return ""
    return read_part(m["part"], parser.library)[0]


def read_metric(text: str, parser: Parser) -> Node | None:
    """'X as a % of Y', 'X-to-Y ratio', 'ratio of X to Y', 'what share of Y came from X', 'what percentage of Y
    did X account for' (X / Y), 'the sum of X and Y', 'X and Y combined' (X + Y), 'X % margin' (X / revenue), a
    defined name, a library metric, or a line item."""
    share = _owned_share(text, parser)
    if share is not None:
        return share
    ratio = _ratio_of(text, parser)
    if ratio is not None:
        return ratio
    part, rest = read_part(text, parser.library)
    if part:  # 'the operating margin of the Snacks division': the formula of the whole, of that part's figures
        node = read_metric(SEGMENT_WORD_RE.sub("", rest), parser)
        return of_part(node, part) if node is not None else None
    ratio = _named_ratio(text, parser)
    if ratio is not None:
        return ratio
    for pattern in SUM_RES:
        m = pattern.search(text)
        if m and not _one_item_with_and(m.group(1) + " and " + m.group(2), parser):
            x, y = _operand(m.group(1), parser), _operand(m.group(2), parser)
            if x is not None and y is not None and x != y:
                return Op("+", x, y)
    quoted = QUOTED_RE.search(text)
    if quoted:  # 'what did X report as "Membership fees"': the row as the question quotes it
        return quoted_item(quoted.group("label"), parser)
    m = MARGIN_RE.search(text)
    if m and (defined_in(m.group(1), parser.defined) or parser.library.item_in(m.group(1))
              or parser.library.metric_in(m.group(1))):
        base = _operand(m.group(1), parser)
        if base is not None and not (isinstance(base, Item) and base.name in ("gross profit", "revenue")):
            return Op("/", base, Item("revenue", parser.year))
    return _growth_rate(text, parser) or _operand(text, parser)


GROWTH_RATE_RE = re.compile(r"^(?:the\s+)?(?:(?:annual|year[\s-]+over[\s-]+year|yoy)\s+)?(.+?)\s+growth(?:\s+rate)?$",
                            re.I)


def _growth_rate(text: str, parser: Parser) -> Node | None:
    """'discount revenue growth rate' named as a figure of its year (its change in points between two years,
    'was it above 10 %'): the amount's change over the year before, relative to it."""
    m = GROWTH_RATE_RE.match(text.strip())
    inner = _operand(m.group(1), parser) if m else None
    if inner is None or not money(inner):
        return None
    before = shifted(inner, -1)
    return Op("/", Op("-", inner, before), before)


NAME_WORDS = 4  # the most words of an item's or metric's name on either side of 'to'


def _named_ratio(text: str, parser: Parser) -> Node | None:
    """'net debt to EBITDA', 'capex-to-depreciation': X / Y when the words just before 'to' and just after it are
    each, whole, the name of an item or metric (so 'from 2021 to 2022', 'due to', 'compared to revenue' are not
    ratios); a metric whose name is 'X to Y' ('debt to equity') is the library's."""
    words = re.sub(r"[?,;:()]", " ", re.sub(r"['’]s\b", " 's ", text)).replace("-", " - ").split()
    for i, word in enumerate(words):
        if word.lower() != "to":
            continue
        before = [w for w in words[:i] if w != "-"][::-1]
        left = _name_at(before, parser, reverse=True)
        right = _name_at([w for w in words[i + 1:] if w != "-"], parser)
        if left and " " not in left and len(before) > 1 and MODIFIES_RE.search(fold(before[1]) + " "):
            continue  # 'net debt' is not 'debt': a modified one-word name is another thing
        if left and right and parser.library.metric_is(f"{left} to {right}") is None:
            x, y = _operand(left, parser), _operand(right, parser)
            if x is not None and y is not None and x != y:
                return Op("/", x, y)
    return None


def _name_at(words: list[str], parser: Parser, reverse: bool = False) -> str | None:
    """The longest run of ``words`` from their start (read backwards with ``reverse``) that is a whole name of
    the library's items or metrics."""
    for k in range(min(NAME_WORDS, len(words)), 0, -1):
        run = " ".join(words[:k][::-1] if reverse else words[:k])
        folded = fold(run)
        if parser.library.metric_is(run) or any(folded in spec.names or folded in spec.labels
                                               for spec in parser.library.items.values()):
            return run
    return None


def _one_item_with_and(text: str, parser: Parser) -> bool:
    """'property, plant and equipment', 'research and development': one item whose name holds 'and'."""
    folded = fold(text)
    return any(" and " in n and n in folded for spec in parser.library.items.values() for n in spec.names)


def _operand(text: str, parser: Parser) -> Node | None:
    part, rest = read_part(text, parser.library)
    part, rest = (part, rest) if part else leading_part(text, parser.library)  # 'Cloud Services revenue'
    if part:  # a part's 'segment net revenues', 'pretax segment income': its net revenues, its pretax income
        node = _operand(SEGMENT_WORD_RE.sub("", rest), parser)
        return of_part(node, part) if node is not None else None
    if segments_total(name_key(text)):  # the segments' total row, as printed: not the company's item
        printed = printed_item(text)
        return Item(printed, parser.year) if printed else None
    defined = defined_in(text, parser.defined)
    if defined:
        return parser.parse(parser.defined[defined])
    spec = parser.library.metric_in(text)
    if spec:  # the question's definition of that metric under another of its names ('ROA' for 'return on assets')
        defined = next((parser.defined[n] for n in spec.names if n in parser.defined), None)
        return parser.parse(defined or spec.formula)
    item = parser.library.item_in(text)
    if item:
        return Item(item.name, parser.year)
    printed = printed_item(text)
    return Item(printed, parser.year) if printed else None


def quoted_item(label: str, parser: Parser) -> Item | None:
    """The row a question quotes: the library's item whose name or label it is exactly (read from that label),
    else the row as printed; None for a quote that is no label (a sentence, a figure)."""
    folded = fold(label)
    if not 1 <= len(folded.split()) <= 2 * PRINTED_WORDS or re.search(r"\d", folded):
        return None
    spec = next((s for s in parser.library.items.values() if folded in s.names or folded in s.labels), None)
    if spec is not None:
        return Item(spec.name, parser.year, folded if folded in spec.labels else "")
    return Item(folded, parser.year)


SPENDING_RE = re.compile(r"(?<=\w)\s+(?:spending|spend)$")  # the noun after what is spent on, not the verb
NOT_ITEM_RE = re.compile(r"\b(?:did|does|do|was|were|is|are|has|have|had|will|would|should|can|could|which|what|"
                         r"how|why|answer|round|give|express|report|compute|calculate|company|it|they|ris\w*|rose|"
                         r"grow\w*|grew|increas\w*|decreas\w*|declin\w*|fall\w*|fell|exceed\w*|chang\w*|improv\w*|"
                         r"spen[dt]\w*|pa(?:y|id)\s+out|end|generate\w*|expect\w*|accelerat\w*|will|outlook|"
                         r"guidance|forecast\w*|versus|vs|compared|against|than|mak\w*|made|account\w*|represent\w*|"
                         r"contribut(?:e|es|ed|ing)|compris\w*|constitut\w*|any)\b")


PRINTED_WORDS = 6  # a line item as printed is a short noun phrase
_GENERIC = r"(?:percent(?:age)?|amount|value|figure|number|total|sum|level|size|result)"
GENERIC_RE = re.compile(rf"{_GENERIC}(?:\s+{_GENERIC})*")  # words of any figure, naming none
RATIO_BASE_WORDS = 3  # and a ratio's, what it is over ('... on average card member loans')
ABBREVIATION_RE = re.compile(r"\s*\(\s*[\"“]?[A-Z][A-Za-z0-9&]{1,9}[\"”]?\s*\)")  # '(ROTCE)', '(“CET1”)' after words


def _as_printed(text: str, parser: Parser) -> Item | None:
    """The row ``text`` names as printed, when its words are more than the library item's name they hold."""
    printed = printed_item(text)
    spec = parser.library.item_in(text)
    return Item(printed, parser.year) if printed and not (spec and (printed in spec.names or printed in spec.labels)) \
        else None


def printed_item(text: str) -> str | None:
    """A line item the library does not know, as the question writes it ('membership fee revenue', 'research and
    development expense'), matched to a statement row as printed; None when the words are no short noun
    phrase."""
    key = name_key(ABBREVIATION_RE.sub("", text))  # 'return on tangible common equity (ROTCE)': the words
    key = SPENDING_RE.sub(" expense", key)  # 'product development spending': the expense a row prints
    words = key.split()  # a ratio may say what it is over: 'net interest yield on average interest-earning assets'
    if not 1 <= len(words) <= PRINTED_WORDS + (RATIO_BASE_WORDS if printed_ratio(key) else 0) or \
            NOT_ITEM_RE.search(key) or \
            SCOPE_RE.search(SEGMENTS_TOTAL_RE.sub(" ", SEGMENT_MEASURE_RE.sub(" ", key))) or \
            re.search(r"\b\d{2,}|\d[.,%]", key) or \
            GENERIC_RE.fullmatch(key):  # a year or an amount, not a name ('tier 1 capital', 'cet1' are); no word
        return None  # of a figure ('what was the percent change': the percent)
    return key
