"""Small synthetic annual reports (PDF) for the quickstart and the tests, made with reportlab.

Each report has a cover, a narrative page, a two-column page, a financial table whose units are given in
its caption, a page that holds only an image, and a notes page; every page carries a running header and
a page-number footer, as real reports do.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from rag_assets.storage.catalog import file_sha1


@dataclass
class SampleReport:
    company: str
    year: int
    currency: str
    total_assets: tuple[int, int]  # (this year, last year), in thousands
    cash_from_operations: tuple[int, int]
    revenue: tuple[int, int]
    net_income: tuple[int, int]
    employees: int
    ceo: str
    buyback: bool
    appointed: tuple[str, ...] = ()  # directors appointed during the year
    file_name: str = ""
    extra_paragraphs: list[str] = field(default_factory=list)


SAMPLES = [
    SampleReport(
        company="Northwind Widgets plc",
        year=2023,
        currency="USD",
        total_assets=(7_710_615, 8_818_186),
        cash_from_operations=(406_100, 388_250),
        revenue=(2_950_400, 2_610_900),
        net_income=(-12_400, 85_300),
        employees=4_210,
        ceo="Margaret Okafor",
        buyback=True,
        appointed=("Priya Raman", "Tomasz Lewicki"),
        file_name="northwind_widgets_2023.pdf",
    ),
    SampleReport(
        company="Bluebird Mining Ltd",
        year=2022,
        currency="AUD",
        total_assets=(1_204_330, 998_120),
        cash_from_operations=(95_870, 120_410),
        revenue=(610_220, 702_900),
        net_income=(44_010, 61_870),
        employees=812,
        ceo="Daniel Whitcombe",
        buyback=False,
        file_name="bluebird_mining_2022.pdf",
    ),
]

W, H = A4
LOREM = (
    "The Group continued to invest in its operations during the year, with a focus on safety, customer "
    "service and disciplined capital allocation. Management reviewed the portfolio of activities and "
    "concluded that the core businesses remain well positioned for the years ahead. "
)


def _fmt(v: int) -> str:
    return f"({abs(v):,})" if v < 0 else f"{v:,}"


def _frame(c: canvas.Canvas, r: SampleReport, page_no: int) -> None:
    c.setFont("Helvetica", 8)
    c.drawString(40, H - 30, f"{r.company} | Annual Report {r.year}")
    c.drawRightString(W - 40, 25, str(page_no))


def _paragraph(c: canvas.Canvas, text: str, x: float, y: float, width_chars: int, size: float = 10) -> float:
    c.setFont("Helvetica", size)
    words = text.split()
    line = ""
    for w in words:
        if len(line) + len(w) + 1 > width_chars:
            c.drawString(x, y, line)
            y -= size * 1.35
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        c.drawString(x, y, line)
        y -= size * 1.35
    return y - size * 0.8


def _image_bytes() -> ImageReader:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (400, 300), "white")
    d = ImageDraw.Draw(img)
    for i in range(0, 400, 40):
        d.rectangle([i, 300 - (i // 2 + 40), i + 30, 300], fill=(30, 90 + i // 4, 160))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    buf.seek(0)
    return ImageReader(buf)


def _cover(c, r: SampleReport) -> None:
    c.setFont("Helvetica-Bold", 28)
    c.drawString(60, H - 250, r.company)
    c.setFont("Helvetica", 18)
    c.drawString(60, H - 290, f"Annual Report {r.year}")


def _chairman(c, r: SampleReport) -> None:
    c.setFont("Helvetica-Bold", 16)
    c.drawString(40, H - 80, "Chairman's statement")
    y = H - 110
    buyback = (
        f"In {r.year} the Board approved a share buyback programme of up to 5% of issued shares, "
        "to be completed on market over the next twelve months."
        if r.buyback
        else "The Board did not propose any return of capital to shareholders this year."
    )
    appointed = (
        f"During {r.year} the Board appointed {' and '.join(r.appointed)} as non-executive directors."
        if r.appointed else ""
    )
    for text in [
        f"I am pleased to present the annual report of {r.company} for the financial year {r.year}. "
        f"Our chief executive officer, {r.ceo}, led the business through a year of change. " + LOREM,
        buyback,
        appointed,
        "Our approach to sustain- ability is described in the strategic report. " + LOREM,
    ]:
        if text:
            y = _paragraph(c, text, 40, y, 95)


def _two_columns(c, r: SampleReport) -> None:
    c.setFont("Helvetica-Bold", 16)
    c.drawString(40, H - 80, "Strategic report")
    left = "Left column. Our markets grew steadily and the order book reached a record level. " + LOREM
    right = "Right column. Risks are managed by the audit committee and reviewed each quarter. " + LOREM
    _paragraph(c, left, 40, H - 110, 45)
    _paragraph(c, right, 310, H - 110, 45)


def _statement_table(c, r: SampleReport) -> None:
    """The financial statements table, its units in the caption."""
    c.setFont("Helvetica-Bold", 16)
    c.drawString(40, H - 80, "Consolidated statement of financial position")
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(40, H - 100, f"All amounts in thousands of {r.currency} unless otherwise stated")
    c.setFont("Helvetica-Bold", 9)
    c.drawRightString(420, H - 130, str(r.year))
    c.drawRightString(520, H - 130, str(r.year - 1))
    rows = [
        ("Revenue", r.revenue),
        ("Net income (loss)", r.net_income),
        ("Cash flow from operating activities", r.cash_from_operations),
        ("Total assets", r.total_assets),
    ]
    c.setFont("Helvetica", 9)
    y = H - 150
    for label, (a, b) in rows:
        c.drawString(40, y, label)
        c.drawRightString(420, y, _fmt(a))
        c.drawRightString(520, y, _fmt(b))
        y -= 16
    _paragraph(c, "The notes on the following pages form part of these financial statements.", 40, y - 20, 95, 9)


def _notes(c, r: SampleReport) -> None:
    c.setFont("Helvetica-Bold", 16)
    c.drawString(40, H - 80, "Notes to the financial statements")
    y = _paragraph(c, f"Note 12 Employees. At year end the Group employed {r.employees:,} people across its "
                   "operations. " + LOREM, 40, H - 110, 95)
    for text in r.extra_paragraphs:
        y = _paragraph(c, text, 40, y, 95)


def write_report(r: SampleReport, target: Path) -> Path:
    """Write one sample report PDF to ``target`` and return it: cover, chairman's statement, two columns,
    statement table, an image-only page (no text at all, no header or footer), notes."""
    c = canvas.Canvas(str(target), pagesize=A4, invariant=1)  # invariant: same bytes, same SHA-1
    c.setTitle(f"{r.company} Annual Report {r.year}")
    for page, draw in enumerate([_cover, _chairman, _two_columns, _statement_table, None, _notes], 1):
        if draw is None:
            c.drawImage(_image_bytes(), 100, 300, width=400, height=300)
        else:
            _frame(c, r, page)
            draw(c, r)
        c.showPage()
    c.save()
    return target


SEGMENTS = ["Retail", "Wholesale", "Logistics", "Energy", "Services", "Property", "Digital", "Insurance"]
LINE_ITEMS = ["Revenue", "Cost of sales", "Gross profit", "Administrative expenses", "Operating profit",
              "Finance income", "Finance costs", "Profit before tax", "Income tax", "Profit for the year",
              "Depreciation", "Amortisation", "Capital expenditure", "Trade receivables", "Inventories",
              "Trade payables", "Borrowings", "Lease liabilities", "Provisions", "Deferred tax",
              "Cash and cash equivalents", "Net assets", "Share capital", "Retained earnings"]


def _long_table_page(c, r: SampleReport, k: int) -> None:
    """A segment note: 24 line items by three columns, in thousands."""
    seg = SEGMENTS[k % len(SEGMENTS)]
    c.setFont("Helvetica-Bold", 14)
    c.drawString(40, H - 80, f"Note {k}: {seg} segment information")
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(40, H - 98, f"In thousands of {r.currency}")
    c.setFont("Helvetica-Bold", 9)
    for x, head in [(330, str(r.year)), (420, str(r.year - 1)), (520, "Change %")]:
        c.drawRightString(x, H - 125, head)
    c.setFont("Helvetica", 9)
    y = H - 145
    for i, item in enumerate(LINE_ITEMS):
        a, b = 1000 + (k * 7919 + i * 104_729) % 900_000, 1000 + (k * 6007 + i * 99_991) % 900_000
        c.drawString(40, y, item)
        c.drawRightString(330, y, _fmt(a if i % 5 else -a))
        c.drawRightString(420, y, _fmt(b))
        c.drawRightString(520, y, f"{(a - b) / b * 100:.1f}")
        y -= 15


def _long_prose_page(c, r: SampleReport, k: int) -> None:
    seg = SEGMENTS[k % len(SEGMENTS)]
    c.setFont("Helvetica-Bold", 14)
    c.drawString(40, H - 80, f"Section {k}: review of the {seg.lower()} business")
    y = H - 110
    for j in range(4):
        text = (f"In {r.year} the {seg.lower()} business (section {k}, part {j + 1}) served {1000 + k * 13 + j} "
                f"customers across {3 + (k + j) % 9} regions. " + LOREM)
        y = _paragraph(c, text, 40, y, 95)


def write_long_report(r: SampleReport, target: Path, pages: int = 1000) -> Path:
    """A long report for memory and speed benchmarks: a cover, then prose pages, and a 24-row table on every
    third page (the ``rag-assets bench`` 1,000-page case). Written under a temporary name: a stopped run leaves
    no half a PDF."""
    from rag_assets.storage.atomic import atomic_path

    with atomic_path(Path(target)) as tmp:
        c = canvas.Canvas(str(tmp), pagesize=A4, invariant=1)
        c.setTitle(f"{r.company} Annual Report {r.year}")
        _cover(c, r)
        c.showPage()
        for k in range(1, pages):
            _frame(c, r, k + 1)
            (_long_table_page if k % 3 == 0 else _long_prose_page)(c, r, k)
            c.showPage()
        c.save()
    return target


# zero-based pages of write_report's layout
CHAIRMAN_PAGE, TABLE_PAGE, NOTES_PAGE = 1, 3, 5
ABSENT_COMPANY = "Contoso Shipping AG"  # named by one sample question; no report of it exists


def sample_questions(reports: list[SampleReport], sha1s: dict[str, str]) -> tuple[list[dict], dict]:
    """A question of every kind about the sample reports, and their gold answers with page pools (the
    challenge's formats). ``sha1s`` maps company name to the SHA-1 of its PDF."""
    a, b = reports[0], reports[1]
    na = "If data is not available, return 'N/A'."
    ref = lambda r, page: [[f"{sha1s[r.company]}:{page}"]]  # noqa: E731
    items = [
        (f"What was the cash flow from operating activities (in {a.currency}) for {a.company} according to the "
         f"annual report? {na}", "number", [a.cash_from_operations[0] * 1000], ref(a, TABLE_PAGE)),
        (f"What were the total assets (in {b.currency}) of {b.company} at the end of the period? {na}",
         "number", [b.total_assets[0] * 1000], ref(b, TABLE_PAGE)),
        (f"Did {a.company} announce a share buyback plan in the annual report? If there is no mention, return "
         "False.", "boolean", [a.buyback], ref(a, CHAIRMAN_PAGE) if a.buyback else []),
        (f"Did {b.company} announce a share buyback plan in the annual report? If there is no mention, return "
         "False.", "boolean", [b.buyback], ref(b, CHAIRMAN_PAGE) if b.buyback else []),
        (f"Who was the chief executive officer of {b.company}? {na}", "name", [b.ceo], ref(b, CHAIRMAN_PAGE)),
        (f"What are the names of the directors appointed to the Board of {a.company} during the year? {na}",
         "names", [list(a.appointed)], ref(a, CHAIRMAN_PAGE)),
        (f'Which of the companies had the lowest number of employees: "{a.company}", "{b.company}"? {na}',
         "comparative", [min(reports[:2], key=lambda r: r.employees).company],
         [ref(r, NOTES_PAGE)[0] for r in reports[:2]]),
        (f"What was the total revenue (in EUR) of {ABSENT_COMPANY} according to the annual report? {na}",
         "number", ["N/A"], []),
    ]
    questions = [{"text": t, "kind": k} for t, k, _, _ in items]
    gold = {t: {"kind": k, "answers": g, "reference_pools": pools} for t, k, g, pools in items}
    return questions, gold


def write_sample_questions(root: Path, reports: list[SampleReport] | None = None) -> tuple[Path, Path]:
    """Write ``questions.json`` and ``answers_gold.json`` for the sample reports into ``root`` (the data root)."""
    from rag_assets.storage.atomic import write_json

    reports = reports or SAMPLES
    sha1s = {r.company: file_sha1(Path(root) / "pdfs" / r.file_name) for r in reports}
    questions, gold = sample_questions(reports, sha1s)
    qpath, gpath = Path(root) / "questions.json", Path(root) / "answers_gold.json"
    write_json(qpath, questions)
    write_json(gpath, gold)
    return qpath, gpath


def page_texts(path: Path) -> list[str]:
    """The text layer of each page of a PDF (PDFium), in page order."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def write_samples(folder: Path, reports: list[SampleReport] | None = None) -> list[Path]:
    """Write the sample reports and a ``subset.csv`` naming their companies into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    rows = []
    for r in reports or SAMPLES:
        path = write_report(r, folder / r.file_name)
        out.append(path)
        rows.append({"sha1": file_sha1(path), "cur": r.currency, "company_name": r.company})
    with open(folder / "subset.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["sha1", "cur", "company_name"])
        w.writeheader()
        w.writerows(rows)
    return out
