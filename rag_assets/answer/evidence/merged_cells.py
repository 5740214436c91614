"""Cells that hold two figures: a PDF's text layer sometimes sets two columns' figures into one cell ('1,687
1,787' under '2023 2022'), and not always in the columns' order. A pair of amounts is dated only when the row
proves its order: a change printed further along the row ('6.0' percent) is the later figure over the earlier
one; a pair the row cannot order is left out, never guessed."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

MERGED_RE = re.compile(r"^(?:%\s+)?\(?-?[\d,.]+\)?(?:\s+\(?-?[\d,.]+\)?)+$")
CHANGE_TOLERANCE = 0.15  # a change printed to a tenth of a percent, from figures not rounded


def cell_figures(cell: str, one: Callable[[str], object]) -> list:
    """The figures of a cell: its one figure (``one`` reads a cell), or each of the figures it holds ('1,687
    1,787'; '% 6.0 6.0': two percentages), or []."""
    single = one(cell)
    if single is not None:
        return [single]
    text = cell.strip()
    if not MERGED_RE.match(text):
        return []
    percent = text.startswith("%")
    figs = [one(part + ("%" if percent else "")) for part in text.lstrip("% ").split()]
    return figs if all(f is not None for f in figs) else []


def _amounts(figs: list) -> bool:
    return len(figs) == 2 and not any(f.percent or "." in f.written for f in figs)


def _change(later: float, earlier: float) -> float | None:
    return 100.0 * (later / earlier - 1.0) if earlier else None


def _later_first(pair: list, after: list) -> bool | None:
    """Whether the pair's first figure is the later one, as a change printed after it says; None when no
    figure after it is either order's change (or both are)."""
    a, b = pair[0].value, pair[1].value
    changes = [f.value for f in after]
    fits = [any(c is not None and abs(c - x) <= CHANGE_TOLERANCE for x in changes)
            for c in (_change(a, b), _change(b, a))]
    return fits[0] if fits[0] != fits[1] else None


def dated_pairs(cells: list[list], years: list[str]) -> list[tuple[int, object]]:
    """A row's (cell index, figure) in order, each pair of amounts from one cell put in the header's order of
    ``years`` and dated with them when a change further along the row orders it, left out when nothing does;
    ``cells``: the figures of each cell (``cell_figures``)."""
    order = list(dict.fromkeys(years))[:2]
    out: list[tuple[int, object]] = []
    for i, figs in enumerate(cells):
        if not _amounts(figs):
            out += [(i, f) for f in figs]
            continue
        later_first = _later_first(figs, _until_next_pair(cells[i + 1:]))
        if later_first is None or len(order) < 2:
            continue
        pair = figs if later_first else figs[::-1]
        if order[0] < order[1]:
            pair = pair[::-1]
        out += [(i, replace(f, period=y)) for f, y in zip(pair, order)]
    return out


def _until_next_pair(rest: list[list]) -> list:
    """The figures after a pair up to the next pair of amounts: the changes of this pair's block."""
    out = []
    for figs in rest:
        if _amounts(figs):
            break
        out += figs
    return out


DASH_RE = re.compile(r"[-–—]+")  # a cell with nothing to report in its column


def dated_with_dashes(cols, figs: list, where: list[int], cells: list[str]) -> list:
    """A row's figures dated by ``cols`` (``table_headers.Columns``); where the row prints fewer figures than the
    header's columns and a dash stands in the others ('U.S. | $ | 1,696 | 1,529 | 10.9 % | 10.9 | - | ...'), each
    dash keeps its column's place, so the row is dated as the rows that print a figure there are."""
    dashes = [i for i, c in enumerate(cells) if i and i not in where and DASH_RE.fullmatch(c.strip())]
    if not dashes or not cols.pattern or len(figs) + len(dashes) != len(cols.pattern) or \
            any(f.period for f in figs):
        return cols.dated(figs, where)
    order = sorted([(i, k) for k, i in enumerate(where)] + [(i, -1) for i in dashes])
    place = replace(figs[0], written="-", value=0.0, percent=False)
    dated = cols.dated([figs[k] if k >= 0 else place for _, k in order], [i for i, _ in order])
    return [d for (_, k), d in zip(order, dated) if k >= 0]
