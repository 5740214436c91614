"""The report store: data root, inbox folder, catalog of PDFs and per-partition file layout."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from pydantic import Field

from rag_assets.answer.routing.filings import from_row
from rag_assets.answer.service.service import Library
from rag_assets.storage.catalog import Catalog, ReportSource
from rag_assets.ingest.chunking import ChunkingConfig
from rag_assets.llm.cache import LLMCache
from rag_assets.settings import ChunkContext
from rag_assets.storage.paths import ReportPaths, data_root


class ReportStore(dg.ConfigurableResource):
    """The project's files: the data root, the PDF inbox and its catalog, and the chunking settings."""

    data_root: str = Field(default="", description="where reports, indexes and answers live (default "
                           "$RAG_ASSETS_HOME, else data/ of the checkout); must be shared by every run worker")
    inbox: str = Field(default="", description="folder the sensor watches for PDFs (default <data_root>/pdfs)")
    subset_csv: str = Field(default="", description="CSV with sha1,company_name (default subset.csv beside the PDFs)")
    chunk_tokens: int = Field(default=300, description="chunk size in MiniLM tokens")
    chunk_overlap: int = Field(default=50, description="tokens shared by consecutive chunks of a page")
    chunk_context: ChunkContext = Field(
        default="none", description="context indexed with each chunk: deterministic (company, year, page, heading) "
        "or llm (that plus a line by the ingestion LLM)")
    table_serialization: bool = Field(default=False, description="LLM statements per table, indexed beneath it")
    questions: str = Field(default="", description="questions file (default <data_root>/questions.json)")
    gold: str = Field(default="", description="gold answers in the challenge's format (default "
                      "<data_root>/answers_gold.json if present)")

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

    def source(self, partition: str) -> ReportSource:
        """The report of a partition key (or of a SHA-1)."""
        cat = self.catalog()
        return cat.get(cat.sha1_of(partition))

    def partition_paths(self, partition: str) -> ReportPaths:
        """The files of a partition key's report (its data lives under its SHA-1)."""
        return self.paths(self.catalog().sha1_of(partition))

    def paths(self, sha1: str) -> ReportPaths:
        return ReportPaths(self.root, sha1)

    @property
    def questions_path(self) -> Path:
        return Path(self.questions).expanduser().resolve() if self.questions else self.root / "questions.json"

    @property
    def gold_path(self) -> Path | None:
        path = Path(self.gold).expanduser().resolve() if self.gold else self.root / "answers_gold.json"
        return path if path.exists() else None

    def all_reports(self) -> dict[str, str]:
        """sha1 -> company name of every catalogued report."""
        return {sha1: src.company_name for sha1, src in self.catalog().reports.items()}

    def pdf_paths(self) -> dict[str, Path]:
        """sha1 -> PDF of every catalogued report."""
        return {sha1: Path(src.path) for sha1, src in self.catalog().reports.items()}

    def partition_keys(self) -> dict[str, str]:
        """sha1 -> partition key of every catalogued report."""
        return {sha1: src.partition for sha1, src in self.catalog().reports.items()}

    def company_of_partition(self, key: str) -> str:
        """The company of a report partition, by its key (or its SHA-1); empty when the catalog has none."""
        for sha1, src in self.catalog().reports.items():
            if key in (src.partition, sha1):
                return src.company_name
        return ""

    def indexed_reports(self) -> dict[str, str]:
        """sha1 -> company name of every current catalogued report (not superseded) that has chunks."""
        return {
            sha1: src.company_name
            for sha1, src in self.catalog().current().items()
            if self.paths(sha1).chunks.exists()
        }

    def filings(self, reports: dict[str, str]) -> dict:
        """sha1 -> ``answer.filings.Filing`` of ``reports``, as subset.csv describes them (the answerer completes
        them from each report's cover)."""
        cat = self.catalog().reports
        return {sha1: from_row(sha1, name, cat[sha1].filing_row() if sha1 in cat else {})
                for sha1, name in reports.items()}

    def library(self) -> Library:
        """The current indexed reports, as the answering service takes them."""
        reports = self.indexed_reports()
        return Library(self.root, reports, self.filings(reports))

    def chunking(self) -> ChunkingConfig:
        return ChunkingConfig(max_tokens=self.chunk_tokens, overlap_tokens=self.chunk_overlap,
                              context=self.chunk_context, table_blocks=self.table_serialization)

    def llm_cache(self) -> LLMCache:
        """The cache of ingestion LLM results (table statements, chunk contexts) shared by all reports."""
        return LLMCache(self.root / "cache" / "llm_cache.sqlite")
