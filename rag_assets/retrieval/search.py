"""Retrieval over one report: vector (FAISS) and BM25 over chunks, BM25 over whole pages, fused by reciprocal
rank fusion into a ranking of pages (or, with ``fusion="chunk"``, of chunks whose parent pages follow)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rag_assets.index.bm25 import PAGES_SUBDIR, BM25Index
from rag_assets.index.embedding import Embedder
from rag_assets.storage.manifest import changed_outputs, read_manifest
from rag_assets.storage.paths import ReportPaths
from rag_assets.storage.artifacts import read_chunks, read_pages
from rag_assets.index.vectors import VectorIndex
from rag_assets.retrieval.passages import page_lines, window_score
from rag_assets.retrieval.query import KeywordQuery, Lexicon, embedding_query, keyword_query


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

    READ = ("report_pages", "report_chunks", "faiss_index", "bm25_index")  # the stages whose files it reads

    def __init__(self, paths: ReportPaths, embedding_model: str | None = None):
        self.paths = paths
        self.sha1 = paths.sha1
        changed = changed_outputs(paths, {stage: paths.stage_outputs(stage) for stage in self.READ})
        if changed:
            raise ReportFilesChanged(f"report {paths.sha1[:12]}: the files of {', '.join(changed)} changed since they "
                                     "were written; run `rag-assets doctor --repair`")
        chunks = read_chunks(paths.chunks)
        self.chunk_page = dict(zip(chunks["chunk_id"], chunks["page_index"].astype(int)))
        self.pages = {p.page_index: p.text for p in read_pages(paths.pages)}
        self.bm25 = BM25Index.load(paths.bm25_dir)
        self.page_bm25 = BM25Index.load(paths.bm25_dir / PAGES_SUBDIR)
        self.faiss_dir = paths.faiss_dir_for(embedding_model) if embedding_model else paths.faiss_dir
        self._vector: VectorIndex | None = None
        self._typed: dict[str, list[int]] | None = None
        self._lines: dict[int, tuple[list[str], list[frozenset[str]]]] = {}
        self._derived: dict[str, object] = {}

    def lines(self, page_index: int) -> tuple[list[str], list[frozenset[str]]]:
        """A page's lines and their tokens, tokenized once per loaded report (the proximity ranking reads them
        for every question)."""
        if page_index not in self._lines:
            self._lines[page_index] = page_lines(self.pages.get(page_index, ""))
        return self._lines[page_index]

    def derived(self, name: str, compute: Callable[[dict[int, str]], object]):
        """What ``compute`` reads from the report's pages (the parts of the company it names, what its '$'
        means), computed once per loaded report under ``name``."""
        if name not in self._derived:
            self._derived[name] = compute(self.pages)
        return self._derived[name]

    def typed_pages(self, lexicon: Lexicon) -> dict[str, list[int]]:
        """Page type -> pages (typed once per loaded report)."""
        if self._typed is None:
            from rag_assets.retrieval.page_types import typed_pages

            self._typed = typed_pages(self.pages, lexicon)
        return self._typed

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

    VERSIONED = (("pages", "report_pages", "pages"), ("chunks", "report_chunks", "chunks"),
                 ("bm25", "bm25_index", "bm25_dir"), ("faiss", "faiss_index", "faiss_dir"))

    def versions(self) -> dict[str, str | float]:
        """Which data answered: the hash of each file set read (pages, chunks, both indexes) as its
        materialization recorded it in the manifest (checked against the files when the report was loaded), so
        a rebuild that writes the same bytes is the same version and its answers are reused; a file set with no
        record (a benchmark's) is known by its modification time."""
        manifest = read_manifest(self.paths)
        out: dict[str, str | float] = {}
        for name, stage, attr in self.VERSIONED:
            recorded = (manifest.get(stage) or {}).get("data_version")
            path = getattr(self.paths, attr)
            if recorded:
                out[name] = recorded
            elif Path(path).exists():
                out[name] = Path(path).stat().st_mtime
        return out


class ReportIndexError(RuntimeError):
    """A report's chunks or indexes cannot be loaded: its questions fail, the others go on."""


class ReportFilesChanged(ReportIndexError):
    """A report's files differ from what ingestion wrote (edited by hand, damaged): it is not answered from."""


class Retriever:
    """Pages (and their chunks) for a query. ``mode``: vector, bm25 or hybrid over chunks; ``page_bm25`` adds a
    BM25 ranking of whole pages (not in vector mode); ``fusion`` fuses the rankings by page (each ranking reduced
    to its pages in first-seen order) or by chunk (the old way: pages follow their best chunks). The keyword
    side drops template words and adds synonyms from ``lexicon`` (None: the question's words as they are)."""

    def __init__(
        self,
        root: Path,
        embedder: Embedder | None,
        mode: str = "hybrid",
        vector_k: int = 30,
        bm25_k: int = 30,
        rrf_k: int = 60,
        page_bm25: bool = True,
        fusion: str = "page",
        lexicon: Lexicon | None = None,
        page_type_prior: bool = False,
        proximity_pages: int = 0,
        proximity_chars: int = 400,
        embed_without_template: bool = True,
    ):
        if mode not in ("vector", "bm25", "hybrid"):
            raise ValueError(f"unknown retrieval mode {mode!r}")
        if fusion not in ("page", "chunk"):
            raise ValueError(f"unknown fusion {fusion!r}; use 'page' or 'chunk'")
        if mode != "bm25" and embedder is None:
            raise ValueError(f"retrieval mode {mode!r} needs an embedder")
        self.root = Path(root)
        self.embedder = embedder
        self.mode = mode
        self.vector_k = vector_k
        self.bm25_k = bm25_k
        self.rrf_k = rrf_k
        self.page_bm25 = page_bm25 and mode != "vector"
        self.fusion = fusion
        self.lexicon = lexicon
        self.page_type_prior = page_type_prior and lexicon is not None
        self.proximity_pages = proximity_pages if fusion == "page" else 0
        self.proximity_chars = proximity_chars
        self.embed_without_template = embed_without_template  # the lexicon's template phrases
        self._indexes: dict[str, ReportIndex] = {}
        self._lock = threading.Lock()

    def index(self, sha1: str) -> ReportIndex:
        """A report's loaded indexes, read once per Retriever (a new run sees files rebuilt since)."""
        with self._lock:
            if sha1 not in self._indexes:
                model = self.embedder.model_name if self.embedder is not None else None
                try:
                    self._indexes[sha1] = ReportIndex(ReportPaths(self.root, sha1), model)
                except ReportFilesChanged:
                    raise
                except (OSError, ValueError, KeyError) as exc:
                    raise ReportIndexError(
                        f"report {sha1[:12]}: its indexes cannot be read ({type(exc).__name__}: {exc}); run "
                        "`rag-assets doctor` to check every report, `rag-assets ingest` to rebuild"
                    ) from exc
            return self._indexes[sha1]

    def keywords(self, query: str) -> KeywordQuery:
        return keyword_query(query, self.lexicon)

    def chunk_rankings(self, sha1: str, query: str, kq: KeywordQuery) -> dict[str, list[tuple[str, float]]]:
        """(chunk id, score) best first, per chunk retriever of the mode (``kq``: the query's keywords)."""
        ix = self.index(sha1)
        out = {}
        if self.mode in ("vector", "hybrid"):
            q = self.embedder.embed([embedding_query(query, self.lexicon) if self.embed_without_template
                                     else query])[0]
            out["vector"] = ix.vector.search(q, self.vector_k, self.embedder.model_name)
        if self.mode in ("bm25", "hybrid"):
            out["bm25"] = ix.bm25.search(list(kq.tokens), self.bm25_k)
        return out

    def chunks(self, sha1: str, query: str) -> list[ScoredChunk]:
        """Chunks fused by RRF (one ranking: its own scores), best first."""
        return self._fuse_chunks(sha1, self.chunk_rankings(sha1, query, self.keywords(query)))

    def _fuse_chunks(self, sha1: str, rankings: dict[str, list[tuple[str, float]]]) -> list[ScoredChunk]:
        ix = self.index(sha1)
        if len(rankings) == 1:
            (name, hits), = rankings.items()
            return [ScoredChunk(cid, sha1, ix.chunk_page[cid], float(s), {name: r}) for r, (cid, s) in
                    enumerate(hits, 1)]
        fused = rrf({name: [cid for cid, _ in hits] for name, hits in rankings.items()}, self.rrf_k)
        return [ScoredChunk(cid, sha1, ix.chunk_page[cid], float(s), ranks) for cid, s, ranks in fused]

    def page_rankings(self, sha1: str, kq: KeywordQuery, rankings: dict) -> dict[str, list[str]]:
        """Page indexes (as text) best first, per retriever: chunk rankings reduced to their pages, and the
        page BM25 ranking."""
        ix = self.index(sha1)
        out = {}
        for name, hits in rankings.items():
            seen: dict[str, None] = {}
            for cid, _ in hits:
                seen.setdefault(str(ix.chunk_page[cid]), None)
            out[name] = list(seen)
        if self.page_bm25:
            out["page_bm25"] = [pid for pid, _ in ix.page_bm25.search(list(kq.tokens), self.bm25_k)]
        if self.page_type_prior and kq.page_types:
            typed = ix.typed_pages(self.lexicon)
            wanted = {str(p) for name in kq.page_types for p in typed.get(name, [])}
            order = out.get("page_bm25", []) + [str(p) for p in sorted(ix.pages)]
            out["page_type"] = list(dict.fromkeys(p for p in order if p in wanted))
        return out

    def with_proximity(self, ix: ReportIndex, kq: KeywordQuery, ranked: list[tuple[int, float]]
                       ) -> list[tuple[int, float]]:
        """``ranked`` fused again (RRF) with the order of its first ``proximity_pages`` pages by how much of the
        query their best ``proximity_chars`` window holds: a page that prints the question's words side by side
        (a table row, a sentence) moves up past pages that only mention them apart."""
        head = [pid for pid, _ in ranked[: self.proximity_pages]]
        score = {pid: window_score(ix.lines(pid), kq.own, kq.added, self.proximity_chars) for pid in head}
        by_window = sorted(head, key=lambda pid: -score[pid])  # stable: ties keep the fused order
        fused = rrf({"fused": [str(pid) for pid, _ in ranked], "proximity": [str(pid) for pid in by_window]},
                    self.rrf_k)
        return [(int(pid), s) for pid, s, _ in fused]

    def pages(self, sha1: str, query: str, top_pages: int) -> tuple[list[RetrievedPage], list[ScoredChunk]]:
        """The best ``top_pages`` pages, each with its whole cleaned text and its retrieved chunks."""
        ix = self.index(sha1)
        kq = self.keywords(query)
        rankings = self.chunk_rankings(sha1, query, kq)
        chunks = self._fuse_chunks(sha1, rankings)
        if self.fusion == "page":
            ranked = [(int(pid), score) for pid, score, _ in
                      rrf(self.page_rankings(sha1, kq, rankings), self.rrf_k)]
            if self.proximity_pages:
                ranked = self.with_proximity(ix, kq, ranked)
        else:
            first: dict[int, float] = {}
            for c in chunks:
                first.setdefault(c.page_index, c.score)
            ranked = list(first.items())
        pages = {pi: RetrievedPage(sha1, pi, score, ix.pages.get(pi, ""), []) for pi, score in ranked[:top_pages]}
        for c in chunks:
            if c.page_index in pages:
                pages[c.page_index].chunk_ids.append(c.chunk_id)
        return list(pages.values()), chunks


def merge_pages(per_report: list[list[RetrievedPage]], top: int) -> list[RetrievedPage]:
    """Pages of several reports of one company, best scores first."""
    allp = [p for pages in per_report for p in pages]
    return sorted(allp, key=lambda p: -p.score)[:top]
