"""PDF -> DoclingDocument, by the weight-free PDFium layout route or by the full Docling pipeline."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pypdfium2 as pdfium
from docling_core.types.doc import (
    BoundingBox,
    CoordOrigin,
    DocItemLabel,
    DoclingDocument,
    DocumentOrigin,
    ProvenanceItem,
    Size,
    TableCell,
    TableData,
)

from rag_assets.storage.catalog import file_sha1
from rag_assets.ingest.pdf_layout import PageLayout, layout_page

log = logging.getLogger(__name__)

PARSER_VERSION = "pdfium-layout-2"


class PdfParseError(Exception):
    """A PDF that cannot be turned into a document; the message says why and what to do."""


class EmptyPdfError(PdfParseError):
    pass


class CorruptPdfError(PdfParseError):
    pass


class NoTextLayerError(PdfParseError):
    pass


@dataclass
class ParseStats:
    pages: int = 0
    text_items: int = 0
    tables: int = 0
    chars: int = 0
    empty_pages: list[int] = field(default_factory=list)
    seconds: float = 0.0
    route: str = ""
    ocr_pages: list[dict] = field(default_factory=list)  # {"page_index", "reason", "chars"}
    unreadable_pages: list[dict] = field(default_factory=list)  # flagged but not OCR'd (OCR off/unavailable)
    ocr_runtime: str = ""  # the runtime OCR ran on (openvino, onnxruntime), when it ran

    def as_metadata(self) -> dict:
        return {
            "pages": self.pages,
            "text_items": self.text_items,
            "tables": self.tables,
            "chars": self.chars,
            "empty_pages": len(self.empty_pages),
            "seconds": round(self.seconds, 3),
            "pages_per_second": round(self.pages / self.seconds, 1) if self.seconds else None,
            "route": self.route,
            "ocr_pages": len(self.ocr_pages),
            "ocr_detail": "; ".join(f"p{p['page_index']}: {p['reason']}" for p in self.ocr_pages[:40]),
            "unreadable_pages": len(self.unreadable_pages),
            "ocr_runtime": self.ocr_runtime,
        }


def open_pdf(path: Path) -> pdfium.PdfDocument:
    """Open a PDF with PDFium (an empty user password is tried, as PDF readers do), or raise a clear error."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"PDF not found: {path}")
    size = path.stat().st_size
    if size == 0:
        raise EmptyPdfError(f"{path.name}: the file is empty (0 bytes); re-download or re-export the report")
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        if "password" in msg.lower():
            raise CorruptPdfError(f"{path.name}: the PDF is encrypted with a non-empty password ({msg})") from exc
        raise CorruptPdfError(
            f"{path.name}: not a readable PDF ({msg}); the file may be truncated or corrupt ({size} bytes)"
        ) from exc
    if len(pdf) == 0:
        pdf.close()
        raise CorruptPdfError(f"{path.name}: the PDF has no pages")
    return pdf


def _bbox(b: tuple[float, float, float, float], width: float, height: float) -> BoundingBox:
    """A bottom-left-origin box clamped to the page (glyphs can poke outside the media box)."""
    l, bo, r, t = b
    l, r = sorted((min(max(l, 0.0), width), min(max(r, 0.0), width)))
    bo, t = sorted((min(max(bo, 0.0), height), min(max(t, 0.0), height)))
    return BoundingBox(l=l, t=t, r=r, b=bo, coord_origin=CoordOrigin.BOTTOMLEFT)


