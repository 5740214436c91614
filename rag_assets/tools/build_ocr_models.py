"""Build the OCR's int8 models shipped in ``rag_assets/models/ocr`` (see ``ingest/ocr_models.py``) from RapidOCR's
packaged PP-OCRv6 models. Run by a developer when rapidocr's models change; needs NNCF (``pip install nncf``):

    python -m rag_assets.tools.build_ocr_models            # writes the models and manifest.json (~2 min)

Calibration uses the packaged sample reports only (rendered as 150 dpi scans, as ``bench-ocr`` makes them), so no
development-set page shapes the shipped models. The build refuses models whose per-frame readings agree with
the float model on fewer than ``MIN_AGREEMENT`` of the calibration lines' frames."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

KEEP_BELOW = 0x2500  # Latin, Greek, Cyrillic, punctuation, currency, letterlike, arrows, math operators
MIN_AGREEMENT = 0.97
VERSION = "int8-latin-2"
OUTPUT_LAYER = ("MatMul", "Add")  # the recognizer's last matrix product and its bias, before the softmax


def latin_columns(characters: list[str]) -> list[int]:
    """The output columns kept: CTC's blank, the space and every one-character symbol below ``KEEP_BELOW``."""
    return [i for i, c in enumerate(characters)
            if c in ("blank", " ") or (len(c) == 1 and ord(c) < KEEP_BELOW)]


def prune_output(model, keep: list[int]):
    """``model`` (OpenVINO) with its last MatMul and bias reduced to the ``keep`` columns."""
    import openvino.opset13 as ops

    matmuls = [op for op in model.get_ordered_ops() if op.get_type_name() == "MatMul"]
    last = matmuls[-1]
    (add,) = [t.get_node() for t in last.output(0).get_target_inputs()]
    assert add.get_type_name() == "Add", add.get_type_name()
    weights = last.input_value(1).get_node().get_data()
    bias = add.input_value(1).get_node().get_data()
    last.input(1).replace_source_output(ops.constant(np.ascontiguousarray(weights[:, keep])).output(0))
    add.input(1).replace_source_output(ops.constant(np.ascontiguousarray(bias[keep])).output(0))
    model.validate_nodes_and_infer_types()
    return model


CALIBRATION_DPI = (120, 150, 200)
LONG_REPORT_PAGES = 8


def first_convolution(model) -> str:
    """The convolution that reads the line image's pixels: int8 there costs 1-2 points of word recall on real
    filings (measured on scans of dev-set pages: .976 against .990 kept in float), and almost no time."""
    return next(op.get_friendly_name() for op in model.get_ordered_ops() if op.get_type_name() == "Convolution")


def calibration_inputs() -> tuple[list[np.ndarray], list[np.ndarray], list[str]]:
    """The detector's page inputs and the recognizer's line batches while the float engine reads the sample
    reports (and a long one: prose and a 24-row table per page) as scans at ``CALIBRATION_DPI``; and the
    source character list."""
    import pypdfium2 as pdfium

    from rag_assets.ingest import ocr_lines
    from rag_assets.ingest.ocr import build_engine, ocr_page
    from rag_assets.tools.bench_ocr import make_scan
    from rag_assets.tools.samples import SAMPLES, write_long_report, write_samples

    engine = build_engine("openvino", 0, use_shipped=False)
    det_inputs, rec_batches = [], []
    recognizer: ocr_lines.LineRecognizer = engine.text_rec
    start = recognizer.queue.start_async
    recognizer.queue.start_async = lambda inputs, key: (rec_batches.append(inputs[0].copy()), start(inputs, key))[1]
    detector = engine._load_det_model()
    infer = detector.session

    class Recording:
        def __call__(self, x):
            det_inputs.append(x.copy())
            return infer(x)

    detector.session = Recording()
    engine.text_det = detector
    with tempfile.TemporaryDirectory() as tmp:
        sources = write_samples(Path(tmp) / "samples")
        sources.append(write_long_report(SAMPLES[0], Path(tmp) / "long.pdf", LONG_REPORT_PAGES))
        for pdf_path in sources:
            for dpi in CALIBRATION_DPI:
                scan = Path(tmp) / f"{pdf_path.stem}_{dpi}.pdf"
                make_scan(pdf_path, scan, 64, dpi)
                pdf = pdfium.PdfDocument(str(scan))
                try:
                    for i in range(len(pdf)):
                        ocr_page(pdf[i], i, engine=engine)
                finally:
                    pdf.close()
    return det_inputs, rec_batches, list(recognizer.inner.postprocess_op.character)


def agreement(float_path: Path, int8_model, batches: list[np.ndarray], keep: list[int]) -> float:
    """Share of frames whose most likely character is the same for the float and the int8 recognizer."""
    import openvino as ov

    core = ov.Core()
    ref = core.compile_model(str(float_path), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    new = core.compile_model(int8_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    cols = np.array(keep)
    same = [(ref([x])[0].argmax(-1) == cols[new([x])[0].argmax(-1)]).mean() for x in batches]
    return float(np.mean(same))


def build(target: Path) -> dict:
    try:
        import nncf
    except ImportError:
        raise SystemExit("error: building the OCR models needs NNCF (pip install nncf)") from None
    import openvino as ov

    from rag_assets.ingest.ocr_models import MANIFEST, sha256, source_models

    sources = source_models()
    det_inputs, rec_batches, characters = calibration_inputs()
    keep = latin_columns(characters)
    core = ov.Core()
    pruned = prune_output(core.read_model(str(sources["Rec"])), keep)
    rec = nncf.quantize(pruned, nncf.Dataset(rec_batches), preset=nncf.QuantizationPreset.MIXED,
                        model_type=nncf.ModelType.TRANSFORMER, subset_size=len(rec_batches),
                        ignored_scope=nncf.IgnoredScope(names=[first_convolution(pruned)]))
    rec_agreement = agreement(sources["Rec"], rec, rec_batches, keep)
    if rec_agreement < MIN_AGREEMENT:
        raise SystemExit(f"the int8 recognizer agrees with the float one on {rec_agreement:.3f} of frames "
                         f"(< {MIN_AGREEMENT}): not written")
    det = nncf.quantize(core.read_model(str(sources["Det"])), nncf.Dataset(det_inputs),
                        preset=nncf.QuantizationPreset.MIXED, subset_size=len(det_inputs))
    target.mkdir(parents=True, exist_ok=True)
    ov.save_model(rec, str(target / "rec_int8_latin.xml"))
    ov.save_model(det, str(target / "det_int8.xml"))
    manifest = {"version": VERSION, "det": "det_int8.xml", "rec": "rec_int8_latin.xml", "keep": keep,
                "sources": {stage: {"file": p.name, "sha256": sha256(p)} for stage, p in sources.items()},
                "calibration": {"det_pages": len(det_inputs), "rec_batches": len(rec_batches),
                                "rec_frame_agreement": round(rec_agreement, 4)}}
    (target / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


if __name__ == "__main__":
    from rag_assets.ingest.ocr_models import folder

    made = build(folder())
    print(json.dumps({k: v for k, v in made.items() if k != "keep"}, indent=1))
    sys.exit(0)
