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


def _text_image(lines: list[str], size=(1200, 500), font_size=28):
    """A PNG of readable text lines (what a scanner would give)."""
    import io

    from PIL import Image, ImageDraw, ImageFont
    from reportlab.lib.utils import ImageReader

    img = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=font_size)
    except TypeError:  # old Pillow
        font = ImageFont.load_default()
    y = 20
    for line in lines:
        d.text((20, y), line, fill="black", font=font)
        y += int(font_size * 1.6)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    buf.seek(0)
    return ImageReader(buf)


SCANNED_LINES = ["Statement of financial position", "Total assets 7,710,615", "Cash at bank 406,100",
                 "The Board approved a dividend of 12 cents per share."]


def scanned_pdf(path: Path) -> Path:
    """Page 0 has a real text layer; page 1 is only a picture of text (a scanned page)."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("Helvetica", 11)
    c.drawString(40, H - 60, "This first page has an ordinary text layer about the annual report of the group.")
    c.showPage()
    c.drawImage(_text_image(SCANNED_LINES), 40, H - 400, width=520, height=216)
    c.showPage()
    c.save()
    return path


def shifted_text_layer_pdf(path: Path, k: int = 3) -> Path:
    """A page that shows readable text (an image) under an invisible text layer whose letters are shifted by k,
    as in reports whose fonts map every glyph to the wrong character."""
    from rag_assets.ingest.text_quality import shift

    lines = ["The company reported strong results and higher revenue this year.",
             "Management expects continued growth in all operating segments.",
             "Total assets 7,710,615", "Employees at year end 4,210"]
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.drawImage(_text_image(lines, size=(1400, 400), font_size=26), 40, H - 300, width=520, height=150)
    t = c.beginText(40, H - 400)
    t.setTextRenderMode(3)  # invisible
    t.setFont("Helvetica", 10)
    for line in lines * 3:
        t.textLine(" ".join(shift(w, k) if w.isalpha() else w for w in line.split()))
    c.drawText(t)
    c.showPage()
    c.save()
    return path


ROTATED_ROWS = [("Revenue", "2,950,400", "2,610,900"), ("Operating profit", "(12,400)", "85,300"),
                ("Total assets", "7,710,615", "8,818,186"), ("Employees", "4,210", "3,980")]


def rotated_table_pdf(path: Path, angle: int = 90) -> Path:
    """A landscape table printed rotated by ``angle`` degrees on a portrait page, as large tables often are."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.saveState()
    if angle == 90:  # rows stack towards the right edge
        c.translate(W - 250, 80)
    else:  # 270: rows stack towards the left edge
        c.translate(250, H - 80)
    c.rotate(angle)
    c.setFont("Helvetica-Bold", 12)
    c.drawString(0, 0, "Five-year summary (USD thousands)")
    c.setFont("Helvetica", 10)
    c.drawRightString(420, -30, "2023")
    c.drawRightString(540, -30, "2022")
    y = -50
    for label, a, b in ROTATED_ROWS:
        c.drawString(0, y, label)
        c.drawRightString(420, y, a)
        c.drawRightString(540, y, b)
        y -= 18
    c.restoreState()
    c.showPage()
    c.save()
    return path


def scanned_report_pdf(path: Path, n_scanned: int = 4) -> Path:
    """A cover page with a text layer, then ``n_scanned`` pages that are only pictures of text."""
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("Helvetica", 11)
    c.drawString(40, H - 60, "Annual report of the group: this cover page has an ordinary text layer.")
    c.showPage()
    for k in range(n_scanned):
        item = ["Total assets", "Cash at bank", "Trade payables", "Retained earnings"][k % 4]
        c.drawImage(_text_image([f"{item} at year end", f"{item} 7,{710 + k},615"]),
                    40, H - 300 - 20 * k, width=520, height=108)
        c.showPage()
    c.save()
    return path
