"""Formulas over line items: parsed from a question's own definition ("ROA is defined as: FY2017 net income /
(average total assets between FY2016 and FY2017)") or from the metric library, evaluated by Python."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_assets.answer.metric_library import Library, fold

YEAR = r"(?:fy\s?)?((?:19|20)\d\d)"


@dataclass(frozen=True)
class Item:
    """An operand: a line item (the library's name, or the words as written) in one fiscal year."""

    name: str
    year: int


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


class FormulaError(ValueError):
    """A formula that cannot be parsed into items, numbers and operators."""


def items_of(node: Node) -> list[Item]:
    """Every operand of ``node``, once each, in order."""
    if isinstance(node, Item):
        return [node]
    kids = node.terms if isinstance(node, Mean) else (node.left, node.right) if isinstance(node, Op) else ()
    return list(dict.fromkeys(i for k in kids for i in items_of(k)))


def substitute(node: Node, swaps: dict[Item, Node]) -> Node:
    """``node`` with each item of ``swaps`` replaced by its node."""
    if isinstance(node, Item):
        return swaps.get(node, node)
    if isinstance(node, Mean):
        return Mean(tuple(substitute(t, swaps) for t in node.terms))
    if isinstance(node, Op):
        return Op(node.op, substitute(node.left, swaps), substitute(node.right, swaps))
    return node


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


def money(node: Node) -> bool:
    """An amount (items added and subtracted), not a ratio: its answer takes the asked scale (USD millions)."""
    return _dim(node) == 1


def _dim(node: Node) -> int:
    if isinstance(node, Item):
        return 1
    if isinstance(node, Const):
        return 0
    if isinstance(node, Mean):
        return max(_dim(t) for t in node.terms)
    a, b = _dim(node.left), _dim(node.right)
    return {"*": a + b, "/": a - b, "^": 0}.get(node.op, max(a, b))


def show(node: Node) -> str:
    """The formula as a person writes it: 'revenue 2019 / mean(net ppe 2018, net ppe 2019)'."""
    if isinstance(node, Item):
        return f"{node.name} {node.year}"
    if isinstance(node, Const):
        return f"{node.value:g}"
    if isinstance(node, Mean):
        return f"mean({', '.join(show(t) for t in node.terms)})"
    return f"({show(node.left)} {node.op} {show(node.right)})"


WORD_OPS = [(r"\bdivided\s+by\b", "/"), (r"\bover\b", "/"), (r"\bless\b", "-"), (r"\bminus\b", "-"),
            (r"\bplus\b", "+"), (r"\b(?:multiplied\s+by|times)\b", "*"), (r"[×x](?=\s*\d)", "*"), (r"\s[−–]\s", " - ")]
ASIDE_RE = re.compile(r"\((?:from|using|as|in|i\.e\.|e\.g\.|see)\b[^()]*\)", re.I)
SPLIT_RE = re.compile(r"([()+*/\u2212])")


class Parser:
    """Recursive descent over + - * / and parentheses; an operand's words become items of one year."""

    def __init__(self, library: Library, year: int, defined: dict[str, str] | None = None):
        self.library, self.year, self.defined = library, year, defined or {}
        self.depth = 0

    def parse(self, text: str) -> Node:
        self.depth += 1
        if self.depth > 8:
            raise FormulaError("definitions refer to each other")
        for pattern, op in WORD_OPS:
            text = re.sub(pattern, f" {op} ", text, flags=re.I)
        text = re.sub(r"(?:(?<=\s)|^)-(?=\s|\()", "\u2212", ASIDE_RE.sub(" ", text).strip().rstrip("."))  # a minus sign
        tokens = [t.strip().replace("\u2212", "-") for t in SPLIT_RE.split(text) if t.strip()]
        node, rest = self._expr(tokens)
        if rest:
            raise FormulaError(f"cannot read {' '.join(rest)!r}")
        self.depth -= 1
        return node

    def _expr(self, tokens: list[str]) -> tuple[Node, list[str]]:
        return self._chain(tokens, ("+", "-"), self._term)

    def _term(self, tokens: list[str]) -> tuple[Node, list[str]]:
        return self._chain(tokens, ("*", "/"), self._factor)

    @staticmethod
    def _chain(tokens: list[str], ops: tuple[str, ...], operand) -> tuple[Node, list[str]]:
        """Operands joined by ``ops``, left to right: one precedence level."""
        node, tokens = operand(tokens)
        while tokens and tokens[0] in ops:
            right, rest = operand(tokens[1:])
            node, tokens = Op(tokens[0], node, right), rest
        return node, tokens

    def _factor(self, tokens: list[str]) -> tuple[Node, list[str]]:
        if not tokens:
            raise FormulaError("a formula ends where an operand is expected")
        if tokens[0] == "(":
            node, rest = self._expr(tokens[1:])
            if not rest or rest[0] != ")":
                raise FormulaError("unbalanced parentheses")
            return node, rest[1:]
        if tokens[0] in ")+*/-":
            raise FormulaError(f"an operand is expected before {tokens[0]!r}")
        return self.atom(tokens[0]), tokens[1:]

    def atom(self, words: str) -> Node:
        """One operand: a number, 'average X between FYa and FYb', 'change in X between ...', 'FY2019 X', a
        defined name, a library metric, or a line item."""
        text = fold(words)
        if re.fullmatch(r"\d+(?:\.\d+)?", text.replace(" ", "")):
            return Const(float(text.replace(" ", "")))
        m = re.fullmatch(rf"(average|change in)\s+(?:of\s+)?(?:the\s+)?(.+?)(?:\s+between\s+{YEAR}\s+and\s+{YEAR})?",
                         text)
        if m:
            a, b = (int(m.group(3)), int(m.group(4))) if m.group(3) else (self.year - 1, self.year)
            a, b = min(a, b), max(a, b)
            x, y = self.item(m.group(2), a), self.item(m.group(2), b)
            return Mean((x, y)) if m.group(1) == "average" else Op("-", y, x)
        m = re.fullmatch(rf"{YEAR}\s+(.+)|(.+?)\s+(?:in\s+|for\s+)?{YEAR}", text)
        if m:
            year, rest = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            return Parser(self.library, int(year), self.defined).named(rest) or self.item(rest, int(year))
        return self.named(text) or self.item(text, self.year)

    def named(self, text: str) -> Node | None:
        """A name the question defines, or a metric of the library, read as its formula."""
        key = fold(text)
        if key in self.defined:
            return self.parse(self.defined[key])
        spec = self.library.metric_is(key)
        return self.parse(spec.formula) if spec else None

    def item(self, words: str, year: int) -> Item:
        spec = self.library.item_in(words)
        return Item(spec.name if spec else fold(words), year)
