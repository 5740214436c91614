"""A table's blocks: rows under a heading until the subtotal that closes them. A heading may be a row of the table
('Pharmaceutical (1)' with no figures) or the short line just above it that names the first block ('Consumer
Health (1)' above 'U.S. | 1,696' / 'International | 2,071' / '| 3,767'); an unlabeled row of figures (the block's
subtotal) closes the block and is the heading's own figure ('Pharmaceutical': the sum of its U.S. and
international rows), so the rows after it ('U.S. | 12,516' / 'International | 11,190' / 'Worldwide |
23,706') are under no heading: the whole table's, not the last block's."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.evidence.units import declared_scale

NOTE_MARK_RE = re.compile(r"\s*\(\d{1,2}(?:,\s*\d{1,2})*\)\s*$")  # 'MedTech (2)', 'Pharmaceutical ... (1,3)'
NAME_LINE_RE = re.compile(r"[A-Z][\w&.’'-]*(?:\s+(?:[A-Z][\w&.’'-]*|and|&|of))*")
NAME_LINE_WORDS = 4


def without_note_mark(text: str) -> str:
    """``text`` without a footnote mark in parentheses at its end ('MedTech (2)' -> 'MedTech')."""
    return NOTE_MARK_RE.sub("", text)


def caption_heading(before: str) -> str:
    """The last line above a table when it names the table's first block as a heading of its own: a short name in
    capitalized words, perhaps with a footnote mark ('Consumer Health (1)'); '' otherwise (a sentence, a title
    with lower-case words, a line of years or a scale)."""
    lines = [ln.strip() for ln in before.splitlines() if ln.strip()]
    if not lines or lines[-1].startswith("|"):
        return ""
    name = without_note_mark(lines[-1])
    words = name.split()
    return name if 0 < len(words) <= NAME_LINE_WORDS and NAME_LINE_RE.fullmatch(name) else ""


def closed(caption: str, heading: str) -> str:
    """The caption of the rows after the first block's subtotal: without the line ``heading`` that headed that
    block ('... by segment of business Consumer Health (1)' -> '... by segment of business')."""
    if not heading:
        return caption
    at = caption.rfind(heading)
    return caption[:at].rstrip() if at >= 0 else caption


def block_total(heading: str) -> str:
    """The label of the unlabeled subtotal that closes a block: its heading, without a footnote mark or a colon
    ('Pharmaceutical (1)' -> 'Pharmaceutical', 'Current assets:' -> 'Current assets'); '' for no heading or one
    that declares a scale ('(In millions)'), which names no figure."""
    name = without_note_mark(heading).strip(" :")
    return "" if not name or declared_scale(name) else name


# A table printed in year blocks: its columns name parts and a total, no year; the first block's year closes the
# line above the table, each next block opens with a row holding only its year ('| | 2021 | | |').
TOTAL_COLUMN_RE = re.compile(r"^(?:total|group|consolidated)\b", re.I)
CAPTION_YEAR_RE = re.compile(r"[:)]\s*((?:19|20)\d\d)\s*$")  # '... were as follows (in millions): 2022'


def total_cell(header: list[str]) -> int | None:
    """The cell of a header row's last column when that column is the total ('| | Aeronautics | ... | Total |'),
    else None."""
    filled = [i for i, c in enumerate(header) if c.strip()]
    return filled[-1] if filled and TOTAL_COLUMN_RE.match(header[filled[-1]].strip()) else None


def caption_year(before: str) -> str:
    """The year the line just above a table ends with after a colon or a bracket: the year of its first block of
    rows when the table's columns name no year ('Net sales by segment were as follows (in millions): 2022')."""
    lines = [ln.strip() for ln in before.splitlines() if ln.strip()]
    m = CAPTION_YEAR_RE.search(lines[-1]) if lines else None
    return m.group(1) if m else ""


def block_year(cells: list[str]) -> str:
    """The year a row holding nothing else prints ('| | 2021 | | |'): it opens that year's block of rows."""
    filled = [c.strip() for c in cells if c.strip()]
    return filled[0] if len(filled) == 1 and re.fullmatch(r"(?:19|20)\d\d", filled[0]) else ""


def block_dated(figs: list, cells: list[int], year: str, total_at: int | None) -> list:
    """A row's undated figures (standing in ``cells``) with the one in the total column (at ``total_at`` or
    after) dated by its block's ``year``: the whole company's figure of that year. A row that stops short of the
    total column ('Cumulative deliveries' printed for each model only) keeps them undated."""
    if total_at is None or not year or not cells or cells[-1] < total_at or any(f.period for f in figs):
        return figs
    return [*figs[:-1], replace(figs[-1], period=year)]
