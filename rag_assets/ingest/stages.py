"""The ingestion of one report, stage by stage: each stage reads its input files, writes its output atomically
and returns metadata. ``STAGES`` is the one list of stages and their order; ``ingest_partition`` runs them.
The Dagster assets (one asset per stage), the CLI (through the Dagster job) and the benchmarks all go
through here."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from rag_assets.index.bm25 import PAGES_SUBDIR, TOKENIZER_VERSION, BM25Index
from rag_assets.index.embedding import Embedder, embedding_text
from rag_assets.index.vectors import VectorIndex
from rag_assets.ingest.chunking import CHUNKER_VERSION, ChunkingConfig, chunk_pages
from rag_assets.ingest.cleaning import CLEANER_VERSION, document_pages
from rag_assets.storage import artifacts as art
from rag_assets.storage.atomic import atomic_dir, recover_leftovers, remove_index
from rag_assets.storage.catalog import check_source
from rag_assets.storage.paths import ReportPaths

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]


def fingerprint(obj) -> str:
    """A short stable hash of a configuration (dicts, dataclasses, strings)."""
    if hasattr(obj, "__dataclass_fields__"):
        obj = asdict(obj)
    return hashlib.sha1(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class IngestSettings:
    """Everything besides the code that decides what ingestion writes. Each stage's code version is its logic
    version plus the fingerprint of the settings it reads (``stage_code_versions``)."""

    chunking: ChunkingConfig = field(default_factory=ChunkingConfig)
    parser: dict = field(default_factory=dict)  # the parser's fingerprint (route, OCR policy)
    embedder: dict = field(default_factory=dict)  # the embedder's fingerprint (provider, model)
    ingest_llm: dict = field(default_factory=dict)  # the ingestion LLM's fingerprint (route, model)

    @property
    def table_serialization(self) -> bool:
        return self.chunking.table_blocks

    @property
    def llm_context(self) -> bool:
        return self.chunking.context == "llm"


@dataclass
class StageInputs:
    """What the stages of one partition may use. Expensive things (parser, embedder, LLM) are callables, called
    only by the stages that need them."""

    paths: ReportPaths
    company: str
    pdf: Path
    settings: IngestSettings
    parse: Callable = None  # (pdf, company, progress, ocr_progress) -> (DoclingDocument, ParseStats)
    embedder: Callable[[], Embedder] = None
    llm: Callable[[], object] = None  # the ingestion LLM client
    llm_cache: Callable[[], object] = None  # an LLMCache (closed by the stage)
    progress: Callable[[str], Progress] = lambda what: None  # noqa: E731


# -- the stages --------------------------------------------------------------------------------------


def parse_stage(x: StageInputs) -> dict:
    check_source(x.paths.sha1, Path(x.pdf))  # the partition key is the hash of the bytes parsed
    doc, stats = x.parse(x.pdf, x.company, x.progress(f"{x.company}: parsed pages"),
                         x.progress(f"{x.company}: OCR pages"))
    meta = stats.as_metadata()
    meta["bytes"] = art.save_parsed(doc, x.paths)
    return meta


def clean_stage(x: StageInputs) -> dict:
    t0 = time.perf_counter()
    pages = document_pages(art.load_parsed(x.paths))
    art.write_pages(pages, x.paths.pages)
    return {
        "pages": len(pages),
        "empty_pages": sum(1 for p in pages if not p.text.strip()),
        "tables": sum(p.n_tables for p in pages),
        "removed_header_footer_blocks": sum(p.n_removed for p in pages),
        "chars": sum(len(p.text) for p in pages),
        "seconds": round(time.perf_counter() - t0, 3),
        "bytes": x.paths.pages.stat().st_size,
    }


def _with_llm(x: StageInputs, enabled: bool, run: Callable[[object, object], tuple[list[dict], dict]]) -> tuple:
    """Rows and metadata of an optional LLM stage (off: no rows); the cache is closed whatever happens."""
    if not enabled:
        return [], {"enabled": False}
    cache = x.llm_cache() if x.llm_cache else None
    try:
        rows, meta = run(x.llm(), cache)
    finally:
        if cache is not None:
            cache.close()
    return rows, {"enabled": True, **meta}


def table_stage(x: StageInputs) -> dict:
    """LLM statements per table part (off: an empty table)."""
    from rag_assets.ingest.table_serialization import document_tables, serialize_tables

    def run(llm, cache):
        tables = document_tables(art.load_parsed(x.paths))
        blocks, cost = serialize_tables(tables, llm, cache, x.company, progress=x.progress(f"{x.company}: tables"))
        rows = [asdict(b) for b in blocks]
        return rows, {"tables": len({t.table_id for t in tables}), "table_parts": len(tables),
                      "tables_serialized": len({r["table_id"] for r in rows}), **cost.as_metadata()}

    t0 = time.perf_counter()
    rows, meta = _with_llm(x, x.settings.table_serialization, run)
    art.write_parquet(rows, art.TABLES_SCHEMA, x.paths.tables)
    return {**meta, "blocks": len(rows), "seconds": round(time.perf_counter() - t0, 3)}


def chunk_stage(x: StageInputs) -> dict:
    t0 = time.perf_counter()
    cfg = x.settings.chunking
    blocks = None
    if cfg.table_blocks:
        from rag_assets.ingest.table_serialization import blocks_by_table

        blocks = blocks_by_table(art.read_table_blocks(x.paths.tables))
    chunks = chunk_pages(art.read_pages(x.paths.pages), x.paths.sha1, cfg, x.company, blocks)
    art.write_chunks([c.to_dict() for c in chunks], x.paths.chunks)
    n_tok = [c.n_tokens for c in chunks]
    return {
        "chunks": len(chunks),
        "table_chunks": sum(1 for c in chunks if c.kind == "table"),
        "table_block_chunks": sum(1 for c in chunks if c.kind == "table_blocks"),
        "pages_with_chunks": len({c.page_index for c in chunks}),
        "mean_tokens": round(sum(n_tok) / len(n_tok), 1) if n_tok else 0,
        "max_tokens": max(n_tok) if n_tok else 0,
        "seconds": round(time.perf_counter() - t0, 3),
        "bytes": x.paths.chunks.stat().st_size,
    }


def context_stage(x: StageInputs) -> dict:
    """An LLM-written context line per chunk (off: an empty table)."""
    from rag_assets.ingest.chunk_context import llm_chunk_contexts

    def run(llm, cache):
        df = art.read_chunks(x.paths.chunks)
        items = list(zip(df["chunk_id"], df["page_index"].astype(int), df["text"]))
        contexts, cost = llm_chunk_contexts(items, art.read_pages(x.paths.pages), x.company, llm, cache,
                                            progress=x.progress(f"{x.company}: chunk contexts"))
        words = [len(c.split()) for c in contexts.values()]
        rows = [{"chunk_id": k, "context": v} for k, v in contexts.items()]
        return rows, {"chunks": len(items), "mean_words": round(sum(words) / len(words), 1) if words else 0,
                      **cost.as_metadata()}

    t0 = time.perf_counter()
    rows, meta = _with_llm(x, x.settings.llm_context, run)
    art.write_parquet(rows, art.CONTEXTS_SCHEMA, x.paths.chunk_contexts)
    return {**meta, "contexts": len(rows), "seconds": round(time.perf_counter() - t0, 3)}


def faiss_stage(x: StageInputs, step: int = 256) -> dict:
    t0 = time.perf_counter()
    embedder = x.embedder()
    df, texts = art.chunks_for_indexing(x.paths)
    texts = [embedding_text(t) for t in texts]
    progress = x.progress(f"{x.company}: embedded chunks")
    parts = []
    for b in range(0, len(texts), step):
        parts.append(embedder.embed(texts[b : b + step]))
        if progress:
            progress(min(b + step, len(texts)), len(texts))
    vecs = np.concatenate(parts) if parts else np.zeros((0, embedder.dim), dtype=np.float32)
    index = VectorIndex.build(vecs, df["chunk_id"].tolist(), embedder.model_name)
    target = x.paths.faiss_dir_for(embedder.model_name)
    index.save(target)
    _drop_stale_model_indexes(x.paths.faiss_dir, target, index.chunk_ids)
    dt = time.perf_counter() - t0
    return {
        "vectors": index.ntotal,
        "dim": index.dim,
        "model": embedder.model_name,
        "seconds": round(dt, 3),
        "chunks_per_second": round(index.ntotal / dt, 1) if dt else None,
        "bytes": sum(p.stat().st_size for p in target.iterdir()),
    }


def _drop_stale_model_indexes(faiss_dir: Path, current: Path, chunk_ids: list[str]) -> None:
    """Indexes of other embedding models built from other chunks no longer match the report: removed."""
    for folder in faiss_dir.iterdir():
        if folder.name.startswith(".") or folder.name == current.name:
            continue
        try:
            same = VectorIndex.load(folder).chunk_ids == chunk_ids
        except Exception:  # unreadable: as stale as a mismatch
            same = False
        if not same:
            log.info("removing %s: built from other chunks", folder)
            remove_index(folder)


def bm25_stage(x: StageInputs) -> dict:
    """A BM25 index over the chunks and one over whole cleaned pages (in ``pages/``), swapped in together."""
    t0 = time.perf_counter()
    df, texts = art.chunks_for_indexing(x.paths)
    index = BM25Index.build(texts, df["chunk_id"].tolist())
    pages = art.read_pages(x.paths.pages)
    page_index = BM25Index.build([p.text for p in pages], [str(p.page_index) for p in pages])
    with atomic_dir(x.paths.bm25_dir) as tmp:
        index.write(tmp)
        page_index.write(tmp / PAGES_SUBDIR)
    return {
        "documents": index.n_docs,
        "pages": page_index.n_docs,
        "vocabulary": len(index.model.vocab_dict),
        "seconds": round(time.perf_counter() - t0, 3),
        "bytes": sum(p.stat().st_size for p in x.paths.bm25_dir.rglob("*") if p.is_file()),
    }


# -- the table of stages ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stage:
    """One ingestion stage: its asset name, function, inputs, logic version and the settings it reads."""

    name: str
    run: Callable[[StageInputs], dict]
    deps: tuple[str, ...]
    version: str
    settings: Callable[[IngestSettings], object]  # the part of the settings that changes its output
    outputs: Callable[[ReportPaths], list[Path]]  # the files it writes


def _llm_settings(enabled: bool, s: IngestSettings, prompt: str):
    from rag_assets.llm.prompts import load_prompt

    return {"llm": s.ingest_llm, "prompt": load_prompt(prompt).version} if enabled else "off"


STAGES: dict[str, Stage] = {s.name: s for s in [
    Stage("parsed_report", parse_stage, (), "1", lambda s: s.parser, lambda p: p.stage_outputs("parsed_report")),
    Stage("report_pages", clean_stage, ("parsed_report",), CLEANER_VERSION, lambda s: None, lambda p: p.stage_outputs("report_pages")),
    Stage("serialized_tables", table_stage, ("parsed_report",), "tables-1",
          lambda s: _llm_settings(s.table_serialization, s, "table_serialization"), lambda p: p.stage_outputs("serialized_tables")),
    Stage("report_chunks", chunk_stage, ("report_pages", "serialized_tables"), CHUNKER_VERSION,
          lambda s: s.chunking, lambda p: p.stage_outputs("report_chunks")),
    Stage("chunk_contexts", context_stage, ("report_chunks",), "ctx-1",
          lambda s: _llm_settings(s.llm_context, s, "chunk_context"), lambda p: p.stage_outputs("chunk_contexts")),
    Stage("faiss_index", faiss_stage, ("report_chunks", "chunk_contexts"), "faiss-flatip-2",
          lambda s: s.embedder, lambda p: p.stage_outputs("faiss_index")),
    Stage("bm25_index", bm25_stage, ("report_pages", "report_chunks", "chunk_contexts"), TOKENIZER_VERSION,
          lambda s: None,
          lambda p: p.stage_outputs("bm25_index")),
]}


def stage_code_versions(settings: IngestSettings) -> dict[str, str]:
    """Each stage's code version: its logic version and the fingerprint of the settings it reads. Dagster
    compares these with the versions that made each partition; a difference marks the asset stale, and its
    downstream assets with it."""
    return {name: f"{st.version}-{fingerprint(st.settings(settings))}" for name, st in STAGES.items()}


def run_stage(stage: Stage, x: StageInputs) -> dict:
    """Run one stage of a partition, after clearing what killed writers left in its folder."""
    for line in recover_leftovers(x.paths.dir):
        log.warning("%s: %s", x.company, line)
    return stage.run(x)


def ingest_partition(x: StageInputs, stages: list[str] | None = None,
                     on_stage: Callable[[str, dict], None] | None = None) -> dict[str, dict]:
    """Run ``stages`` (default: all) of one partition in the table's order; returns each stage's metadata."""
    wanted = list(STAGES) if stages is None else [s for s in STAGES if s in set(stages)]
    unknown = set(stages or []) - set(STAGES)
    if unknown:
        raise ValueError(f"unknown stage(s) {sorted(unknown)}; stages are {list(STAGES)}")
    out = {}
    for name in wanted:
        out[name] = run_stage(STAGES[name], x)
        if on_stage:
            on_stage(name, out[name])
    return out


def downstream_of(names) -> list[str]:
    """``names`` and every stage that reads them, directly or not, in stage order (from the table's deps)."""
    out = set(names)
    for name, st in STAGES.items():
        if out & set(st.deps):
            out.add(name)
    return [n for n in STAGES if n in out]
