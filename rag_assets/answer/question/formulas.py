"""Formulas over line items: parsed from a question's own definition ("ROA is defined as: FY2017 net income /
(average total assets between FY2016 and FY2017)") or from the metric library, evaluated by Python."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rag_assets.answer.question.metric_library import Library, fold, without_owner
from rag_assets.answer.question.period import MONTH_NUMBERS

YEAR = r"(?:fy\s?)?((?:19|20)\d\d)"


@dataclass(frozen=True)
class Item:
    """An operand: a line item (the library's name, or the words as written) in one fiscal year; ``written``: the
    item's printed label the question wrote ('net sales' for revenue), preferred among rows that print one of its
    labels (not part of the item's identity); ``part``: the part of the company whose figure it is (a segment, a
    division, a region as the filing prints it; '' for the whole company); ``months``: the columns of a part of
    the year (3 a quarter, 6 or 9 months, -1 the year to date; 0 the fiscal year); ``quarter``: which quarter
    of the year, read where a table's columns name quarters ('2Q23 1Q23'); 0 the filing's own; ``amount``: a row
    named like a ratio read as the amount it prints ('Gross margin 5,756.8' asked in USD millions)."""

    name: str
    year: int
    written: str = field(default="", compare=False)
    part: str = ""
    months: int = 0
    quarter: int = 0
    amount: bool = False


@dataclass(frozen=True)
class Const:
    value: float


@dataclass(frozen=True)
class Op:
    op: str  # + - * / ^
    left: "Node"
    right: "Node"


@dataclass(frozen=True)
class Mean:
    terms: tuple["Node", ...]


Node = Item | Const | Op | Mean


@dataclass(frozen=True)
class MetricPlan:
    """A formula a question asks, and where it came from."""

    node: Node
    how: str  # where the formula came from: the question's definition, a form, the library
    printed: str = ""  # a change in points: the ratio's name, read as the filing prints it in percent when it does


class FormulaError(ValueError):
    """A formula that cannot be parsed into items, numbers and operators."""


def items_of(node: Node) -> list[Item]:
    """Every operand of ``node``, once each, in order."""
    if isinstance(node, Item):
        return [node]
    kids = node.terms if isinstance(node, Mean) else (node.left, node.right) if isinstance(node, Op) else ()
    return list(dict.fromkeys(i for k in kids for i in items_of(k)))


def of_library(node: Node | None, library: Library) -> bool:
    """Every operand of ``node`` is a line item of the library (none is words as the question wrote them)."""
    return node is not None and all(i.name in library.items for i in items_of(node))


def substitute(node: Node, swaps: dict[Item, Node]) -> Node:
    """``node`` with each item of ``swaps`` replaced by its node."""
    if isinstance(node, Item):
        return swaps.get(node, node)
    if isinstance(node, Mean):
        return Mean(tuple(substitute(t, swaps) for t in node.terms))
    if isinstance(node, Op):
        return Op(node.op, substitute(node.left, swaps), substitute(node.right, swaps))
    return node


PARTS_SEP = "|"  # between the parts of 'the Aeronautics and Space segments' ('aeronautics|space'): each part's figure
NESTED_SEP = " > "  # a part within a part: 'pharmaceutical > us', the U.S. sales of the Pharmaceutical segment


def of_part(node: Node, part: str) -> Node:
    """``node`` with every item of the whole company made ``part``'s (an item already of a part keeps it); of
    several parts ('aeronautics|space'), each item the parts' figures added."""
    return substitute(node, {i: _of_parts(i, part.split(PARTS_SEP)) for i in items_of(node) if not i.part})


def _of_parts(item: Item, parts: list[str]) -> Node:
    """``item`` of one part, or the sum of its figures of several (a margin of two parts is their operating
    income added over their revenue added, never the two margins added)."""
    return added([replace(item, part=part) for part in parts])


def added(nodes: list[Node]) -> Node:
    """``nodes`` added up, left to right ('((a + b) + c)')."""
    node = nodes[0]
    for one in nodes[1:]:
        node = Op("+", node, one)
    return node


def of_months(node: Node, months: int, quarter: int = 0) -> Node:
    """``node`` with every item read in the columns of ``months`` (a quarter, six or nine months, the year to
    date) instead of the fiscal year's; a quarter's items know which ``quarter``. A node whose form already
    read some item in its months (a quarter's share of its year) is kept as it is."""
    quarter = quarter if months == 3 else 0
    if not months or any(i.months for i in items_of(node)):
        return node
    return substitute(node, {i: replace(i, months=months, quarter=quarter) for i in items_of(node)})


def shifted(node: Node, years: int) -> Node:
    """``node`` with every item read ``years`` later (earlier when negative)."""
    return substitute(node, {i: replace(i, year=i.year + years) for i in items_of(node)}) if years else node


def evaluate(node: Node, values: dict[Item, float]) -> float:
    if isinstance(node, Item):
        return values[node]
    if isinstance(node, Const):
        return node.value
    if isinstance(node, Mean):
        return sum(evaluate(t, values) for t in node.terms) / len(node.terms)
    a, b = evaluate(node.left, values), evaluate(node.right, values)
    if node.op == "^":
        return a ** b
    return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else float("nan")}[node.op]


