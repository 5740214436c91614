"""PDF parser resource: the full Docling pipeline where its weights exist, else the weight-free route."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import dagster as dg

from rag_assets.core.parsing import (
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

    route: Literal["auto", "weight_free", "docling"] = "auto"
    artifacts_path: str = ""  # Docling model folder (docling-tools models download -o DIR)
    do_table_structure: bool = True
    do_ocr: bool = False  # docling route: Docling's own OCR
    ocr: Literal["auto", "always", "off"] = "auto"  # weight-free route: RapidOCR for unreadable pages
    num_threads: int = 2

    def resolved_route(self) -> str:
        if self.route == "auto":
            return "docling" if docling_artifacts_available(self.artifacts_path or None) else "weight_free"
        return self.route

    def fingerprint(self) -> dict:
        route = self.resolved_route()
        if route == "weight_free":
            return {"route": PARSER_VERSION, "ocr": self.ocr}
        return {"route": "docling", "tables": self.do_table_structure, "ocr": self.do_ocr}

    def parse(self, path: Path, name: str | None = None, progress=None):
        if self.resolved_route() == "docling":
            return parse_pdf_docling(
                path,
                artifacts_path=self.artifacts_path or None,
                do_table_structure=self.do_table_structure,
                do_ocr=self.do_ocr,
                num_threads=self.num_threads,
            )
        return parse_pdf_weight_free(path, name=name, progress=progress, ocr=self.ocr)
