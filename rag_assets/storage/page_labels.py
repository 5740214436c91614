"""The page number a person reads on a PDF page, beside the zero-based index everything else uses: the PDF's own
page label when it has one, else the number printed at the page's head or foot ("6", "Page 6", "6 of 120",
"31 Verizon 2022 Annual Report", "Annual Report 2022 | 6"), trusted only when a page near it prints the number
that follows in sequence (a year or a table figure at the page's edge is not a page number). Read from PDFium's
text layer, not the cleaned pages (cleaning removes page numbers); a scanned page without a text layer has none."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

EDGE_LINES = 3  # lines read at the head and at the foot of a page
REACH = 2  # pages on each side that may confirm a number by their own
MAX_LINE = 90  # a running head or foot is short
LABEL_RES = [
    re.compile(r"^(?:page\s+)?(\d{1,4})(?:\s*(?:/|of)\s*\d{1,4})?$", re.I),  # "6", "Page 6", "6 of 120", "6/120"
    re.compile(r"^(\d{1,4})\s*[|•·–—-]?\s+[^\d\s].*$"),  # "31 Verizon 2022 Annual Report on Form 10-K"
    re.compile(r"^.*[^\d\s,.]\s*[|•·–—-]?\s+(\d{1,4})$"),  # "Verizon 2022 Annual Report on Form 10-K 6"
]


def edge_numbers(text: str) -> set[int]:
    """The numbers printed as a page number could be at the head or foot of a page's text."""
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    edges = lines[:EDGE_LINES] + lines[-EDGE_LINES:]
    out = set()
    for line in edges:
        if len(line) > MAX_LINE:
            continue
        m = next((m for m in (pattern.match(line) for pattern in LABEL_RES) if m), None)  # the first form only
        if m:
            out.add(int(m.group(1)))
    return out


def label_in_sequence(numbers: dict[int, set[int]], page: int) -> str | None:
    """The number of ``page`` (zero-based) that a page within ``REACH`` confirms by printing the number its
    distance away; None when none is confirmed. ``numbers``: page -> its edge numbers."""
    for n in sorted(numbers.get(page, ())):
        if any(n + (other - page) in numbers.get(other, ())
               for other in range(page - REACH, page + REACH + 1) if other != page):
            return str(n)
    return None


@lru_cache(maxsize=256)
def _label(path: str, mtime_ns: int, page: int) -> str | None:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        if not 0 <= page < len(doc):
            return None
        own = doc.get_page_label(page)
        if own:
            return own
        numbers = {}
        for i in range(max(0, page - REACH), min(len(doc), page + REACH + 1)):
            textpage = doc[i].get_textpage()
            numbers[i] = edge_numbers(textpage.get_text_range())
        return label_in_sequence(numbers, page)
    finally:
        doc.close()


def printed_label(pdf: Path, page: int) -> str | None:
    """The label a person reads on zero-based ``page`` of ``pdf``, or None (no text layer, no number, a file
    that cannot be read). Not thread-safe (PDFium): callers that serve threads hold their PDFium lock."""
    pdf = Path(pdf)
    try:
        return _label(str(pdf), pdf.stat().st_mtime_ns, int(page))
    except Exception:  # noqa: BLE001 - a label is a courtesy: an unreadable file shows the index alone
        return None


def page_name(page: int, label: str | None) -> str:
    """'p5 (printed 6)': the zero-based index and, when known, the printed label."""
    return f"p{page}" + (f" (printed {label})" if label else "")