# a line item the library does not know whose name says it is a ratio ('CET1 capital ratio', 'net interest
# margin', 'return on tangible common equity', 'net interest yield on average loans'): a filing prints it in
# percent, and it has no currency
PRINTED_RATIO_RE = re.compile(r"\b(?:ratio|rate|margin|yield|percentage)(?:\s+(?:on|of|for)\s.*)?$|%$|^return\s+on\b")


def printed_ratio(name: str) -> bool:
    return PRINTED_RATIO_RE.search(name) is not None


def read_in_percent(item: Item) -> bool:
    """``item`` is a ratio read from its row's percentage: its name is a ratio's, and no amount is asked of it."""
    return printed_ratio(item.name) and not item.amount


def money(node: Node) -> bool:
    """An amount (items added and subtracted), not a ratio: its answer takes the asked scale (USD millions)."""
    return _dim(node) == 1


def _dim(node: Node) -> int:
    if isinstance(node, Item):
        return 0 if read_in_percent(node) else 1
    if isinstance(node, Const):
        return 0
    if isinstance(node, Mean):
        return max(_dim(t) for t in node.terms)
    a, b = _dim(node.left), _dim(node.right)
    return {"*": a + b, "/": a - b, "^": 0}.get(node.op, max(a, b))


def show(node: Node) -> str:
    """The formula as a person writes it: 'revenue 2019 / mean(net ppe 2018, net ppe 2019)'."""
    if isinstance(node, Item):
        span = {0: "", 3: " (3 months)", -1: " (year to date)"}.get(node.months, f" ({node.months} months)")
        when = f"{node.year}" + (f" (Q{node.quarter})" if node.quarter else span)
        return f"{node.name} [{node.part}] {when}" if node.part else f"{node.name} {when}"
    if isinstance(node, Const):
        return f"{node.value:g}"
    if isinstance(node, Mean):
        return f"mean({', '.join(show(t) for t in node.terms)})"
    return f"({show(node.left)} {node.op} {show(node.right)})"


# 'A over B' is a division; 'over the three years', 'over fiscal 2019 and 2020' are periods
OVER_DIVIDES = (r"\bover\b(?!\s+(?:the\s+)?(?:fiscal|fy|years?|\d|two|three|four|five|six|nine|twelve|time|period|"
                r"first|second|third|fourth|quarters?\b|months?\b|half\b|[hq][1-4]\b))")
SHARE_DIVIDES = r"\bas\s+an?\s+(?:%|percent(?:age)?|share|proportion|fraction|portion)\s+of\b"  # 'A as a share of B'
WORD_OPS = [(r"\bdivided\s+by\b", "/"), (OVER_DIVIDES, "/"), (SHARE_DIVIDES, "/"),
            (r"\bless\b", "-"), (r"\bminus\b", "-"), (r"\bplus\b", "+"),
            (r"\b(?:multiplied\s+by|times)\b", "*"), (r"(?<=\d)\s*[×x]\s*|\s[×x]\s", " * "), (r"\s[−–]\s", " - ")]
