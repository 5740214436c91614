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
    "report_chunks": CHUNKER_VERSION,
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


def indexed_texts(df: pd.DataFrame) -> list[str]:
    """The text each chunk is indexed by (context line + text)."""
    return [index_text(t, c) for t, c in zip(df["text"], df["context"].fillna(""))]


def chunk_stage(paths: ReportPaths, cfg: ChunkingConfig, company: str = "") -> dict:
    t0 = time.perf_counter()
    pages = read_pages(paths.pages)
    chunks = chunk_pages(pages, paths.sha1, cfg, company)
    write_chunks(chunks, paths.chunks)
    dt = time.perf_counter() - t0
    n_tok = [c.n_tokens for c in chunks]
    return {
        "chunks": len(chunks),
        "table_chunks": sum(1 for c in chunks if c.kind == "table"),
        "pages_with_chunks": len({c.page_index for c in chunks}),
        "mean_tokens": round(sum(n_tok) / len(n_tok), 1) if n_tok else 0,
        "max_tokens": max(n_tok) if n_tok else 0,
        "seconds": round(dt, 3),
        "bytes": paths.chunks.stat().st_size,
    }


# -- stage 4/5: indexes -----------------------------------------------------------------------------


def faiss_stage(paths: ReportPaths, embedder: Embedder, progress: Callable[[int, int], None] | None = None) -> dict:
    t0 = time.perf_counter()
    df = read_chunks(paths.chunks)
    texts = [embedding_text(t) for t in indexed_texts(df)]
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
    df = read_chunks(paths.chunks)
    index = BM25Index.build(indexed_texts(df), df["chunk_id"].tolist())
    index.save(paths.bm25_dir)
    dt = time.perf_counter() - t0
    return {
        "documents": index.n_docs,
        "vocabulary": len(index.model.vocab_dict),
        "seconds": round(dt, 3),
        "bytes": sum(p.stat().st_size for p in paths.bm25_dir.iterdir()),
    }
