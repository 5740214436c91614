"""Where a quote or a figure is printed on a PDF page (PDFium's text layer), and the page rendered with those
places highlighted. A long quote is searched whole, then in pieces of a few words (a line break or a hyphen
in the PDF splits it); a page without a text layer (a scan) finds nothing and says so."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

PIECE_WORDS = 6  # a quote not found whole is searched in pieces of this many words
MAX_HITS = 200  # places one needle may be found on a page: a search never runs without end
HIGHLIGHT = (255, 214, 0, 110)  # translucent yellow, drawn over the rendered page
SCALE = 1.5  # rendered pixels per PDF point (108 dpi)


@dataclass(frozen=True)
class Box:
    """A highlighted rectangle in rendered pixels (left, top, right, bottom)."""

    left: float
    top: float
    right: float
    bottom: float


@dataclass
class Found:
    """What was searched on a page and where it was found."""

    needle: str
    boxes: list[Box] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.boxes)


def _rects(text: pdfium.PdfTextPage, needle: str, height: float, scale: float) -> list[Box]:
    """Every place ``needle`` is printed, as pixel boxes (PDF y grows upwards, pixels downwards)."""
    out: list[Box] = []
    searcher = text.search(needle, match_case=False)
    try:
        while len(out) < MAX_HITS and (hit := searcher.get_next()) is not None:
            start, count = hit
            for i in range(text.count_rects(start, count)):
                left, bottom, right, top = text.get_rect(i)
                out.append(Box(left * scale, (height - top) * scale, right * scale, (height - bottom) * scale))
    finally:
        searcher.close()
    return out


def _pieces(needle: str) -> list[str]:
    words = needle.split()
    return [" ".join(words[i:i + PIECE_WORDS]) for i in range(0, len(words), PIECE_WORDS)]


def locate(page: pdfium.PdfPage, needles: list[str], scale: float = SCALE) -> list[Found]:
    """Where each needle is printed on ``page``: the whole needle, else its pieces of PIECE_WORDS words."""
    text = page.get_textpage()
    height = page.get_height()
    try:
        out = []
        for needle in needles:
            needle = re.sub(r"[\s\x00-\x1f\x7f]+", " ", needle).strip()  # no control character reaches PDFium
            boxes = _rects(text, needle, height, scale) if needle else []
            if not boxes and len(needle.split()) > PIECE_WORDS:
                boxes = [b for piece in _pieces(needle) for b in _rects(text, piece, height, scale)]
            out.append(Found(needle, boxes))
        return out
    finally:
        text.close()


def render(pdf_path: Path, page_index: int, needles: list[str], scale: float = SCALE) -> tuple[bytes, list[Found]]:
    """The page as a PNG with every place of the needles highlighted, and what was found where."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        if not 0 <= page_index < len(pdf):
            raise IndexError(f"the PDF has {len(pdf)} pages; page {page_index} (zero-based) is not one of them")
        page = pdf[page_index]
        found = locate(page, needles, scale)
        image = page.render(scale=scale).to_pil().convert("RGBA")
    finally:
        pdf.close()
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for f in found:
        for b in f.boxes:
            draw.rectangle((b.left - 1, b.top - 1, b.right + 1, b.bottom + 1), fill=HIGHLIGHT)
    buf = io.BytesIO()
    Image.alpha_composite(image, layer).convert("RGB").save(buf, format="PNG")
    return buf.getvalue(), found