ASIDE_RE = re.compile(r"\((?:from|using|as|in|i\.e\.|e\.g\.|see|taken|reported|excluding|including|used|provided)\b"
                      r"[^()]*\)|"
                      r"\b(?:taken\s+|as\s+reported\s+|reported\s+)?(?:from|in|on|per)\s+(?:the\s+)?(?:consolidated\s+)?"
                      r"(?:statements?\s+of\s+(?:cash\s+flows?|income|operations|earnings|financial\s+position)|"
                      r"cash[\s-]+flows?\s+statement|income\s+statement|balance\s+sheet|p&l(?:\s+statement)?)", re.I)
SUM_RE = re.compile(r"\b(?:the\s+)?sum\s+of\s+(.+?)\s+and\s+(.+?)(?=$|[.,;)])", re.I)
SPLIT_RE = re.compile(r"([()+*/^\u2212])")
MONTHS = "|".join(MONTH_NUMBERS)  # a month as questions write it, in full or cut
# Words that only say when (years, dates, year ends): an operand's words lose them from either end.
PERIOD_WORD_RE = re.compile(rf"(?:fy\s?)?(?:19|20)\d\d|fy|fiscal|years?|year[\s-]?ends?|ends?|close|closing|"
                            rf"balances?|ended|ending|at|as|of|for|in|on|over|across|during|between|from|to|through|and|the|its|"
                            rf"respectively|{MONTHS}|\d{{1,2}}|"
                            rf"q[1-4]|h[12]|quarters?|half|months?|three|six|nine|twelve|first|second|third|fourth|ytd|date|full")
OPERATORS = {"average": "mean", "mean": "mean", "avg": "mean", "change in": "change", "increase in": "change",
             "change of": "change"}
OPERATOR_RE = re.compile(rf"^(?:the\s+)?({'|'.join(sorted(OPERATORS, key=len, reverse=True))})\b\s*(?:of\s+)?", re.I)
YEAR_IN_RE = re.compile(YEAR)


def strip_period(words: list[str]) -> list[str]:
    """``words`` without the period words at either end ('fy2019 revenue' -> 'revenue', 'total assets at the end of
    2018 and 2019' -> 'total assets')."""
    start, end = 0, len(words)
    while start < end and PERIOD_WORD_RE.fullmatch(words[start]):
        start += 1
    while end > start and PERIOD_WORD_RE.fullmatch(words[end - 1]):
        end -= 1
    return words[start:end]


def chain(tokens: list[str], ops: tuple[str, ...], operand) -> tuple[Node, list[str]]:
    """Operands joined by ``ops``, left to right: one precedence level of a recursive descent (``operand`` reads
    one operand of the next level from the tokens and returns it with the tokens left)."""
    node, tokens = operand(tokens)
    while tokens and tokens[0] in ops:
        right, rest = operand(tokens[1:])
        node, tokens = Op(tokens[0], node, right), rest
    return node, tokens


