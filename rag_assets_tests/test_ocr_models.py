"""The OCR's shipped int8 models (``rag_assets/models/ocr``): derived from the installed rapidocr's models (or not
used), read a scanned report as well as the float models, and name themselves in the parser's fingerprint."""

from __future__ import annotations

import json
import shutil

import pypdfium2 as pdfium
import pytest

pytest.importorskip("rapidocr", reason="rapidocr not installed")
ov = pytest.importorskip("openvino", reason="openvino not installed")

from rag_assets.ingest import ocr_models  # noqa: E402


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    """Image-only copies of four pages of a long sample report (prose and a table per page), with their text."""
    from rag_assets.tools.bench_ocr import make_scan
    from rag_assets.tools.samples import SAMPLES, write_long_report

    folder = tmp_path_factory.mktemp("scan")
    long = write_long_report(SAMPLES[1], folder / "long.pdf", 4)
    return folder / "scan.pdf", make_scan(long, folder / "scan.pdf", count=4, dpi=150)


def _recall(engine, scan) -> float:
    from rag_assets.tools.bench_ocr import scan_recall

    path, truth = scan
    pdf = pdfium.PdfDocument(str(path))
    try:
        return scan_recall(engine, pdf, truth)
    finally:
        pdf.close()


def test_the_shipped_models_match_the_installed_rapidocr_and_its_characters():
    models = ocr_models.shipped()
    assert models is not None, "rapidocr's packaged models changed: rebuild with python -m rag_assets.tools.build_ocr_models"
    rec = ov.Core().read_model(str(models.rec))
    assert rec.output(0).get_partial_shape()[-1].get_length() == len(models.keep), "one output column per kept character"
    assert models.det.is_file() and models.det.with_suffix(".bin").is_file()
    assert (ocr_models.folder() / "NOTICE").is_file(), "derived Apache-2.0 models ship with their notice"


@pytest.mark.parametrize("precision", ["", "f32"])
def test_int8_models_read_a_scan_as_well_as_the_float_models(scan, precision):
    """At the CPU's own precision and in f32 (a CPU without BF16): the same words within a point."""
    from rag_assets.ingest.ocr import build_engine

    shipped = _recall(build_engine("openvino", 0, precision=precision), scan)
    float_models = _recall(build_engine("openvino", 0, use_shipped=False, precision=precision), scan)
    assert float_models > 0.95, "the scan is readable"
    assert shipped >= float_models - 0.01


def test_models_derived_from_other_sources_are_not_used(tmp_path, monkeypatch):
    from rag_assets.ingest.ocr import engine_params, models_version

    copy = tmp_path / "ocr"
    shutil.copytree(ocr_models.folder(), copy)
    manifest = json.loads((copy / ocr_models.MANIFEST).read_text())
    manifest["sources"]["Rec"]["sha256"] = "0" * 64
    (copy / ocr_models.MANIFEST).write_text(json.dumps(manifest))
    monkeypatch.setattr(ocr_models, "folder", lambda: copy)
    ocr_models.shipped.cache_clear()
    try:
        assert ocr_models.shipped() is None
        assert models_version("openvino") == "rapidocr-float"
        assert engine_params("openvino")["Det.model_path"].endswith("PP-OCRv6_det_small.onnx")
    finally:
        ocr_models.shipped.cache_clear()


def test_the_parsers_fingerprint_names_the_models_it_reads_with():
    from rag_assets.orchestration.resources.parser import ParserResource

    version = ocr_models.shipped().version
    assert ParserResource(route="weight_free").fingerprint()["ocr_models"] == version
    assert ParserResource(route="weight_free", ocr_runtime="onnxruntime").fingerprint()["ocr_models"] == "rapidocr-float"
    assert "ocr_models" not in ParserResource(route="weight_free", ocr="off").fingerprint()
