"""The plan of a number question written by the model, checked by Python: when Python's reader finds no formula,
the model writes the operands (a line item of ``metrics.yaml``, constrained to their names by the grammar, or a row
as the question prints it, each with a year) and an expression over them; Python parses it and checks that every
letter is an operand, every year is one the question names (or the year before, for an average or a change), the
printed rows are short noun phrases, and the result's dimension fits what is asked. A plan that fails gets one
repair round with the reason, then none (the number reader answers as before)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field, create_model

from rag_assets.answer.question.formulas import Const, Item, Mean, Node, Op, chain, items_of, money
from rag_assets.answer.question.metric_library import Library, fold
from rag_assets.answer.question.period import asked_period
from rag_assets.answer.question.phrases import printed_item
from rag_assets.answer.question.plan import MetricPlan, dimension_problem
from rag_assets.answer.question.unit import asked_unit
from rag_assets.answer.question.wording import canonical
from rag_assets.llm.prompts import build_messages, schema_text
from rag_assets.llm.structured import structured_call

LETTERS = "ABCDEF"
AS_PRINTED = "as printed"
PLAN_TOKENS = 220  # a plan of six operands is about 180 tokens


def plan_schema(library: Library) -> type[BaseModel]:
    """The plan's schema, its item names an enum of the library's items (and 'as printed')."""
    names = tuple(sorted(library.items)) + (AS_PRINTED,)
    operand = create_model(
        "PlanOperand",
        letter=(Literal[tuple(LETTERS)], Field(description="A, B, C ... in order")),  # type: ignore[valid-type]
        item=(Literal[names], Field(description="a known line item, or 'as printed'")),  # type: ignore[valid-type]
        printed=(str, Field("", description="the line item's words when item is 'as printed', else ''",
                            max_length=80)),
        year=(int, Field(description="the fiscal year of the figure", ge=1980, le=2049)),
    )
    return create_model(
        "QuestionPlan",
        operands=(list[operand], Field(description="the figures needed", min_length=1,  # type: ignore[valid-type]
                                       max_length=len(LETTERS))),
        expression=(str, Field(description="the computation over the letters", max_length=120)),
        answer_unit=(Literal["amount", "ratio", "percent", "count"], Field(description="what the answer is")),
    )


class ExpressionError(ValueError):
    """An expression that is not + - * / ^, parentheses, numbers, letters and avg(...)."""


TOKEN_RE = re.compile(r"\s*(avg|mean|[A-F]|\d+(?:\.\d+)?|[-+*/^(),])", re.I)


def parse_expression(text: str, operands: dict[str, Node]) -> Node:
    """``text`` over the letters of ``operands`` as a formula node."""
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise ExpressionError(f"cannot read {text[pos:pos + 12]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    node, rest = _sum(tokens, operands)
    if rest:
        raise ExpressionError(f"cannot read {' '.join(rest)!r}")
    return node


def _sum(tokens, operands):
    return chain(tokens, ("+", "-"), lambda t: chain(t, ("*", "/"), lambda u: _power(u, operands)))


def _power(tokens, operands):
    node, tokens = _atom(tokens, operands)
    if tokens and tokens[0] == "^":
        right, rest = _atom(tokens[1:], operands)
        return Op("^", node, right), rest
    return node, tokens


def _atom(tokens, operands):
    if not tokens:
        raise ExpressionError("the expression ends where an operand is expected")
    head, rest = tokens[0], tokens[1:]
    if head.lower() in ("avg", "mean"):
        if not rest or rest[0] != "(":
            raise ExpressionError("avg needs parentheses")
        terms, rest = [], rest[1:]
        while True:
            term, rest = _sum(rest, operands)
            terms.append(term)
            if rest and rest[0] == ",":
                rest = rest[1:]
                continue
            if rest and rest[0] == ")":
                return Mean(tuple(terms)), rest[1:]
            raise ExpressionError("avg( is not closed")
    if head == "(":
        node, rest = _sum(rest, operands)
        if not rest or rest[0] != ")":
            raise ExpressionError("unbalanced parentheses")
        return node, rest[1:]
    if re.fullmatch(r"\d+(?:\.\d+)?", head):
        return Const(float(head)), rest
    if head.upper() in operands:
        return operands[head.upper()], rest
    raise ExpressionError(f"{head!r} is no operand of the plan")


@dataclass
class ModelPlanning:
    """What the model wrote and what Python found: ``plan`` when it passed every check."""

    plan: MetricPlan | None = None
    written: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    calls: list = field(default_factory=list)


def check(value: BaseModel, question: str) -> tuple[Node | None, str | None]:
    """The plan's formula, or why it cannot be run."""
    years = asked_period(canonical(question)).years
    operands: dict[str, Node] = {}
    for op in value.operands:
        if op.letter in operands:
            return None, f"letter {op.letter} is given twice"
        name = op.item
        if name == AS_PRINTED:
            name = printed_item(op.printed) or ""
            if not name or not fold(op.printed):
                return None, f"{op.letter}: {op.printed!r} is not a line item as printed"
        if years and not min(years) - 1 <= op.year <= max(years):
            return None, f"{op.letter}: the year {op.year} is not one the question asks (or the year before)"
        operands[op.letter] = Item(name, op.year)
    expression = value.expression
    if value.answer_unit == "percent":  # Python writes a ratio in percent: a factor of 100 would apply it twice
        expression = re.sub(r"^\s*\((.*)\)\s*\*\s*100\s*$|^(.*?)\s*\*\s*100\s*$", lambda m: m.group(1) or m.group(2),
                            expression)
    try:
        node = parse_expression(expression, operands)
    except ExpressionError as exc:
        return None, str(exc)
    if set(operands.values()) - set(items_of(node)):
        return None, "an operand is not used by the expression"
    problem = dimension_problem(node, question)
    if problem is None and asked_unit(question).scale > 1 and not money(node):
        problem = "an amount is asked (a scale such as USD millions) and the formula gives a ratio"
    return (None, problem) if problem else (node, None)


def model_plan(llm, question: str, library: Library, max_tokens: int = PLAN_TOKENS) -> ModelPlanning:
    """The model's plan for ``question`` checked by Python, with one repair round carrying the reason."""
    schema = plan_schema(library)
    items = ", ".join(sorted(library.items))
    out = ModelPlanning()
    reason = ""
    for _ in range(2):
        ask = question if not reason else f"{question}\n(Your previous plan could not be used: {reason}.)"
        messages, _schema = build_messages("question_plan", question=ask, items=items,
                                           schema=schema_text(schema))
        res = structured_call(llm, messages, schema, max_tokens=max_tokens, repair=False)
        out.calls += res.calls
        if res.value is None:
            out.problems.append(f"no valid plan: {res.error}")
            return out
        out.written.append(res.value.model_dump())
        node, reason = check(res.value, question)
        if node is not None:
            out.plan = MetricPlan(node, "the model's plan, checked")
            return out
        out.problems.append(reason)
    return out
