"""Small PDFs with specific defects, for parser and cleaning tests."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

W, H = A4


def text_pdf(path: Path, pages: list[list[str]], font_size: float = 10) -> Path:
    """One line of text per list item, each page a list."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for lines in pages:
        y = H - 60
        c.setFont("Helvetica", font_size)
        for line in lines:
            c.drawString(40, y, line)
            y -= font_size * 1.35
        c.showPage()
    c.save()
    return path


def image_only_pdf(path: Path, n_pages: int = 2) -> Path:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for _ in range(n_pages):
        c.rect(100, 100, 300, 300, fill=1)
        c.showPage()
    c.save()
    return path


def two_column_table_pdf(path: Path) -> Path:
    """A page with a wide, multi-row table whose numbers sit in two right-aligned columns."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(40, H - 60, "Segment results")
    c.setFont("Helvetica", 9)
    c.drawString(40, H - 80, "EUR million")
    c.drawRightString(400, H - 100, "2024")
    c.drawRightString(500, H - 100, "2023")
    rows = [("Europe", "1,204.5", "1,100.2"), ("Americas", "(88.1)", "12.0"), ("Asia Pacific", "-", "7.5"),
            ("Total segment result", "1,116.4", "1,119.7")]
    y = H - 118
    for label, a, b in rows:
        c.drawString(40, y, label)
        c.drawRightString(400, y, a)
        c.drawRightString(500, y, b)
        y -= 14
    c.showPage()
    c.save()
    return path
