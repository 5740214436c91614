"""Retrieval over one report: vector (FAISS), BM25, hybrid by reciprocal rank fusion, and parent pages."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from rag_assets.index.bm25 import BM25Index
from rag_assets.index.embedding import Embedder
from rag_assets.storage.paths import ReportPaths
from rag_assets.storage.artifacts import read_chunks, read_pages
from rag_assets.index.vectors import VectorIndex


@dataclass
class ScoredChunk:
    chunk_id: str
    sha1: str
    page_index: int
    score: float
    sources: dict[str, int] = field(default_factory=dict)  # retriever -> 1-based rank


@dataclass
class RetrievedPage:
    sha1: str
    page_index: int
    score: float
    text: str
    chunk_ids: list[str]
    llm_score: float | None = None

    def to_dict(self) -> dict:
        return {"pdf_sha1": self.sha1, "page_index": self.page_index, "score": round(float(self.score), 6),
                "llm_score": self.llm_score, "chunk_ids": self.chunk_ids}


def rrf(rankings: dict[str, list[str]], k: int = 60) -> list[tuple[str, float, dict[str, int]]]:
    """Reciprocal rank fusion: score(d) = sum over rankings of 1 / (k + rank(d)), ranks from 1."""
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for name, ids in rankings.items():
        for rank, cid in enumerate(ids, 1):
            scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank)
            ranks.setdefault(cid, {})[name] = rank
    return [(cid, s, ranks[cid]) for cid, s in sorted(scores.items(), key=lambda x: (-x[1], x[0]))]


class ReportIndex:
    """The loaded chunks, pages, FAISS and BM25 indexes of one report partition."""

    def __init__(self, paths: ReportPaths, embedding_model: str | None = None):
        self.paths = paths
        self.sha1 = paths.sha1
        chunks = read_chunks(paths.chunks)
        self.chunk_page = dict(zip(chunks["chunk_id"], chunks["page_index"].astype(int)))
        self.pages = {p.page_index: p.text for p in read_pages(paths.pages)}
        self.bm25 = BM25Index.load(paths.bm25_dir)
        self.faiss_dir = paths.faiss_dir_for(embedding_model) if embedding_model else paths.faiss_dir
        self._vector: VectorIndex | None = None

    @property
    def vector(self) -> VectorIndex:
        if self._vector is None:
            if not (self.faiss_dir / "index.faiss").exists():
                raise FileNotFoundError(
                    f"no FAISS index at {self.faiss_dir}: materialize faiss_index for report {self.sha1} "
                    "with this configuration's embedder"
                )
            self._vector = VectorIndex.load(self.faiss_dir)
        return self._vector

    def versions(self) -> dict[str, float]:
        """Modification times of the files used: which data version answered."""
        out = {}
        for name, p in [("chunks", self.paths.chunks), ("bm25", self.paths.bm25_dir / "chunk_ids.json"),
                        ("faiss", self.faiss_dir / "meta.json")]:
            if Path(p).exists():
                out[name] = Path(p).stat().st_mtime
        return out


class ReportIndexError(RuntimeError):
    """A report's chunks or indexes cannot be loaded: its questions fail, the others go on."""


class Retriever:
    """Chunks and parent pages for a query, by ``mode`` in {vector, bm25, hybrid}."""

    def __init__(
        self,
        root: Path,
        embedder: Embedder | None,
        mode: str = "hybrid",
        vector_k: int = 30,
        bm25_k: int = 30,
        rrf_k: int = 60,
    ):
        if mode not in ("vector", "bm25", "hybrid"):
            raise ValueError(f"unknown retrieval mode {mode!r}")
        if mode != "bm25" and embedder is None:
            raise ValueError(f"retrieval mode {mode!r} needs an embedder")
        self.root = Path(root)
        self.embedder = embedder
        self.mode = mode
        self.vector_k = vector_k
        self.bm25_k = bm25_k
        self.rrf_k = rrf_k
        self._indexes: dict[str, ReportIndex] = {}
        self._lock = threading.Lock()

    def index(self, sha1: str) -> ReportIndex:
        """A report's loaded indexes, read once per Retriever (a new run sees files rebuilt since)."""
        with self._lock:
            if sha1 not in self._indexes:
                model = self.embedder.model_name if self.embedder is not None else None
                try:
                    self._indexes[sha1] = ReportIndex(ReportPaths(self.root, sha1), model)
                except (OSError, ValueError, KeyError) as exc:
                    raise ReportIndexError(
                        f"report {sha1[:12]}: its indexes cannot be read ({type(exc).__name__}: {exc}); run "
                        "`rag-assets doctor` to check every report, `rag-assets ingest` to rebuild"
                    ) from exc
            return self._indexes[sha1]

    def chunks(self, sha1: str, query: str) -> list[ScoredChunk]:
        ix = self.index(sha1)
        rankings: dict[str, list[str]] = {}
        raw_scores: dict[str, float] = {}
        if self.mode in ("vector", "hybrid"):
            q = self.embedder.embed([query])[0]
            hits = ix.vector.search(q, self.vector_k, self.embedder.model_name)
            rankings["vector"] = [cid for cid, _ in hits]
            raw_scores.update({cid: s for cid, s in hits})
        if self.mode in ("bm25", "hybrid"):
            hits = ix.bm25.search(query, self.bm25_k)
            rankings["bm25"] = [cid for cid, _ in hits]
            if self.mode == "bm25":
                raw_scores.update({cid: s for cid, s in hits})
        if self.mode == "hybrid":
            fused = rrf(rankings, self.rrf_k)
        else:
            only = next(iter(rankings.values()))
            fused = [(cid, raw_scores[cid], {self.mode: r}) for r, cid in enumerate(only, 1)]
        return [ScoredChunk(cid, sha1, ix.chunk_page[cid], float(s), ranks) for cid, s, ranks in fused]

    def pages(self, sha1: str, query: str, top_pages: int) -> tuple[list[RetrievedPage], list[ScoredChunk]]:
        """Parent pages of the best chunks, de-duplicated in rank order, each with its whole cleaned text."""
        ix = self.index(sha1)
        chunks = self.chunks(sha1, query)
        pages: dict[int, RetrievedPage] = {}
        for c in chunks:
            page = pages.get(c.page_index)
            if page is None:
                if len(pages) >= top_pages:
                    continue
                pages[c.page_index] = RetrievedPage(sha1, c.page_index, c.score, ix.pages.get(c.page_index, ""), [])
                page = pages[c.page_index]
            page.chunk_ids.append(c.chunk_id)
        return list(pages.values()), chunks


def merge_pages(per_report: list[list[RetrievedPage]], top: int) -> list[RetrievedPage]:
    """Pages of several reports of one company, best scores first."""
    allp = [p for pages in per_report for p in pages]
    return sorted(allp, key=lambda p: -p.score)[:top]
