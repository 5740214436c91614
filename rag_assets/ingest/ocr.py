"""OCR of single pages with RapidOCR (its ONNX models ship inside the wheel: works offline), laid out by
the same line/table engine as PDF text."""

from __future__ import annotations

import logging
import os
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium

from rag_assets.config import SettingsError
from rag_assets.ingest import ocr_models
from rag_assets.ingest.layout_blocks import group_blocks
from rag_assets.ingest.layout_types import Line, PageLayout, Segment
from rag_assets.ingest.pdf_layout import _split_trailing_numbers

log = logging.getLogger(__name__)
_lock = threading.Lock()


def ocr_available() -> bool:
    try:
        import rapidocr  # noqa: F401
    except ImportError:
        return False
    return True


# Measured on 8 dense report pages scanned at 150 dpi, 2 cores (rag-assets bench-ocr): RapidOCR's defaults
# took 4.71 s/page (word recall .993 against the text layer). Detection on at most 1,280 px per side instead
# of the full 2x render, no angle classifier (the page render is already upright) and ONNX Runtime's memory
# arena: 3.42 s/page, recall .996. What is left is recognition, ~20-35 ms per text line (convolutions).
OCR_PARAMS = {
    "Global.use_cls": False,
    "Det.limit_type": "max",
    "Det.limit_side_len": 1280,
    "EngineConfig.onnxruntime.enable_cpu_mem_arena": True,
}
# The same two packaged models run faster on OpenVINO where it is installed: on a CPU with AMX/AVX512-BF16
# it infers in bf16 by default (detection ~4x, recognition ~2x faster than ONNX Runtime in fp32; same word
# recall); elsewhere it infers in fp32, as fast as ONNX Runtime. ``auto`` takes OpenVINO when importable.
# On OpenVINO the project reads with its own int8 copies of those models (``ocr_models``), 2.2-2.7x faster in
# fp32 (a CPU without BF16) at the same word recall.
OCR_RUNTIMES = ("auto", "openvino", "onnxruntime")
PACKAGED_MODELS = ocr_models.PACKAGED_MODELS


def resolve_runtime(runtime: str = "auto") -> str:
    """The runtime ``runtime`` names: ``auto`` is OpenVINO when importable, else ONNX Runtime."""
    if runtime not in OCR_RUNTIMES:
        raise SettingsError(f"OCR runtime must be one of {', '.join(OCR_RUNTIMES)}, not {runtime!r}")
    if runtime == "onnxruntime":
        return runtime
    try:
        import openvino  # noqa: F401
    except ImportError:
        if runtime == "openvino":
            raise SettingsError("OCR runtime openvino is not installed (pip install openvino)") from None
        return "onnxruntime"
    return "openvino"


def engine_params(runtime: str = "auto", threads: int = 0, use_shipped: bool = True) -> dict:
    """RapidOCR parameters for ``runtime`` (resolved) with ``threads`` inference threads (0: every core); on
    OpenVINO the shipped int8 detector where it matches the installed rapidocr (``ocr_models``)."""
    from importlib.metadata import version

    import rapidocr
    from rapidocr import EngineType

    params = dict(OCR_PARAMS)
    if resolve_runtime(runtime) == "onnxruntime":
        if threads:
            params["EngineConfig.onnxruntime.intra_op_num_threads"] = threads
        return params
    models = Path(rapidocr.__file__).parent / "models"
    for stage, name in PACKAGED_MODELS.items():
        if not (models / name).is_file():
            raise SettingsError(f"rapidocr {version('rapidocr')} does not ship {name}; use rapidocr>=3.10")
        params[f"{stage}.engine_type"] = EngineType.OPENVINO
        params[f"{stage}.model_path"] = str(models / name)
    shipped = ocr_models.shipped() if use_shipped else None
    if shipped is not None:
        params["Det.model_path"] = str(shipped.det)
    if threads:
        params["EngineConfig.openvino.inference_num_threads"] = threads
    return params


