"""Weight-free PDF layout: characters from PDFium grouped into lines, segments, paragraphs and tables.

PDFium gives every character with its box (~4 us/char), in content-stream order, with a line break
wherever the baseline changes. We split each line into segments at wide horizontal gaps, call runs of
lines with several segments and numbers a table, infer its columns from segment edges, and merge the
remaining lines into paragraphs and headings. No model weights are involved.
"""

from __future__ import annotations

import ctypes
import math
import re

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from rag_assets.ingest.layout_blocks import group_blocks
from rag_assets.ingest.layout_types import Line, PageLayout, Segment

WORD_RE = re.compile(r"\S+")
SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _fix_surrogates(word: str) -> str:
    """PDFium indexes UTF-16 units: re-pair surrogate halves (characters beyond the BMP), drop strays."""
    if not SURROGATE_RE.search(word):
        return word
    return word.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").replace("\ufffd", "")
LINE_RE = re.compile(r"[^\r\n]+")
NUM_WORD_RE = re.compile(r"^[\(]?-?[$€£¥]?\d[\d,.]*\)?%?$|^[-–—]$")


def quarter_turns(angle: float) -> int:
    """PDFium's char angle (radians) as the quarter turns that bring the text back to horizontal."""
    k = round(angle / (math.pi / 2)) % 4
    return k if abs(angle - k * math.pi / 2) < 0.3 or abs(angle - k * math.pi / 2 - 2 * math.pi) < 0.3 else 0


def to_text_frame(box: tuple[float, float, float, float], rot: int) -> tuple[float, float, float, float]:
    """(left, right, bottom, top) in page space -> the frame where the text runs left to right."""
    l, r, b, t = box
    if rot == 3:  # text runs up the page (rotated +90 degrees)
        return b, t, -r, -l
    if rot == 1:  # text runs down the page
        return -t, -b, l, r
    if rot == 2:  # upside down
        return -r, -l, -t, -b
    return box


def to_page_frame(bbox: tuple[float, float, float, float], rot: int) -> tuple[float, float, float, float]:
    """(l, b, r, t) of a block in the text frame -> page space (inverse of ``to_text_frame``)."""
    l, b, r, t = bbox
    if rot == 3:
        return -t, l, -b, r
    if rot == 1:
        return b, -r, t, -l
    if rot == 2:
        return -r, -t, -l, -b
    return bbox


def _split_trailing_numbers(line: Line, words: list[tuple[str, float, float, float, float]]) -> Line:
    """Split a one-segment line like 'Total assets 7,710,615 8,818,186' into label and value segments."""
    if len(line.segments) != 1 or len(words) < 3 or not NUM_WORD_RE.match(words[-1][0]):
        return line
    k = len(words)
    while k > 0 and NUM_WORD_RE.match(words[k - 1][0]):
        k -= 1
    nums = words[k:]
    if k == 0 or sum(1 for w in nums if any(ch.isdigit() for ch in w[0])) < 2:
        return line
    label = words[:k]
    if not any(ch.isalpha() for w in label for ch in w[0]):
        return line
    segs = [Segment(" ".join(w[0] for w in label), label[0][1], label[-1][2],
                    min(w[3] for w in label), max(w[4] for w in label))]
    segs.extend(Segment(w[0], w[1], w[2], w[3], w[4]) for w in nums)
    return Line(segs, line.height)


def _split_at_gaps(words: list, gap_factor: float, rot: int) -> Line:
    """One text line's words split into segments at horizontal gaps wider than ``gap_factor`` x its height."""
    h = max((w[4] - w[3] for w in words), default=8.0) or 8.0
    thresh = max(2.0, gap_factor * h)
    segs: list[Segment] = []
    cur = [words[0]]
    for w in words[1:]:
        if w[1] - cur[-1][2] > thresh:
            segs.append(_segment(cur))
            cur = [w]
        else:
            cur.append(w)
    segs.append(_segment(cur))
    return Line(segs, h, rot)