class Parser:
    """Recursive descent over + - * / ^ and parentheses; an operand's words become items of one year (or an
    average or change over two)."""

    def __init__(self, library: Library, year: int, defined: dict[str, str] | None = None):
        self.library, self.year, self.defined = library, year, defined or {}
        self.depth = 0

    def parse(self, text: str) -> Node:
        self.depth += 1
        if self.depth > 8:
            raise FormulaError("definitions refer to each other")
        text = SUM_RE.sub(lambda m: f"({m.group(1)} + {m.group(2)})", text)
        for pattern, op in WORD_OPS:
            text = re.sub(pattern, f" {op} ", text, flags=re.I)
        text = re.sub(r"(?:(?<=\s)|^)-(?=\s|\()", "\u2212", ASIDE_RE.sub(" ", text).strip().rstrip("."))  # a minus sign
        text = _period_asides(text)
        tokens = [t.strip().replace("\u2212", "-") for t in SPLIT_RE.split(text) if t.strip()]
        node, rest = self._expr(tokens)
        if rest:
            raise FormulaError(f"cannot read {' '.join(rest)!r}")
        self.depth -= 1
        return node

    def _expr(self, tokens: list[str]) -> tuple[Node, list[str]]:
        return chain(tokens, ("+", "-"), self._term)

    def _term(self, tokens: list[str]) -> tuple[Node, list[str]]:
        return chain(tokens, ("*", "/"), self._power)

    def _power(self, tokens: list[str]) -> tuple[Node, list[str]]:
        return chain(tokens, ("^",), self._factor)

    def _factor(self, tokens: list[str]) -> tuple[Node, list[str]]:
        if not tokens:
            raise FormulaError("a formula ends where an operand is expected")
        if tokens[0] == "(":
            node, rest = self._expr(tokens[1:])
            if not rest or rest[0] != ")":
                raise FormulaError("unbalanced parentheses")
            return node, rest[1:]
        if tokens[0] in ")+*/-^":
            raise FormulaError(f"an operand is expected before {tokens[0]!r}")
        return self.atom(tokens[0]), tokens[1:]

    def atom(self, words: str) -> Node:
        """One operand: a number; an average or change of an item over the years it names ('the average of total
        assets at the end of FY2016 and FY2017', 'change in inventory between FY2019 and FY2020'; the asked year and
        the one before where none is named); an item of the year it names ('FY2019 revenue', 'net income for
        2017'); a defined name, a library metric, or a line item."""
        text = fold(without_owner(words))
        if re.fullmatch(r"\d+(?:\.\d+)?", text.replace(" ", "")):
            return Const(float(text.replace(" ", "")))
        years = sorted({int(y) for y in YEAR_IN_RE.findall(text)})
        core = strip_period(text.split())
        op = OPERATOR_RE.match(" ".join(core))
        if op:
            core = strip_period(" ".join(core)[op.end():].split())
        name = " ".join(core)
        if not name:
            raise FormulaError(f"no line item in {words!r}")
        if op:
            first, last = (years[0], years[-1]) if len(years) >= 2 else \
                (years[0] - 1, years[0]) if years else (self.year - 1, self.year)
            if OPERATORS[op.group(1).lower()] == "mean":
                return Mean(tuple(self._at(name, y) for y in range(first, last + 1)))
            return Op("-", self._at(name, last), self._at(name, first))
        return self._at(name, years[-1] if len(years) == 1 else self.year)

    def _at(self, name: str, year: int) -> Node:
        """``name`` (a defined name, a metric, a line item) in ``year``."""
        parser = self if year == self.year else Parser(self.library, year, self.defined)
        return parser.named(name) or self.item(name, year)

    def named(self, text: str) -> Node | None:
        """A name the question defines, or a metric of the library, read as its formula."""
        key = fold(text)
        if key in self.defined:
            return self.parse(self.defined[key])
        spec = self.library.metric_is(key)
        return self.parse(spec.formula) if spec else None

    def item(self, words: str, year: int) -> Item:
        """The library's item the words name (a label or name of it, or one of its names with at most one word
        more: 'unadjusted operating income'), else the line item as written, matched to a row as printed
        ('short-term debt and current portion of long-term debt')."""
        folded = fold(without_owner(words))
        spec = self.library.item_in(folded)
        if spec is None or not any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", folded)
                                   and len(folded.split()) - len(n.split()) <= 1 for n in spec.names + spec.labels):
            return Item(folded, year)
        return Item(spec.name, year)


PERIOD_ASIDE_RE = re.compile(r"\(([^()]*(?:19|20)\d\d(?!\d)[^()]*)\)")


def _period_asides(text: str) -> str:
    """A parenthesis that only says when ('average total assets (FY2016 and FY2017 year-ends)') joins the operand
    before it, so its years are that operand's."""
    def join(m: re.Match) -> str:
        words = fold(m.group(1)).split()
        return f" {m.group(1)}" if words and all(PERIOD_WORD_RE.fullmatch(w) for w in words) else m.group(0)
    return PERIOD_ASIDE_RE.sub(join, text)
