"""DoclingDocument -> one cleaned markdown text per page, with parsing noise removed by rules."""

from __future__ import annotations

import re
from collections import Counter

from docling_core.types.doc import DocItemLabel, DoclingDocument, TableItem, TextItem

from rag_assets.storage.artifacts import PageText

CLEANER_VERSION = "clean-1"

# Font/glyph artifacts left by PDF text extraction.
LINE_END_HYPHEN_MARK_RE = re.compile("[\ufffe\x02]\\s*")
GLYPH_RE = re.compile(r"glyph<[^>]{0,40}>|/g\d{1,5}(?!\d)|\(cid:\d+\)|/uni[0-9A-Fa-f]{4,6}\b")
BAD_CHARS_RE = re.compile("[\ue000-\uf8ff\ufffd\u0000-\u0008\u000b\u000c\u000e-\u001f\u200b\ufeff]")
HYPHEN_BREAK_RE = re.compile(r"([A-Za-z]{2,})[-\u00ad\u2010]\n([a-z]{2,})")
SPACES_RE = re.compile(r"[ \t\u00a0]+")
DROP_LABELS = {DocItemLabel.PAGE_HEADER, DocItemLabel.PAGE_FOOTER}
HEADING_LABELS = {DocItemLabel.SECTION_HEADER, DocItemLabel.TITLE}



def clean_text(text: str) -> str:
    """Remove glyph artifacts and control characters, undo line-end hyphenation, fold whitespace."""
    # PDFium joins a word hyphenated at a line end and marks the join with U+FFFE (or \x02)
    text = LINE_END_HYPHEN_MARK_RE.sub("-\n", text)
    text = GLYPH_RE.sub("", text)
    text = BAD_CHARS_RE.sub("", text)
    text = HYPHEN_BREAK_RE.sub(r"\1\2", text)
    text = text.replace("\u00ad", "")
    text = text.replace("\n", " ")
    return SPACES_RE.sub(" ", text).strip()


def table_to_markdown(rows: list[list[str]], header_rows: int = 1) -> str:
    """A markdown table with one line per table row (so a row is never split)."""
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    lines = []
    for i, row in enumerate(rows):
        cells = [clean_text(c).replace("|", "/") for c in row] + [""] * (width - len(row))
        lines.append("| " + " | ".join(cells) + " |")
        if i == max(header_rows, 1) - 1:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)


def _table_rows(item: TableItem) -> tuple[list[list[str]], int]:
    grid = item.data.grid
    rows = [[c.text for c in row] for row in grid]
    header_rows = 0
    for row in grid:
        if row and any(c.column_header for c in row):
            header_rows += 1
        else:
            break
    return rows, header_rows


def _furniture_key(text: str) -> str:
    key = re.sub(r"\d+", "#", text.lower())
    return SPACES_RE.sub(" ", key).strip()


def _page_blocks(doc: DoclingDocument) -> dict[int, list[tuple[str, str]]]:
    """Every page's blocks in reading order (zero-based, empty pages included): ("table", markdown),
    ("heading", text) or ("text", text); furniture labels dropped."""
    n_pages = max(doc.pages) if doc.pages else 0
    per_page: dict[int, list[tuple[str, str]]] = {i: [] for i in range(n_pages)}
    for item, _level in doc.iterate_items():
        if not getattr(item, "prov", None):
            continue
        idx = item.prov[0].page_no - 1
        if isinstance(item, TableItem):
            rows, header_rows = _table_rows(item)
            md = table_to_markdown(rows, header_rows)
            if md:
                per_page.setdefault(idx, []).append(("table", md))
        elif isinstance(item, TextItem):
            if item.label in DROP_LABELS:
                continue
            text = clean_text(item.text)
            if not text:
                continue
            kind = "heading" if item.label in HEADING_LABELS else "text"
            per_page.setdefault(idx, []).append((kind, text))
    return per_page


def _repeated_edges(per_page: dict[int, list[tuple[str, str]]], edge_blocks: int, min_repeat_share: float
                    ) -> set[str]:
    """Repeated headers and footers: short blocks at a page's edges that recur on many pages."""
    counts: Counter[str] = Counter()
    for blocks in per_page.values():
        edge = {
            _furniture_key(t)
            for k, t in blocks[:edge_blocks] + blocks[-edge_blocks:]
            if k != "table" and len(t) <= 120
        }
        counts.update(edge)
    threshold = max(3, int(min_repeat_share * max(1, len(per_page))))
    return {k for k, c in counts.items() if c >= threshold}


def document_pages(doc: DoclingDocument, edge_blocks: int = 2, min_repeat_share: float = 0.25) -> list[PageText]:
    """Cleaned markdown for every page of ``doc`` (zero-based, empty pages included)."""
    per_page = _page_blocks(doc)
    repeated = _repeated_edges(per_page, edge_blocks, min_repeat_share)
    pages: list[PageText] = []
    for idx in sorted(per_page):
        blocks = per_page[idx]
        out: list[str] = []
        removed = 0
        n_tables = 0
        last = len(blocks) - 1
        for pos, (kind, text) in enumerate(blocks):
            at_edge = pos < edge_blocks or pos > last - edge_blocks
            if kind != "table" and at_edge and (
                _furniture_key(text) in repeated or re.fullmatch(r"(page\s*)?\d{1,4}", text.lower())
            ):
                removed += 1
                continue
            if kind == "table":
                n_tables += 1
                out.append(text)
            elif kind == "heading":
                out.append(f"## {text}")
            else:
                out.append(text)
        pages.append(PageText(idx, "\n\n".join(out), n_tables, removed))
    return pages
