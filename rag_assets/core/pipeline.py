"""The ingestion stages of one report as plain functions: each reads its input file(s), writes its output
atomically and returns metadata. The Dagster assets and the benchmark both call these."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Callable

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from docling_core.types.doc import DoclingDocument

from rag_assets.core.atomic import atomic_path, read_json, write_json, write_text
from rag_assets.core.bm25_index import TOKENIZER_VERSION, BM25Index
from rag_assets.core.chunking import CHUNKER_VERSION, Chunk, ChunkingConfig, chunk_pages, index_text
from rag_assets.core.cleaning import CLEANER_VERSION, PageText, document_pages
from rag_assets.core.embedding import Embedder, embedding_text
from rag_assets.core.parsing import ParseStats
from rag_assets.core.paths import ReportPaths
from rag_assets.core.vector_index import VectorIndex

PAGES_SCHEMA = pa.schema(
    [("page_index", pa.int32()), ("text", pa.string()), ("n_tables", pa.int32()), ("n_removed", pa.int32())]
)
TABLES_SCHEMA = pa.schema(
    [
        ("table_id", pa.string()),
        ("page_index", pa.int32()),
        ("ordinal", pa.int32()),
        ("part", pa.int32()),
        ("block_index", pa.int32()),
        ("subject_core_entity", pa.string()),
        ("information_block", pa.string()),
    ]
)
CONTEXTS_SCHEMA = pa.schema([("chunk_id", pa.string()), ("context", pa.string())])
CHUNKS_SCHEMA = pa.schema(
    [
        ("chunk_id", pa.string()),
        ("report_sha1", pa.string()),
        ("page_index", pa.int32()),
        ("chunk_index", pa.int32()),
        ("text", pa.string()),
        ("n_tokens", pa.int32()),
        ("kind", pa.string()),
        ("context", pa.string()),
    ]
)

# Versions of each stage's logic: part of the manifest, so a change marks partitions stale.
STAGE_VERSIONS = {
    "parsed_report": "1",
    "report_pages": CLEANER_VERSION,
    "serialized_tables": "tables-1",
    "report_chunks": CHUNKER_VERSION,
    "chunk_contexts": "ctx-1",
    "faiss_index": "faiss-flatip-2",
    "bm25_index": TOKENIZER_VERSION,
}


def fingerprint(obj) -> str:
    """A short stable hash of a configuration (dicts, dataclasses, strings)."""
    if hasattr(obj, "__dataclass_fields__"):
        obj = asdict(obj)
    return hashlib.sha1(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:12]


def record_stage(paths: ReportPaths, stage: str, config_fp: str, extra: dict | None = None) -> None:
    """Note in the partition's manifest which version and config produced a stage's output."""
    manifest = read_json(paths.manifest, default={}) or {}
    manifest[stage] = {
        "version": STAGE_VERSIONS.get(stage, "1"),
        "config": config_fp,
        "at": time.time(),
        **(extra or {}),
    }
    write_json(paths.manifest, manifest)


def stale_stages(paths: ReportPaths, expected: dict[str, str]) -> list[str]:
    """Stages whose recorded (version, config) differ from ``expected`` {stage: config_fp} or are missing."""
    manifest = read_json(paths.manifest, default={}) or {}
    out = []
    for stage, cfg in expected.items():
        rec = manifest.get(stage)
        if not rec or rec.get("version") != STAGE_VERSIONS.get(stage, "1") or rec.get("config") != cfg:
            out.append(stage)
    return out


# -- stage 1: parse ---------------------------------------------------------------------------------


def save_parsed(doc: DoclingDocument, stats: ParseStats, paths: ReportPaths) -> dict:
    write_text(paths.parsed, doc.model_dump_json())
    meta = stats.as_metadata()
    meta["bytes"] = paths.parsed.stat().st_size
    return meta


def load_parsed(paths: ReportPaths) -> DoclingDocument:
    if not paths.parsed.exists():
        raise FileNotFoundError(f"{paths.parsed} is missing: materialize parsed_report for {paths.sha1} first")
    return DoclingDocument.model_validate_json(paths.parsed.read_bytes())


# -- stage 2: clean pages ---------------------------------------------------------------------------


def write_pages(pages: list[PageText], target: Path) -> None:
    table = pa.Table.from_pylist([asdict(p) for p in pages], schema=PAGES_SCHEMA)
    with atomic_path(target) as tmp:
        pq.write_table(table, tmp)


def read_pages(path: Path) -> list[PageText]:
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: materialize report_pages first")
    return [PageText(**row) for row in pq.read_table(path).to_pylist()]


def clean_stage(paths: ReportPaths) -> dict:
    t0 = time.perf_counter()
    pages = document_pages(load_parsed(paths))
    write_pages(pages, paths.pages)
    dt = time.perf_counter() - t0
    return {
        "pages": len(pages),
        "empty_pages": sum(1 for p in pages if not p.text.strip()),
        "tables": sum(p.n_tables for p in pages),
        "removed_header_footer_blocks": sum(p.n_removed for p in pages),
        "chars": sum(len(p.text) for p in pages),
        "seconds": round(dt, 3),
        "bytes": paths.pages.stat().st_size,
    }


# -- stage 3: chunks --------------------------------------------------------------------------------


def write_chunks(chunks: list[Chunk], target: Path) -> None:
    table = pa.Table.from_pylist([c.to_dict() for c in chunks], schema=CHUNKS_SCHEMA)
    with atomic_path(target) as tmp:
        pq.write_table(table, tmp)


def read_chunks(path: Path) -> pd.DataFrame:
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: materialize report_chunks first")
    df = pq.read_table(path).to_pandas()
    if "context" not in df.columns:  # written before chunk contexts existed
        df["context"] = ""
    return df


def indexed_texts(df: pd.DataFrame, llm_contexts: dict[str, str] | None = None) -> list[str]:
    """The text each chunk is indexed by: its context (deterministic, then the LLM's), then its text."""
    llm_contexts = llm_contexts or {}
    out = []
    for cid, text, ctx in zip(df["chunk_id"], df["text"], df["context"].fillna("")):
        extra = llm_contexts.get(cid, "")
        out.append(index_text(text, f"{ctx}\n{extra}".strip() if extra else ctx))
    return out


def read_llm_contexts(path: Path) -> dict[str, str]:
    """chunk_id -> LLM-written context ({} when the stage is off or was never run)."""
    if not Path(path).exists():
        return {}
    t = pq.read_table(path)
    return dict(zip(t.column("chunk_id").to_pylist(), t.column("context").to_pylist()))


def chunks_for_indexing(paths: ReportPaths) -> tuple[pd.DataFrame, list[str]]:
    """The chunks table and the texts the FAISS and BM25 indexes are built from."""
    df = read_chunks(paths.chunks)
    return df, indexed_texts(df, read_llm_contexts(paths.chunk_contexts))


# -- optional LLM stages: table serialization, chunk contexts ---------------------------------------------


def read_table_blocks(path: Path) -> list[dict]:
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: materialize serialized_tables first")
    return pq.read_table(path).to_pylist()


def table_stage(paths: ReportPaths, llm=None, cache=None, company: str = "", progress=None) -> dict:
    """Serialize the report's tables with ``llm`` (None: the stage is off and writes an empty table)."""
    from rag_assets.core.table_serialization import document_tables, serialize_tables

    t0 = time.perf_counter()
    rows, meta = [], {"enabled": llm is not None}
    if llm is not None:
        tables = document_tables(load_parsed(paths))
        blocks, cost = serialize_tables(tables, llm, cache, company, progress=progress)
        rows = [asdict(b) for b in blocks]
        meta.update(
            tables=len({t.table_id for t in tables}),
            table_parts=len(tables),
            tables_serialized=len({r["table_id"] for r in rows}),
            **cost.as_metadata(),
        )
    table = pa.Table.from_pylist(rows, schema=TABLES_SCHEMA)
    with atomic_path(paths.tables) as tmp:
        pq.write_table(table, tmp)
    meta.update(blocks=len(rows), seconds=round(time.perf_counter() - t0, 3))
    return meta


def context_stage(paths: ReportPaths, llm=None, cache=None, company: str = "", progress=None) -> dict:
    """LLM-written context for every chunk (None: the stage is off and writes an empty table)."""
    from rag_assets.core.chunk_context import llm_chunk_contexts

    t0 = time.perf_counter()
    contexts: dict[str, str] = {}
    meta: dict = {"enabled": llm is not None}
    if llm is not None:
        df = read_chunks(paths.chunks)
        items = list(zip(df["chunk_id"], df["page_index"].astype(int), df["text"]))
        contexts, cost = llm_chunk_contexts(items, read_pages(paths.pages), company, llm, cache, progress=progress)
        words = [len(c.split()) for c in contexts.values()]
        meta.update(chunks=len(items), mean_words=round(sum(words) / len(words), 1) if words else 0,
                    **cost.as_metadata())
    table = pa.Table.from_pylist([{"chunk_id": k, "context": v} for k, v in contexts.items()], schema=CONTEXTS_SCHEMA)
    with atomic_path(paths.chunk_contexts) as tmp:
        pq.write_table(table, tmp)
    meta.update(contexts=len(contexts), seconds=round(time.perf_counter() - t0, 3))
    return meta


def chunk_stage(paths: ReportPaths, cfg: ChunkingConfig, company: str = "") -> dict:
    t0 = time.perf_counter()
    pages = read_pages(paths.pages)
    blocks = None
    if cfg.table_blocks:
        from rag_assets.core.table_serialization import blocks_by_table

        blocks = blocks_by_table(read_table_blocks(paths.tables))
    chunks = chunk_pages(pages, paths.sha1, cfg, company, blocks)
    write_chunks(chunks, paths.chunks)
    paths.chunk_contexts.unlink(missing_ok=True)  # made for the old chunks; chunk_contexts makes them anew
    dt = time.perf_counter() - t0
    n_tok = [c.n_tokens for c in chunks]
    return {
        "chunks": len(chunks),
        "table_chunks": sum(1 for c in chunks if c.kind == "table"),
        "table_block_chunks": sum(1 for c in chunks if c.kind == "table_blocks"),
        "pages_with_chunks": len({c.page_index for c in chunks}),
        "mean_tokens": round(sum(n_tok) / len(n_tok), 1) if n_tok else 0,
        "max_tokens": max(n_tok) if n_tok else 0,
        "seconds": round(dt, 3),
        "bytes": paths.chunks.stat().st_size,
    }


# -- stage 4/5: indexes -----------------------------------------------------------------------------


def faiss_stage(paths: ReportPaths, embedder: Embedder, progress: Callable[[int, int], None] | None = None) -> dict:
    t0 = time.perf_counter()
    df, texts = chunks_for_indexing(paths)
    texts = [embedding_text(t) for t in texts]
    step = 256
    parts = []
    for b in range(0, len(texts), step):
        parts.append(embedder.embed(texts[b : b + step]))
        if progress:
            progress(min(b + step, len(texts)), len(texts))
    import numpy as np

    vecs = np.concatenate(parts) if parts else np.zeros((0, embedder.dim), dtype=np.float32)
    index = VectorIndex.build(vecs, df["chunk_id"].tolist(), embedder.model_name)
    target = paths.faiss_dir_for(embedder.model_name)
    index.save(target)
    dt = time.perf_counter() - t0
    return {
        "vectors": index.ntotal,
        "dim": index.dim,
        "model": embedder.model_name,
        "seconds": round(dt, 3),
        "chunks_per_second": round(index.ntotal / dt, 1) if dt else None,
        "bytes": sum(p.stat().st_size for p in target.iterdir()),
        "path": str(target),
    }


def bm25_stage(paths: ReportPaths) -> dict:
    t0 = time.perf_counter()
    df, texts = chunks_for_indexing(paths)
    index = BM25Index.build(texts, df["chunk_id"].tolist())
    index.save(paths.bm25_dir)
    dt = time.perf_counter() - t0
    return {
        "documents": index.n_docs,
        "vocabulary": len(index.model.vocab_dict),
        "seconds": round(dt, 3),
        "bytes": sum(p.stat().st_size for p in paths.bm25_dir.iterdir()),
    }
