"""The OCR's int8 models shipped in the package (``rag_assets/models/ocr``), derived from RapidOCR's packaged
PP-OCRv6 detection and recognition models by ``python -m rag_assets.tools.build_ocr_models``:

- the recognizer's output layer keeps only the characters of Latin, Greek and Cyrillic scripts, digits,
  punctuation, currency, arrows and math signs (1,277 of 18,710; code points below U+2500), so its largest
  matrix product and softmax shrink 15x;
- both models are quantized to int8 (NNCF post-training quantization on the sample reports' scans), the
  recognizer's first convolution left in float.

On 2 cores with OpenVINO in f32 (a CPU without BF16) this reads 0.9-1.4 s/page against 2.3-3.9 for the float
models, word recall within .003 on scans of four dev-set reports (docs/benchmarks.md). A filing in another
script (CJK) needs the full vocabulary: ``RAG_ASSETS_OCR_RUNTIME=onnxruntime`` runs RapidOCR's own float models.

The manifest names the source models by SHA-256: if the installed rapidocr ships different ones, ``shipped()``
is None and the packaged float models are used (``test_ocr_models.py`` fails, asking for a rebuild)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class ShippedModels:
    det: Path
    rec: Path
    keep: tuple[int, ...]  # the recognizer's output columns: indices into the source model's character list
    version: str  # part of the parser's fingerprint


def folder() -> Path:
    return Path(str(resources.files("rag_assets") / "models" / "ocr"))


PACKAGED_MODELS = {"Det": "PP-OCRv6_det_small.onnx", "Rec": "PP-OCRv6_rec_small.onnx"}  # RapidOCR's, by stage


@lru_cache(maxsize=4)
def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def source_models() -> dict[str, Path]:
    """RapidOCR's packaged float models, by stage."""
    import rapidocr

    models = Path(rapidocr.__file__).parent / "models"
    return {stage: models / name for stage, name in PACKAGED_MODELS.items()}


@lru_cache(maxsize=1)
def shipped() -> ShippedModels | None:
    """The shipped int8 models, if they were derived from the installed rapidocr's models; else None."""
    manifest_path = folder() / MANIFEST
    if not manifest_path.is_file():
        return None
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    sources = source_models()
    for stage, entry in manifest["sources"].items():
        if not sources[stage].is_file() or sha256(sources[stage]) != entry["sha256"]:
            return None
    return ShippedModels(det=folder() / manifest["det"], rec=folder() / manifest["rec"],
                         keep=tuple(manifest["keep"]), version=manifest["version"])