def add_layout_to_document(doc: DoclingDocument, layout: PageLayout, stats: ParseStats) -> None:
    """Append one page's blocks to ``doc`` with page provenance (Docling pages are 1-based)."""
    page_no = layout.page_index + 1
    doc.add_page(page_no=page_no, size=Size(width=layout.width, height=layout.height))
    if not layout.blocks:
        stats.empty_pages.append(layout.page_index)
    for block in layout.blocks:
        if block.kind == "table":
            n_rows = len(block.rows)
            n_cols = max(len(r) for r in block.rows)
            cells = [
                TableCell(
                    text=text,
                    start_row_offset_idx=i,
                    end_row_offset_idx=i + 1,
                    start_col_offset_idx=j,
                    end_col_offset_idx=j + 1,
                    column_header=i < block.header_rows,
                    row_header=j == 0 and i >= block.header_rows,
                )
                for i, row in enumerate(block.rows)
                for j, text in enumerate(row)
                if text
            ]
            doc.add_table(
                data=TableData(num_rows=n_rows, num_cols=n_cols, table_cells=cells),
                prov=ProvenanceItem(page_no=page_no, bbox=_bbox(block.bbox, layout.width, layout.height), charspan=(0, 0)),
            )
            stats.tables += 1
        else:
            prov = ProvenanceItem(page_no=page_no, bbox=_bbox(block.bbox, layout.width, layout.height), charspan=(0, len(block.text)))
            if block.kind == "heading":
                doc.add_heading(text=block.text, level=1, prov=prov)
            else:
                doc.add_text(label=DocItemLabel.TEXT, text=block.text, prov=prov)
            stats.text_items += 1


@dataclass(frozen=True)
class OcrPolicy:
    """When OCR re-reads a page (``mode``: auto, always, off) and what it runs on."""

    mode: str = "auto"
    runtime: str = "auto"  # openvino or onnxruntime once resolved
    threads: int = 0  # 0: every core


def _read_page(page, i: int, policy: OcrPolicy, can_ocr: bool, stats: ParseStats) -> PageLayout:
    """One page's layout from its text layer, or from OCR where that layer is missing or unreadable."""
    from rag_assets.ingest.ocr import ocr_page, page_has_images, page_text
    from rag_assets.ingest.text_quality import page_quality

    layout = layout_page(page, i)
    reason = "forced" if policy.mode == "always" else ""
    if not reason:
        text = page_text(layout)
        quality = page_quality(text, has_images=not text.strip() and page_has_images(page))
        if not quality.ok and quality.reason != "empty page":
            reason = quality.reason
    if reason and can_ocr:
        stats.ocr_runtime = policy.runtime
        ocr_layout, n_ocr = ocr_page(page, i, runtime=policy.runtime, threads=policy.threads)
        if n_ocr or not layout.n_chars:
            layout = ocr_layout
        stats.ocr_pages.append({"page_index": i, "reason": reason, "chars": n_ocr})
    elif reason:
        stats.unreadable_pages.append({"page_index": i, "reason": reason})
    return layout


def pages_to_ocr(pdf, ocr: str) -> int:
    """How many pages OCR will read, as known before reading them: every page with ``always``; else the pages
    without a text layer that hold images (pages whose text turns out unreadable are added as found)."""
    from rag_assets.ingest.ocr import page_has_images

    if ocr == "always":
        return len(pdf)
    count = 0
    for i in range(len(pdf)):
        page = pdf[i]
        textpage = page.get_textpage()
        try:
            count += textpage.count_chars() == 0 and page_has_images(page)
        finally:
            textpage.close()
            page.close()
    return count


def _read_pages(pdf, doc, stats: ParseStats, policy: OcrPolicy, can_ocr: bool, progress, ocr_progress) -> None:
    """Every page's layout into ``doc``, in order, with progress (and OCR progress) after each."""
    n = len(pdf)
    stats.pages = n
    expected = None  # counted at the first OCR'd page: reports that need no OCR never pay the scan
    for i in range(n):
        page = pdf[i]
        try:
            done = len(stats.ocr_pages)
            layout = _read_page(page, i, policy, can_ocr, stats)
        finally:
            page.close()
        if ocr_progress and len(stats.ocr_pages) > done:
            expected = pages_to_ocr(pdf, policy.mode) if expected is None else expected
            ocr_progress(len(stats.ocr_pages), max(expected, len(stats.ocr_pages)))
        stats.chars += layout.n_chars
        add_layout_to_document(doc, layout, stats)
        if progress:
            progress(i + 1, n)


