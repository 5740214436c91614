"""OCR on OpenVINO: the same packaged models as ONNX Runtime, read through our line recognizer (bucketed widths,
two batches in flight); the runtime is a setting with one-line errors and is recorded in the parse metadata."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from rag_assets.config import SettingsError
from rag_assets.ingest.cleaning import document_pages
from rag_assets.ingest.parsing import parse_pdf_weight_free
from rag_assets_tests.pdf_factory import scanned_pdf

pytest.importorskip("rapidocr", reason="rapidocr not installed")
ov = pytest.importorskip("openvino", reason="openvino not installed")


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    """Image-only copies of a sample report's cover and statement table (a few dozen text lines)."""
    from rag_assets.tools.bench_ocr import make_scan
    from rag_assets.tools.samples import SAMPLES, write_report

    folder = tmp_path_factory.mktemp("scan")
    truth = make_scan(write_report(SAMPLES[0], folder / "report.pdf"), folder / "scan.pdf", count=2)
    return folder / "scan.pdf", truth


def _recognizer(width_step: int, streams: int):
    from rapidocr import RapidOCR

    from rag_assets.ingest.ocr import engine_params
    from rag_assets.ingest.ocr_lines import LineRecognizer

    params = engine_params("openvino")
    engine = RapidOCR(params=params)
    compiled = ov.Core().compile_model(params["Rec.model_path"], "CPU", {"NUM_STREAMS": streams})
    engine.text_rec = LineRecognizer(engine._load_rec_model(), compiled, streams, width_step)
    return engine


def _read(engine, path) -> list[list[str]]:
    from rag_assets.ingest.ocr import ocr_page, page_text

    pdf = pdfium.PdfDocument(str(path))
    try:
        return [page_text(ocr_page(pdf[i], i, engine=engine)[0]).split() for i in range(len(pdf))]
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def rapidocr_words(scan):
    """The words RapidOCR's own recognizer reads on OpenVINO."""
    from rapidocr import RapidOCR

    from rag_assets.ingest.ocr import engine_params

    return _read(RapidOCR(params=engine_params("openvino")), scan[0])


def test_line_recognizer_reads_exactly_as_rapidocr_without_buckets(scan, rapidocr_words):
    """Same model, resizing, batches and decoder: with a 1 px width step and two batches in flight, every
    word is the one RapidOCR's own recognizer reads."""
    assert sum(len(w) for w in rapidocr_words) > 60, "the scan has a few dozen lines to batch"
    assert _read(_recognizer(width_step=1, streams=2), scan[0]) == rapidocr_words


def test_bucketed_widths_read_as_well_as_rapidocr(scan, rapidocr_words):
    from rag_assets.tools.bench_ocr import word_recall

    path, truth = scan
    ours = _read(_recognizer(width_step=64, streams=2), path)
    for words, own, text in zip(ours, rapidocr_words, truth):
        assert word_recall(" ".join(words), text) >= word_recall(" ".join(own), text) - 0.02


def test_batches_cover_every_line_once_at_a_step_width():
    from rag_assets.ingest.ocr_lines import LineRecognizer

    class Inner:  # RapidOCR's recognizer settings
        rec_image_shape = [3, 48, 320]
        rec_batch_num = 6

    rec = LineRecognizer.__new__(LineRecognizer)
    rec.inner, rec.width_step = Inner(), 64
    ratios = [30.2, 1.5, 8.0, 2.2, 12.9, 7.1, 6.4, 25.0, 3.3]
    plan = rec.batches(ratios)
    assert sorted(i for idx, _ in plan for i in idx) == list(range(len(ratios)))
    assert [len(idx) for idx, _ in plan] == [6, 3]
    for idx, width in plan:
        assert width % 64 == 0 and width >= max(320, int(48 * max(ratios[i] for i in idx)))
        assert width - 64 < max(320, int(48 * max(ratios[i] for i in idx)))
    assert max(ratios[i] for i in plan[0][0]) <= min(ratios[i] for i in plan[1][0]), "narrowest lines first"


@pytest.mark.parametrize("runtime", ["openvino", "onnxruntime"])
def test_each_runtime_reads_the_scanned_page_and_is_recorded(tmp_path, runtime):
    doc, stats = parse_pdf_weight_free(scanned_pdf(tmp_path / "scan.pdf"), ocr_runtime=runtime, ocr_threads=1)
    text = document_pages(doc)[1].text
    assert "Statement of financial position" in text and "7,710,615" in text and "406,100" in text
    assert stats.ocr_runtime == runtime and stats.as_metadata()["ocr_runtime"] == runtime


def test_a_page_without_ocr_records_no_runtime(tmp_path):
    from rag_assets_tests.pdf_factory import text_pdf

    _, stats = parse_pdf_weight_free(text_pdf(tmp_path / "t.pdf", [["An ordinary page of text."]]))
    assert stats.ocr_runtime == ""


def test_runtime_settings_are_one_line_errors(tmp_path):
    from rag_assets.ingest.ocr import resolve_runtime
    from rag_assets.orchestration.definitions import default_resources

    assert resolve_runtime("auto") == "openvino"
    with pytest.raises(SettingsError, match="OCR runtime must be one of auto, openvino, onnxruntime, not 'gpu'"):
        parse_pdf_weight_free(scanned_pdf(tmp_path / "scan.pdf"), ocr_runtime="gpu")
    with pytest.raises(SettingsError, match="RAG_ASSETS_OCR_RUNTIME='gpu'"):
        default_resources({"RAG_ASSETS_OCR_RUNTIME": "gpu"})
    with pytest.raises(SettingsError, match="RAG_ASSETS_PARSER_THREADS='-2'"):
        default_resources({"RAG_ASSETS_PARSER_THREADS": "-2"})
    parser = default_resources({"RAG_ASSETS_OCR_RUNTIME": "onnxruntime", "RAG_ASSETS_PARSER_THREADS": "1"})["parser"]
    assert (parser.ocr_runtime, parser.num_threads) == ("onnxruntime", 1)
    assert "ocr_runtime" not in parser.fingerprint(), "the runtime is not, the models it reads with are"


def test_parsing_a_scanned_report_releases_the_ocr_engine(tmp_path):
    """OCR's engine holds 1-2 GiB of per-shape buffers; it is dropped once the report is parsed."""
    from rag_assets.ingest.ocr import _engine

    _, stats = parse_pdf_weight_free(scanned_pdf(tmp_path / "scan.pdf"), ocr_threads=1)
    assert stats.ocr_pages and _engine.cache_info().currsize == 0
