"""OCR benchmark: seconds per page and the words recovered, on scans made from pages with a text layer.

Pages of a text PDF are rendered at ``dpi`` into an image-only PDF (a scan without noise); OCR reads them
back, and the words it recovers are compared with the page's own text layer (multiset recall of words and
numbers). Usage: ``rag-assets bench-ocr report.pdf --pages 8``.
"""

from __future__ import annotations

import re
import tempfile
import time
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium

from rag_assets.ingest.parsing import open_pdf

WORD = re.compile(r"[a-z]+|\d[\d,.]*")


def word_recall(found: str, truth: str) -> float:
    got, want = Counter(WORD.findall(found.lower())), Counter(WORD.findall(truth.lower()))
    return sum((got & want).values()) / max(1, sum(want.values()))


def make_scan(src: Path, target: Path, count: int, dpi: int = 150) -> list[str]:
    """Write an image-only copy of ``count`` pages spread over ``src``; returns their text layers. An unreadable
    ``src`` raises the parser's one-line ``PdfParseError``."""
    pdf = open_pdf(src)
    images, truth = [], []
    try:
        for i in spread(len(pdf), count):
            page = pdf[i]
            images.append(page.render(scale=dpi / 72).to_pil().convert("L"))
            truth.append(page.get_textpage().get_text_range())
    finally:
        pdf.close()
    images[0].save(target, save_all=True, append_images=images[1:], resolution=dpi)
    return truth


def spread(n_pages: int, count: int) -> list[int]:
    step = max(1, n_pages // count)
    return list(range(0, n_pages, step))[:count]


def bench_settings(compare_defaults: bool = True, threads: int = 0, precision: str = "") -> dict:
    """The engines to compare: the project's settings on each installed runtime (the default one first; on
    OpenVINO with the shipped int8 models and with RapidOCR's float models, at ``precision`` if given) and,
    if asked, RapidOCR's own defaults."""
    from rapidocr import RapidOCR

    from rag_assets.ingest.ocr import build_engine, quiet_rapidocr, resolve_runtime
    from rag_assets.ingest.ocr_models import shipped

    default = resolve_runtime("auto")
    runtimes = [default] + [rt for rt in ("openvino", "onnxruntime") if rt != default and _installed(rt)]
    settings = {}
    for rt in runtimes:
        on_ov = rt == "openvino"
        settings[f"project, {rt}" + (f" {precision}" if on_ov and precision else "")] = build_engine(
            rt, threads, precision=precision if on_ov else "")
        if on_ov and shipped() is not None:
            settings["openvino, float models" + (f" {precision}" if precision else "")] = build_engine(
                rt, threads, use_shipped=False, precision=precision)
    if compare_defaults:
        settings["rapidocr defaults"] = RapidOCR()
    quiet_rapidocr()
    return settings


def _installed(runtime: str) -> bool:
    from rag_assets.config import SettingsError
    from rag_assets.ingest.ocr import resolve_runtime

    try:
        return resolve_runtime(runtime) == runtime
    except SettingsError:
        return False


def scan_recall(engine, pdf: pdfium.PdfDocument, truth: list[str]) -> float:
    """Mean word recall of ``engine`` reading every page of the scan ``pdf`` against its pages' ``truth``."""
    from rag_assets.ingest.ocr import ocr_page, page_text

    recalls = [word_recall(page_text(ocr_page(pdf[i], i, engine=engine)[0]), truth[i]) for i in range(len(pdf))]
    return sum(recalls) / len(recalls)


def run_ocr_bench(src: Path, count: int = 8, dpi: int = 150, compare_defaults: bool = True, threads: int = 0,
                  precision: str = "") -> dict:
    """OCR ``count`` pages spread over ``src`` as ingestion does (``ocr_page``), with the project's settings on
    each installed runtime and, for comparison, RapidOCR's defaults; prints and returns s/page and word recall
    per setting."""
    from rag_assets.ingest.ocr import ocr_page

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        scan = Path(tmp) / "scan.pdf"
        truth = make_scan(Path(src), scan, count, dpi)
        settings = bench_settings(compare_defaults, threads, precision)
        pdf = pdfium.PdfDocument(str(scan))
        try:
            for name, engine in settings.items():
                ocr_page(pdf[0], 0, engine=engine)  # warm-up: sessions, arenas, compiled shapes
                t0 = time.perf_counter()
                recall = scan_recall(engine, pdf, truth)
                secs = (time.perf_counter() - t0) / len(pdf)
                results[name] = {"s_per_page": round(secs, 2), "word_recall": round(recall, 3)}
                print(f"{name:30} {secs:6.2f} s/page  word recall {results[name]['word_recall']:.3f}  "
                      f"({len(pdf)} pages of {Path(src).name} at {dpi} dpi)", flush=True)
        finally:
            pdf.close()
    return results
