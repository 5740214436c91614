"""A part of a fiscal year no column prints, as the spans its filings do print added or taken apart: a quarter is
its year to date less the year to date before it (the fourth the year less nine months, the second six months
less the first quarter), the first quarter six months less the second; six or nine months are the quarters they
hold added. Python computes each, every operand cited, where the item of that span is printed nowhere."""

from __future__ import annotations

from dataclasses import replace

from rag_assets.answer.question.formulas import Item, Node, Op, added


def _span(item: Item, quarters: int) -> Item:
    """``item`` over the first ``quarters`` quarters of its fiscal year (4: the year, 1: the first quarter)."""
    return replace(item, months=0 if quarters == 4 else 3 * quarters, quarter=1 if quarters == 1 else 0)


def _quarter(item: Item, quarter: int) -> Item:
    return replace(item, months=3, quarter=quarter)


def spans_of(item: Item) -> list[Node]:
    """The formulas standing for ``item`` when it is of a quarter or of six or nine months, most direct first;
    none for a fiscal year, a year to date of unknown length, or a quarter not named."""
    if item.months == 3 and 1 <= item.quarter <= 4:
        q = item.quarter
        if q == 1:
            return [Op("-", _span(item, 2), _quarter(item, 2))]
        return [Op("-", _span(item, q), _span(item, q - 1) if q > 2 else _quarter(item, 1))]
    if item.months in (6, 9):
        held = item.months // 3
        later = [_quarter(item, q) for q in range(held + 1, 5)]
        return [added([_quarter(item, q) for q in range(1, held + 1)]), Op("-", _span(item, 4), added(later))]
    return []
