"""The scale of a computation's operands: figures of one report's statements share one; a money figure whose
table declares none takes the one the others, or the report's primary statements, declare."""

from __future__ import annotations

from dataclasses import replace

from rag_assets.answer.evidence.operands import Operand
from rag_assets.answer.evidence.units import declared_scale, unscaled_label
from rag_assets.answer.question.formulas import printed_ratio
from rag_assets.answer.question.metric_library import Library

STATEMENTS = ("income_statement", "balance_sheet", "cash_flow")  # the primary statements, whose scale is the report's


def same_scale(operands: list[Operand], notes: list[str]) -> list[Operand]:
    """Figures of one report's statements share a scale: a figure whose table declared none (1.0) takes the one
    the others declare, when they all declare the same."""
    scales = {o.scale for o in operands if o.scale != 1.0}
    if len(scales) != 1 or all(o.scale != 1.0 or o.chosen for o in operands):
        return operands  # (a figure the number reader read has its own scale: '$5.1 billion')
    scale = scales.pop()
    words = next(o.scale_words for o in operands if o.scale == scale)
    fixed = [replace(o, value=o.value * scale, scale=scale, scale_words=f"{words} (as its statement's other "
                     "figures)") if o.scale == 1.0 and not o.chosen else o for o in operands]
    notes.append(f"figures printed without a scale read as {words}, as the other operands")
    return fixed


def statement_scale(operands: list[Operand], retriever, library: Library, lexicon, notes: list[str],
                     amounts: set[str] = frozenset()) -> list[Operand]:
    """A money figure whose table declares no scale (its heading lost to the page's text) takes the one its
    report's primary statements all declare ('in millions'); a per-share amount, a count or a ratio never. A
    money figure is an item of the library's, or a row named like a ratio asked as an amount (``amounts``)."""
    out, declared = [], {}  # report -> the scale its statements declare, read once
    for o in operands:
        spec = library.items.get(o.item)
        if o.scale != 1.0 or o.chosen or (spec is None or printed_ratio(o.item)) and o.item not in amounts or \
                unscaled_label(o.label, (o.value,)) or spec is not None and unscaled_label(" ".join(spec.names)):
            out.append(o)
            continue
        if o.sha1 not in declared:
            declared[o.sha1] = statements_scale(retriever, o.sha1, lexicon)
        scale = declared[o.sha1]
        if scale is None:
            out.append(o)
            continue
        words = f"{scale[1]} (as the report's statements; its own table declares none)"
        out.append(replace(o, value=o.value * scale[0], scale=scale[0], scale_words=words))
        notes.append(f"{o.item} {o.year} printed without a scale: read {words}")
    return out


def statements_scale(retriever, sha1: str, lexicon) -> tuple[float, str] | None:
    """The scale every primary statement of the report declares, or None (none, or not one)."""
    ix = retriever.index(sha1)
    typed = ix.typed_pages(lexicon)
    found = {declared_scale(ix.pages.get(p, "")) for kind in STATEMENTS for p in typed.get(kind, [])} - {None}
    return found.pop() if len({mult for mult, _ in found}) == 1 else None