def parse_pdf_weight_free(
    path: Path,
    name: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    ocr: str = "auto",
    ocr_progress: Callable[[int, int], None] | None = None,
    ocr_runtime: str = "auto",
    ocr_threads: int = 0,
) -> tuple[DoclingDocument, ParseStats]:
    """Parse a PDF with PDFium text and geometry only; tables are inferred from the layout.

    ``ocr``: ``auto`` re-reads with OCR only the pages whose text layer is missing or unreadable (no text
    but images, glyph garbage, letter-shifted text); ``always`` OCRs every page; ``off`` never does.
    ``progress`` hears (pages read, pages); ``ocr_progress`` (pages OCR'd, pages to OCR) after each OCR'd page.
    ``ocr_runtime`` (auto, openvino, onnxruntime) and ``ocr_threads`` (0: every core) say what OCR runs on.
    """
    from rag_assets.ingest.ocr import ocr_available, release_engines, resolve_runtime

    if ocr not in ("auto", "always", "off"):
        raise ValueError(f"ocr must be auto, always or off, not {ocr!r}")
    can_ocr = ocr != "off" and ocr_available()
    # resolved once: an unknown or missing runtime is said before any page is read
    policy = OcrPolicy(ocr, resolve_runtime(ocr_runtime) if can_ocr else ocr_runtime, ocr_threads)
    path = Path(path)
    t0 = time.perf_counter()
    pdf = open_pdf(path)
    stats = ParseStats(route=PARSER_VERSION)
    doc = DoclingDocument(name=name or path.stem)
    doc.origin = DocumentOrigin(
        mimetype="application/pdf", binary_hash=int(file_sha1(path)[:16], 16), filename=path.name
    )
    try:
        _read_pages(pdf, doc, stats, policy, can_ocr, progress, ocr_progress)
    finally:
        pdf.close()
        if stats.ocr_pages:
            release_engines()  # the embedder and the next reports do not carry OCR's buffers
    stats.seconds = time.perf_counter() - t0
    if stats.chars == 0:
        hint = (
            "OCR found no text either" if can_ocr else
            "install the OCR extra (pip install rapidocr) and parse with ocr='auto', or run `ocrmypdf in.pdf out.pdf`"
        )
        raise NoTextLayerError(
            f"{path.name}: none of its {stats.pages} pages has a text layer (a scanned report); {hint}. "
            "OCR is the remedy."
        )
    return doc, stats


def docling_artifacts_available(artifacts_path: str | None) -> bool:
    """True when the full Docling pipeline can run: docling installed and layout weights at hand."""
    try:
        import docling  # noqa: F401
    except ImportError:
        return False
    if artifacts_path:
        return Path(artifacts_path).expanduser().is_dir()
    if (Path.home() / ".cache" / "docling" / "models").is_dir():
        return True
    hf = Path.home() / ".cache" / "huggingface" / "hub"
    return hf.is_dir() and any(hf.glob("models--ds4sd--docling-*"))


def parse_pdf_docling(
    path: Path,
    artifacts_path: str | None = None,
    do_table_structure: bool = True,
    do_ocr: bool = False,
    num_threads: int = 2,
) -> tuple[DoclingDocument, ParseStats]:
    """Parse with Docling's standard pipeline (layout + TableFormer); needs ``pip install docling`` and weights."""
    try:
        from docling.datamodel.accelerator_options import AcceleratorOptions
        from docling.datamodel.base_models import InputFormat
        from docling.datamodel.pipeline_options import PdfPipelineOptions
        from docling.document_converter import DocumentConverter, PdfFormatOption
    except ImportError as exc:  # pragma: no cover - depends on optional extra
        raise PdfParseError(
            "the 'docling' parser route needs Docling: pip install -e '.[docling]' (pin torch==2.13.0 for a CPU build)"
        ) from exc
    path = Path(path)
    open_pdf(path).close()  # same clear errors for empty/corrupt files
    t0 = time.perf_counter()
    opts = PdfPipelineOptions(
        artifacts_path=artifacts_path,
        do_table_structure=do_table_structure,
        do_ocr=do_ocr,
        accelerator_options=AcceleratorOptions(num_threads=num_threads, device="cpu"),
    )
    conv = DocumentConverter(format_options={InputFormat.PDF: PdfFormatOption(pipeline_options=opts)})
    result = conv.convert(str(path))
    doc = result.document
    stats = ParseStats(route="docling-standard", pages=len(doc.pages), tables=len(doc.tables))
    stats.text_items = len(doc.texts)
    stats.chars = sum(len(t.text) for t in doc.texts)
    stats.seconds = time.perf_counter() - t0
    if stats.chars == 0:
        raise NoTextLayerError(f"{path.name}: Docling found no text; enable OCR (do_ocr=True)")
    return doc, stats
