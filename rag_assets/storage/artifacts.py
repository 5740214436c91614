"""The files of a report partition as typed rows: the one place that knows their schemas, how they are
written (atomically) and read back. Ingestion writes them; answering and the checks read them."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from docling_core.types.doc import DoclingDocument

from rag_assets.storage.atomic import atomic_path, write_text
from rag_assets.storage.paths import ReportPaths


@dataclass
class PageText:
    """One cleaned page of a report."""

    page_index: int  # zero-based physical page
    text: str  # cleaned markdown
    n_tables: int
    n_removed: int = 0  # header/footer blocks removed


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


def write_parquet(rows: list[dict], schema: pa.Schema, target: Path) -> None:
    """Rows as a Parquet file, written atomically (readers never see half a file)."""
    with atomic_path(target) as tmp:
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), tmp)


def save_parsed(doc, paths: ReportPaths) -> int:
    """The Docling document as JSON; returns its size in bytes."""
    write_text(paths.parsed, doc.model_dump_json())
    return paths.parsed.stat().st_size


def load_parsed(paths: ReportPaths) -> DoclingDocument:
    if not paths.parsed.exists():
        raise FileNotFoundError(f"{paths.parsed} is missing: materialize parsed_report for {paths.sha1} first")
    return DoclingDocument.model_validate_json(paths.parsed.read_bytes())


def write_pages(pages: list[PageText], target: Path) -> None:
    write_parquet([asdict(p) for p in pages], PAGES_SCHEMA, target)


def read_pages(path: Path) -> list[PageText]:
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: materialize report_pages first")
    return [PageText(**row) for row in pq.read_table(path).to_pylist()]


def write_chunks(chunks: list[dict], target: Path) -> None:
    write_parquet(chunks, CHUNKS_SCHEMA, target)


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


def read_table_blocks(path: Path) -> list[dict]:
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: materialize serialized_tables first")
    return pq.read_table(path).to_pylist()


def index_text(text: str, context: str) -> str:
    """What the indexes see for a chunk: its context line, then its text."""
    return f"{context}\n{text}" if context else text