def page_lines(textpage: pdfium.PdfTextPage, gap_factor: float = 0.8) -> tuple[list[Line], int]:
    """Lines of a page, each split into segments at horizontal gaps wider than ``gap_factor`` x line height.

    PDFium puts a (generated) space wherever glyphs are apart, so only the first and last character of
    each word need a box: that is ~5x fewer calls than boxing every character.
    """
    n = textpage.count_chars()
    if n <= 0:
        return [], 0
    text = textpage.get_text_range(0, n)
    if len(text) != n:  # surrogate pairs: fall back to one char per index
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage, i) or 32) for i in range(n))
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    get_box = pdfium_c.FPDFText_GetCharBox

    def box(i: int, last: int) -> tuple[float, float, float, float] | None:
        # first char of [i, last] with a real box (generated chars have none)
        step = 1 if last >= i else -1
        for k in range(i, last + step, step):
            get_box(textpage, k, left, right, bottom, top)
            if right.value > left.value or top.value > bottom.value:
                return left.value, right.value, bottom.value, top.value
        return None

    lines: list[Line] = []
    words_of: list[list] = []
    get_angle = pdfium_c.FPDFText_GetCharAngle
    for lm in LINE_RE.finditer(text):
        words = []
        first = WORD_RE.search(text, lm.start(), lm.end())
        rot = quarter_turns(get_angle(textpage, first.start())) if first else 0
        for wm in WORD_RE.finditer(text, lm.start(), lm.end()):
            s, e = wm.start(), wm.end() - 1
            b0 = box(s, e)
            if b0 is None:
                continue
            b1 = box(e, s) if e > s else b0
            if rot:
                b0, b1 = to_text_frame(b0, rot), to_text_frame(b1, rot)
            words.append((_fix_surrogates(wm.group()), min(b0[0], b1[0]), max(b0[1], b1[1]), min(b0[2], b1[2]), max(b0[3], b1[3])))
        for row in _rows(words):
            lines.append(_split_at_gaps(row, gap_factor, rot))
            words_of.append(row)
    merged, merged_words = _merge_same_row(lines, words_of, gap_factor)
    return [_split_trailing_numbers(ln, ws) for ln, ws in zip(merged, merged_words)], n


def _rows(words: list) -> list[list]:
    """One PDFium text line's words, split where the text carried on to another row without a line break: a
    word that starts left of the previous word's start, wholly above or below it (a statement whose rows are
    one text object, so PDFium reads two or three rows as one line). A word hyphenated across two rows spans
    both and stays."""
    rows: list[list] = []
    for w in words:
        if rows:
            prev = rows[-1][-1]
            if not (w[1] < prev[1] and (w[4] < prev[3] or w[3] > prev[4])):
                rows[-1].append(w)
                continue
        rows.append([w])
    return rows


def _segment(words: list) -> Segment:
    return Segment(
        " ".join(w[0] for w in words), words[0][1], words[-1][2], min(w[3] for w in words), max(w[4] for w in words)
    )


def _merge_same_row(lines: list[Line], words_of: list[list], gap_factor: float) -> tuple[list[Line], list[list]]:
    """Join consecutive lines that PDFium split although they sit on one row, left to right."""
    out: list[Line] = []
    out_words: list[list] = []
    for ln, words in zip(lines, words_of):
        if out:
            prev = out[-1]
            cy = (ln.y0 + ln.y1) / 2
            slack = 0.2 * prev.height
            if ln.rot == prev.rot and prev.y0 - slack <= cy <= prev.y1 + slack and ln.x0 >= prev.x1 - 1:
                segs = list(prev.segments)
                first = ln.segments[0]
                if first.x0 - segs[-1].x1 <= gap_factor * max(prev.height, ln.height):
                    last = segs.pop()
                    segs.append(
                        Segment(f"{last.text} {first.text}", last.x0, first.x1, min(last.y0, first.y0), max(last.y1, first.y1))
                    )
                    segs.extend(ln.segments[1:])
                else:
                    segs.extend(ln.segments)
                out[-1] = Line(segs, max(prev.height, ln.height), prev.rot)
                out_words[-1] = out_words[-1] + words
                continue
        out.append(ln)
        out_words.append(list(words))
    return out, out_words


def layout_page(page: pdfium.PdfPage, page_index: int) -> PageLayout:
    width, height = page.get_size()
    textpage = page.get_textpage()
    try:
        lines, n_chars = page_lines(textpage)
    finally:
        textpage.close()
    blocks = group_blocks(lines)
    for b in blocks:
        if b.rot:
            b.bbox = to_page_frame(b.bbox, b.rot)
    return PageLayout(page_index, width, height, blocks, n_chars, page.get_rotation())
