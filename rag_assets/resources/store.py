"""The report store: data root, inbox folder, catalog of PDFs and per-partition file layout."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import dagster as dg

from rag_assets.core.catalog import Catalog, ReportSource
from rag_assets.core.chunking import ChunkingConfig
from rag_assets.core.llm_cache import LLMCache
from rag_assets.core.paths import ReportPaths, data_root


class ReportStore(dg.ConfigurableResource):
    """Files of the project: ``data_root`` (default ``$RAG_ASSETS_HOME`` or ``data/``) and the PDF inbox."""

    data_root: str = ""
    inbox: str = ""  # default: <data_root>/pdfs
    subset_csv: str = ""  # default: subset.csv beside the PDFs
    chunk_tokens: int = 300
    chunk_overlap: int = 50
    chunk_context: Literal["none", "deterministic", "llm"] = "none"  # deterministic: company, year, page, heading
    table_serialization: bool = False  # LLM statements per table, as chunks beneath their table
    questions: str = ""  # default: <data_root>/questions.json
    gold: str = ""  # gold answers in the challenge's format; default: <data_root>/answers_gold.json if present

    @property
    def root(self) -> Path:
        return Path(self.data_root).expanduser().resolve() if self.data_root else data_root()

    @property
    def inbox_dir(self) -> Path:
        return Path(self.inbox).expanduser().resolve() if self.inbox else self.root / "pdfs"

    @property
    def catalog_path(self) -> Path:
        return self.root / "catalog.json"

    def catalog(self) -> Catalog:
        return Catalog(self.catalog_path)

    def scan_inbox(self) -> list[ReportSource]:
        """Hash the inbox PDFs, update the catalog on disk and return what is there."""
        cat = self.catalog()
        self.inbox_dir.mkdir(parents=True, exist_ok=True)
        found = cat.scan(self.inbox_dir, Path(self.subset_csv) if self.subset_csv else None)
        cat.save()
        return found

    def source(self, sha1: str) -> ReportSource:
        return self.catalog().get(sha1)

    def paths(self, sha1: str) -> ReportPaths:
        return ReportPaths(self.root, sha1)

    @property
    def questions_path(self) -> Path:
        return Path(self.questions).expanduser().resolve() if self.questions else self.root / "questions.json"

    @property
    def gold_path(self) -> Path | None:
        path = Path(self.gold).expanduser().resolve() if self.gold else self.root / "answers_gold.json"
        return path if path.exists() else None

    def answers_dir(self, config: str) -> Path:
        return self.root / "answers" / config

    @property
    def answers_db(self) -> Path:
        return self.root / "answers.duckdb"

    def indexed_reports(self) -> dict[str, str]:
        """sha1 -> company name of every catalogued report that has chunks."""
        return {
            sha1: src.company_name
            for sha1, src in self.catalog().reports.items()
            if self.paths(sha1).chunks.exists()
        }

    def chunking(self) -> ChunkingConfig:
        return ChunkingConfig(max_tokens=self.chunk_tokens, overlap_tokens=self.chunk_overlap,
                              context=self.chunk_context, table_blocks=self.table_serialization)

    def llm_cache(self) -> LLMCache:
        """The cache of ingestion LLM results (table statements, chunk contexts) shared by all reports."""
        return LLMCache(self.root / "cache" / "llm_cache.sqlite")
