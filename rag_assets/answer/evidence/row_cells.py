"""A table row's cells read: the one figure a cell prints, the figures by cell and the cells they stand in (a
cell holding two figures gives both where the row proves their order), the scale a header row's words declare."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.figures import Figure
from rag_assets.answer.evidence.merged_cells import cell_figures, dated_pairs
from rag_assets.answer.evidence.numbers import NA, parse_number
from rag_assets.answer.evidence.units import declared_scale

CELL_NUMBER_RE = re.compile(
    r"^\(?\s*[-−–]?\s*(?:US\$|A\$|C\$|HK\$|[$€£¥])?\s*\d[\d,]*(?:\.\d+)?\s*%?\s*\)?(?:(?<=\))\s*%)?$")  # '(5.3) %' too
FOOTNOTE_RE = re.compile(r"\s*\(\d\)$|\s*\*+$")
# a currency sign after a figure: a suffix ("1.234 €"), or the next column's "$" that small print set too close
TRAILING_CURRENCY_RE = re.compile(r"\s+(?:US\$|A\$|C\$|HK\$|[$€£¥])$")


def cell_figure(cell: str) -> Figure | None:
    """The one figure a cell prints (a footnote mark and a currency sign after it aside), or None."""
    cell = TRAILING_CURRENCY_RE.sub("", FOOTNOTE_RE.sub("", cell.replace("\u2212", "-")).strip())
    if not cell or not CELL_NUMBER_RE.match(cell):
        return None
    value = parse_number(cell.replace(" ", ""))
    if value == NA:
        return None
    return Figure(written=cell, value=value, percent="%" in cell)


def row_figures(cells: list[str]) -> tuple[list[list], dict, list]:
    """A row's figures by cell, the cells holding one figure, and those figures."""
    per_cell = [cell_figures(c, cell_figure) for c in cells]
    at = {i: f[0] for i, f in enumerate(per_cell) if len(f) == 1}
    return per_cell, at, list(at.values())


def header_scale(cells: list[str], per_cell: list[list]) -> tuple[float, str] | None:
    """The scale a header row's words declare ('(In millions)')."""
    return declared_scale(" ".join(c for c, f in zip(cells, per_cell) if len(f) != 1))


def placed(per_cell: list[list], at: dict, years: list[str]) -> tuple[list, list[int]]:
    """A row's figures and the cells they stand in; a cell holding two figures ('1,687 1,787') gives both when
    the row proves their order (``dated_pairs``)."""
    if any(len(f) > 1 for f in per_cell):
        pairs = dated_pairs(per_cell, years)
        return [f for _, f in pairs], [i for i, _ in pairs]
    return list(at.values()), list(at)
