"""Where the project keeps its data: ``RAG_ASSETS_HOME`` or the checkout's ``data/``; files shipped inside
the package (prompts, lexicon, the instance template) are read through ``importlib.resources``."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from rag_assets.settings import read_settings

PROJECT_ROOT = Path(__file__).resolve().parents[2]  # the checkout (site-packages for an installed wheel)


def in_checkout() -> bool:
    """Whether the package runs from a source checkout (an editable install), not from an installed wheel."""
    return (PROJECT_ROOT / "pyproject.toml").exists() and (PROJECT_ROOT / "rag_assets").is_dir()


def package_file(*parts: str) -> Path:
    """A file shipped inside the ``rag_assets`` package (package data in a wheel)."""
    return Path(str(files("rag_assets").joinpath(*parts)))


def data_root() -> Path:
    """The data root: ``$RAG_ASSETS_HOME`` if set, else ``data/`` of the checkout (or of the cwd)."""
    home = read_settings().home
    if home:
        return home.expanduser().resolve()
    return PROJECT_ROOT / "data" if in_checkout() else Path.cwd() / "data"


def models_dir() -> Path:
    """Where assembled models live: ``$RAG_ASSETS_MODELS`` or ~/.cache/rag_assets/models (shared by checkouts)."""
    models = read_settings().models
    return models.expanduser() if models else Path.home() / ".cache" / "rag_assets" / "models"


def _dev_set(configured: Path | None, name: str) -> Path:
    return (configured or PROJECT_ROOT.parent / "shared" / name).expanduser().resolve()


def erc_dir() -> Path:
    """The ERC2 development set (``$RAG_ASSETS_ERC_DIR`` or ``../shared/erc`` beside the checkout)."""
    return _dev_set(read_settings().erc_dir, "erc")


def financebench_dir() -> Path:
    """The FinanceBench development set (``$RAG_ASSETS_FINANCEBENCH_DIR`` or ``../shared/financebench``)."""
    return _dev_set(read_settings().financebench_dir, "financebench")


@dataclass(frozen=True)
class ReportPaths:
    """File layout of one report partition under ``<root>/reports/<sha1>/``."""

    root: Path
    sha1: str

    @property
    def dir(self) -> Path:
        return self.root / "reports" / self.sha1

    @property
    def parsed(self) -> Path:
        return self.dir / "parsed.docling.json"

    @property
    def pages(self) -> Path:
        return self.dir / "pages.parquet"

    @property
    def tables(self) -> Path:
        """LLM-serialized table statements (empty when table serialization is off)."""
        return self.dir / "tables.parquet"

    @property
    def chunks(self) -> Path:
        return self.dir / "chunks.parquet"

    @property
    def chunk_contexts(self) -> Path:
        """LLM-written chunk contexts (empty unless the chunk context is "llm")."""
        return self.dir / "chunk_contexts.parquet"

    @property
    def faiss_dir(self) -> Path:
        return self.dir / "faiss"

    def faiss_dir_for(self, model_name: str) -> Path:
        """The FAISS index built with one embedding model (several can coexist)."""
        return self.dir / "faiss" / model_slug(model_name)

    @property
    def bm25_dir(self) -> Path:
        return self.dir / "bm25"

    @property
    def manifest(self) -> Path:
        return self.dir / "manifest.json"

    def stage_outputs(self, stage: str) -> list[Path]:
        """The files an ingestion stage writes (what its manifest entry hashes)."""
        return {"parsed_report": [self.parsed], "report_pages": [self.pages], "serialized_tables": [self.tables],
                "report_chunks": [self.chunks], "chunk_contexts": [self.chunk_contexts],
                "faiss_index": [self.faiss_dir], "bm25_index": [self.bm25_dir]}[stage]


def model_slug(model_name: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "-", model_name).strip("-") or "default"