def build_engine(runtime: str = "auto", threads: int = 0, use_shipped: bool = True, precision: str = ""):
    """A RapidOCR engine with the project's settings on ``runtime`` with ``threads`` (0: every core); on
    OpenVINO its line recognizer is ``ocr_lines.LineRecognizer``, over the shipped int8 models unless
    ``use_shipped`` is false. ``precision`` (``f32``) forces OpenVINO's inference precision, as on a CPU
    without BF16 (benchmarks)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from rapidocr import RapidOCR

    runtime = resolve_runtime(runtime)
    params = engine_params(runtime, threads, use_shipped)
    engine = RapidOCR(params=params)
    quiet_rapidocr()
    if runtime == "openvino":
        if precision:  # the detector's session compiled again with the precision forced
            import openvino as ov

            session = engine._load_det_model().session
            config = {"INFERENCE_PRECISION_HINT": precision, "INFERENCE_NUM_THREADS": threads or os.cpu_count() or 1}
            session.session = ov.Core().compile_model(session.model, "CPU", config).create_infer_request()
        from rag_assets.ingest import ocr_lines

        shipped = ocr_models.shipped() if use_shipped else None
        ocr_lines.install(engine, str(shipped.rec) if shipped else params["Rec.model_path"], threads,
                          keep=shipped.keep if shipped else None, precision=precision)
    return engine


def models_version(runtime: str = "auto") -> str:
    """Which OCR models ``runtime`` reads with (part of the parser's fingerprint)."""
    if resolve_runtime(runtime) == "openvino" and (shipped := ocr_models.shipped()) is not None:
        return shipped.version
    return "rapidocr-float"


@lru_cache(maxsize=2)
def _engine(runtime: str = "auto", threads: int = 0):
    return build_engine(runtime, threads)


def release_engines() -> None:
    """Drop the cached engines (1-2 GiB with their per-shape buffers): a report's OCR is done; the next report
    that needs OCR builds them again in under a second."""
    with _lock:
        _engine.cache_clear()


def quiet_rapidocr() -> None:
    """RapidOCR's own loggers say errors only: its warnings are outcomes the parser records itself (a page where
    the detector finds no text, a chart or a blank scan, is logged with a trace on some CPUs and not others)."""
    for name in list(logging.root.manager.loggerDict):
        if name.lower().startswith("rapidocr"):
            logging.getLogger(name).setLevel(logging.ERROR)


def boxes_to_lines(boxes: list[tuple[str, float, float, float, float]]) -> list[Line]:
    """Text boxes (text, x0, x1, y0, y1 in PDF space, y up) grouped into lines, top to bottom, left to right."""
    items = sorted(boxes, key=lambda b: (-(b[3] + b[4]) / 2, b[1]))
    lines: list[list[tuple]] = []
    for b in items:
        cy = (b[3] + b[4]) / 2
        if lines:
            ref = lines[-1]
            lo = min(x[3] for x in ref)
            hi = max(x[4] for x in ref)
            if lo <= cy <= hi:
                ref.append(b)
                continue
        lines.append([b])
    out = []
    for ln in lines:
        ln.sort(key=lambda b: b[1])
        segs = [Segment(t, x0, x1, y0, y1) for t, x0, x1, y0, y1 in ln]
        height = max(s.y1 - s.y0 for s in segs) * 0.75  # box height ~ 1.3 x glyph height
        words = [(w, s.x0, s.x1, s.y0, s.y1) for s in segs for w in s.text.split()]
        out.append(_split_trailing_numbers(Line(segs, height), words) if len(segs) == 1 else Line(segs, height))
    return out


def ocr_page(page: pdfium.PdfPage, page_index: int, scale: float = 2.0, engine=None, runtime: str = "auto",
             threads: int = 0) -> tuple[PageLayout, int]:
    """Lay out one page from OCR (with ``engine``, default the project's on ``runtime`` with ``threads``);
    returns the layout and the number of recognized characters."""
    width, height = page.get_size()
    image = np.array(page.render(scale=scale).to_pil().convert("RGB"))
    with _lock:  # one engine per process; onnxruntime sessions are not shared across threads here
        result = (engine or _engine(runtime, threads))(image)
    boxes = []
    for quad, text, score in zip(result.boxes if result.boxes is not None else [], result.txts or [],
                                 result.scores or []):
        if not text or not text.strip() or score < 0.5:
            continue
        xs = [p[0] for p in quad]
        ys = [p[1] for p in quad]
        boxes.append((text.strip(), min(xs) / scale, max(xs) / scale, height - max(ys) / scale,
                      height - min(ys) / scale))
    # a line without a letter or digit is the edge of a picture read as "_" or "■", not text (a table's "-" for
    # nil sits on its row's line, beside the row's label)
    lines = [ln for ln in boxes_to_lines(boxes) if any(ch.isalnum() for s in ln.segments for ch in s.text)]
    n_chars = sum(len(s.text) for ln in lines for s in ln.segments)
    return PageLayout(page_index, width, height, group_blocks(lines), n_chars, page.get_rotation()), n_chars


def page_has_images(page: pdfium.PdfPage) -> bool:
    import pypdfium2.raw as c

    return any(True for _ in page.get_objects(filter=[c.FPDF_PAGEOBJ_IMAGE], max_depth=2))


def page_text(layout: PageLayout) -> str:
    """A layout's words in reading order (table cells joined by spaces)."""
    return "\n".join(b.text if b.kind != "table" else "\n".join(" ".join(r) for r in b.rows) for b in layout.blocks)
