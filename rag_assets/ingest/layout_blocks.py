"""Lines grouped into blocks: runs of lines with several segments and numbers are a table (its columns inferred
from segment edges), the rest paragraphs and headings."""

from __future__ import annotations

import re
import statistics

from rag_assets.ingest.layout_types import Block, Line, Segment

BULLET_RE = re.compile(r"^\s*([•●▪■◦\-–]|\d{1,2}[.)]|[a-z][.)])\s")


def _anchor(seg: Segment) -> float:
    """Where a cell is aligned: numbers to the right edge, text to the left edge."""
    return seg.x1 if seg.numeric else seg.x0


def _columns_for(rows: list[Line]) -> list[float]:
    """Anchors of the value columns of a table block (the label column is handled apart)."""
    edges = sorted(_anchor(s) for ln in rows for s in ln.segments[1:])
    if not edges:
        return []
    tol = max(6.0, statistics.median(ln.height for ln in rows) * 1.2)
    clusters: list[list[float]] = [[edges[0]]]
    for e in edges[1:]:
        if e - clusters[-1][-1] <= tol:
            clusters[-1].append(e)
        else:
            clusters.append([e])
    return [statistics.median(c) for c in clusters]


def _table_block(rows: list[Line]) -> Block:
    cols = _columns_for(rows)
    label_x = min(ln.x0 for ln in rows)
    grid: list[list[str]] = []
    for ln in rows:
        cells = [""] * (len(cols) + 1)
        for j, seg in enumerate(ln.segments):
            is_label = j == 0 and (not seg.numeric) and seg.x0 - label_x < 0.25 * (ln.x1 - label_x + 1)
            if is_label or not cols:
                idx = 0
            else:
                idx = 1 + min(range(len(cols)), key=lambda c: abs(cols[c] - _anchor(seg)))
            cells[idx] = (cells[idx] + " " + seg.text).strip()
        grid.append(cells)
    # Drop columns that are empty everywhere.
    keep = [c for c in range(len(cols) + 1) if any(r[c] for r in grid)]
    grid = [[r[c] for c in keep] for r in grid]
    header_rows = 0
    for ln in rows:
        if ln.n_numeric and not re.fullmatch(r"(19|20)\d\d", ln.segments[-1].text.strip()):
            break
        header_rows += 1
    if header_rows == len(rows):
        header_rows = 0
    bbox = (min(r.x0 for r in rows), min(r.y0 for r in rows), max(r.x1 for r in rows), max(r.y1 for r in rows))
    return Block("table", bbox, rows=grid, header_rows=header_rows, rot=rows[0].rot)


def _is_heading(line: Line, body_h: float) -> bool:
    words = line.text.split()
    return (
        len(words) <= 14
        and line.height >= 1.3 * body_h
        and not line.text.rstrip().endswith((".", ",", ";"))
        and any(c.isalpha() for c in line.text)
    )


def _table_rows(lines: list[Line], i: int, body_h: float) -> list[Line]:
    """The lines of the table that starts with tabular line ``lines[i]``: following tabular lines, and short
    section rows ("Current assets") between two of them."""
    rows = [lines[i]]
    for j in range(i + 1, len(lines)):
        nxt = lines[j]
        gap = rows[-1].y0 - nxt.y1
        if nxt.rot != rows[-1].rot or gap > 3 * max(body_h, rows[-1].height) or gap < -3 * body_h:
            break
        section_row = (j + 1 < len(lines) and lines[j + 1].tabular and len(nxt.text.split()) <= 8
                       and not _is_heading(nxt, body_h))
        if not (nxt.tabular or section_row):
            break
        rows.append(nxt)
    return rows


def _paragraph(lines: list[Line], i: int, body_h: float) -> list[Line]:
    """The lines of the paragraph that starts at ``lines[i]`` (a heading stands alone)."""
    para = [lines[i]]
    if _is_heading(lines[i], body_h):
        return para
    for j in range(i + 1, len(lines)):
        nxt, prev = lines[j], para[-1]
        gap = prev.y0 - nxt.y1
        if (nxt.rot != prev.rot
                or (nxt.tabular and j + 1 < len(lines) and lines[j + 1].tabular)
                or _is_heading(nxt, body_h) or BULLET_RE.match(nxt.text)
                or gap > 0.9 * max(prev.height, nxt.height) or gap < -2 * prev.height
                or abs(nxt.height - prev.height) > 0.35 * max(prev.height, 1)):
            break
        para.append(nxt)
    return para


def group_blocks(lines: list[Line], min_table_rows: int = 2) -> list[Block]:
    """Group lines into tables (runs of tabular lines) and paragraphs/headings."""
    if not lines:
        return []
    body_h = statistics.median(ln.height for ln in lines)
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.tabular:
            rows = _table_rows(lines, i, body_h)
            if sum(1 for r in rows if r.tabular) >= min_table_rows:
                blocks.append(_table_block(rows))
                i += len(rows)
                continue
        para = _paragraph(lines, i, body_h)
        kind = "heading" if len(para) == 1 and _is_heading(ln, body_h) else "text"
        bbox = (min(p.x0 for p in para), min(p.y0 for p in para), max(p.x1 for p in para), max(p.y1 for p in para))
        blocks.append(Block(kind, bbox, text="\n".join(p.text for p in para), rot=ln.rot))
        i += len(para)
    return blocks
