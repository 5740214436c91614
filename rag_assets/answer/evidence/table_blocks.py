"""A table's blocks: rows under a heading until the subtotal that closes them. A heading may be a row of the table
('Pharmaceutical (1)' with no figures) or the short line just above it that names the first block ('Consumer
Health (1)' above 'U.S. | 1,696' / 'International | 2,071' / '| 3,767'); an unlabeled row of figures (the block's
subtotal) closes the block and is the heading's own figure ('Pharmaceutical': the sum of its U.S. and
international rows), so the rows after it ('U.S. | 12,516' / 'International | 11,190' / 'Worldwide |
23,706') are under no heading: the whole table's, not the last block's."""

from __future__ import annotations

import re

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
