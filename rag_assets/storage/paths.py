"""Where the project keeps its data: ``RAG_ASSETS_HOME`` or the repo's ``data/``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ERC_ENV = "RAG_ASSETS_ERC_DIR"


def data_root() -> Path:
    """The data root: ``$RAG_ASSETS_HOME`` if set, else ``data/`` of the checkout (or of the cwd)."""
    env = os.environ.get("RAG_ASSETS_HOME")
    if env:
        return Path(env).expanduser().resolve()
    if (PROJECT_ROOT / "pyproject.toml").exists():
        return PROJECT_ROOT / "data"
    return Path.cwd() / "data"


def models_dir() -> Path:
    """Where assembled models live: ``$RAG_ASSETS_MODELS`` or ~/.cache/rag_assets/models (shared by checkouts)."""
    env = os.environ.get("RAG_ASSETS_MODELS")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "rag_assets" / "models"


def erc_dir() -> Path:
    """The ERC2 development set (``$RAG_ASSETS_ERC_DIR`` or ``../shared/erc`` beside the checkout)."""
    env = os.environ.get(ERC_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return (PROJECT_ROOT.parent / "shared" / "erc").resolve()


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


def model_slug(model_name: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "-", model_name).strip("-") or "default"

