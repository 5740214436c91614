"""PDF parser resource: the full Docling pipeline where its weights exist, else the weight-free route."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import dagster as dg
from pydantic import Field

from rag_assets.settings import OcrRuntime, ParserRoute
from rag_assets.ingest.ocr import models_version as ocr_models_version
from rag_assets.ingest.parsing import (
    PARSER_VERSION,
    docling_artifacts_available,
    parse_pdf_docling,
    parse_pdf_weight_free,
)


class ParserResource(dg.ConfigurableResource):
    """Parses a PDF into a DoclingDocument.

    ``route``: ``auto`` (Docling's standard pipeline when Docling and its layout/TableFormer weights are
    installed, else weight-free), ``weight_free`` (PDFium text + geometry; runs anywhere), or ``docling``
    (standard pipeline; fails clearly if Docling or its weights are missing).
    """

    route: ParserRoute = Field(
        default="auto", description="auto: Docling's standard pipeline where its weights are installed, else "
        "weight_free (PDFium text and geometry, runs anywhere); docling: the standard pipeline or a clear failure")
    artifacts_path: str = Field(default="", description="Docling model folder (docling-tools models download -o DIR)")
    do_table_structure: bool = Field(default=True, description="docling route: TableFormer table structure")
    do_ocr: bool = Field(default=False, description="docling route: Docling's own OCR")
    ocr: Literal["auto", "always", "off"] = Field(default="auto", description="weight-free route: RapidOCR for "
                                                  "pages without readable text (auto), every page, or never")
    ocr_runtime: OcrRuntime = Field(
        default="auto", description="weight-free route: what OCR runs on (auto: OpenVINO where installed, "
        "else ONNX Runtime); in the fingerprint as the models it reads with (OpenVINO: the shipped int8 ones)")
    num_threads: int = Field(default=2, ge=0, description="threads for Docling's pipeline, or for OCR on the "
                             "weight-free route (0: every core)")

    def resolved_route(self) -> str:
        if self.route == "auto":
            return "docling" if docling_artifacts_available(self.artifacts_path or None) else "weight_free"
        return self.route

    def fingerprint(self) -> dict:
        route = self.resolved_route()
        if route == "weight_free":
            found = {"route": PARSER_VERSION, "ocr": self.ocr}
            if self.ocr != "off":  # the int8 models read differently from RapidOCR's float ones
                found["ocr_models"] = ocr_models_version(self.ocr_runtime)
            return found
        return {"route": "docling", "tables": self.do_table_structure, "ocr": self.do_ocr}

    def parse(self, path: Path, name: str | None = None, progress=None, ocr_progress=None):
        if self.resolved_route() == "docling":
            return parse_pdf_docling(
                path,
                artifacts_path=self.artifacts_path or None,
                do_table_structure=self.do_table_structure,
                do_ocr=self.do_ocr,
                num_threads=self.num_threads,
            )
        return parse_pdf_weight_free(path, name=name, progress=progress, ocr=self.ocr, ocr_progress=ocr_progress,
                                     ocr_runtime=self.ocr_runtime, ocr_threads=self.num_threads)
