"""Per-report ingestion assets: PDF -> Docling JSON -> page markdown -> chunks -> FAISS and BM25 indexes."""


import time
import warnings

import dagster as dg

from rag_assets.core.bm25_index import BM25Index
from rag_assets.core.parsing import PdfParseError
from rag_assets.core.pipeline import (
    STAGE_VERSIONS,
    bm25_stage,
    chunk_stage,
    clean_stage,
    context_stage,
    faiss_stage,
    fingerprint,
    read_chunks,
    read_llm_contexts,
    read_pages,
    read_table_blocks,
    record_stage,
    save_parsed,
    table_stage,
)
from rag_assets.core.vector_index import VectorIndex
from rag_assets.resources import EmbedderResource, LLMResource, ParserResource, ReportStore

# Partitioned asset checks are a Dagster preview feature; we rely on them knowingly.
warnings.filterwarnings("ignore", category=dg.PreviewWarning)

reports_partitions = dg.DynamicPartitionsDefinition(name="reports")
GROUP = "ingestion"


def report_asset(stage: str, deps: list | None = None, kinds: set[str] | None = None):
    """An ingestion asset of one report partition, versioned by its stage's code version."""
    return dg.asset(
        partitions_def=reports_partitions,
        code_version=STAGE_VERSIONS[stage],
        group_name=GROUP,
        deps=deps or [],
        kinds=kinds or set(),
    )


def _meta(values: dict) -> dict:
    out = {}
    for k, v in values.items():
        if v is None:
            continue
        out[k] = dg.MetadataValue.path(str(v)) if k == "path" else v
    return out


def stage_fingerprints(
    store: ReportStore, parser: ParserResource, embedder: EmbedderResource, llm: LLMResource | None = None
) -> dict[str, str]:
    """The config fingerprint each stage records; a stage whose recorded one differs is stale."""
    from rag_assets.core.prompts import load_prompt

    llm = llm or LLMResource()
    parse_fp = fingerprint(parser.fingerprint())
    tables_on = store.table_serialization
    tables_fp = fingerprint({
        "parse": parse_fp,
        "llm": llm.ingest_fingerprint() if tables_on else None,
        "prompt": load_prompt("table_serialization").version if tables_on else None,
    })
    chunk_fp = fingerprint({"parse": parse_fp, "chunking": store.chunking(), "tables": tables_fp if tables_on else None})
    ctx_on = store.chunk_context == "llm"
    ctx_fp = fingerprint({
        "chunks": chunk_fp,
        "llm": llm.ingest_fingerprint() if ctx_on else None,
        "prompt": load_prompt("chunk_context").version if ctx_on else None,
    })
    return {
        "parsed_report": parse_fp,
        "report_pages": parse_fp,
        "serialized_tables": tables_fp,
        "report_chunks": chunk_fp,
        "chunk_contexts": ctx_fp,
        "faiss_index": fingerprint({"chunks": ctx_fp, "embedder": embedder.fingerprint()}),
        "bm25_index": ctx_fp,
    }


def _record(paths, stage: str, store, parser, embedder, llm) -> None:
    """Note in the partition's manifest the version and configuration that made ``stage``."""
    record_stage(paths, stage, stage_fingerprints(store, parser, embedder, llm)[stage])


def _progress(context: dg.AssetExecutionContext, what: str, every: float = 10.0):
    """A callback (done, total) that logs at most every ``every`` seconds, and at the end."""
    last = [time.monotonic()]

    def progress(done: int, total: int) -> None:
        if time.monotonic() - last[0] > every or done == total:
            last[0] = time.monotonic()
            context.log.info(f"{what} {done}/{total}")

    return progress


@report_asset("parsed_report", kinds={"pdf", "json"})
def parsed_report(
    context: dg.AssetExecutionContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Parsed report: the PDF as a Docling document (JSON) with page provenance for every item."""
    sha1 = context.partition_key
    src = store.source(sha1)
    paths = store.paths(sha1)
    try:
        doc, stats = parser.parse(src.path, name=src.company_name, progress=_progress(context, f"{src.company_name}: parsed pages"))
    except PdfParseError as exc:
        raise dg.Failure(
            description=f"{src.company_name} ({src.path}): {exc}",
            metadata={"pdf": dg.MetadataValue.path(src.path), "error": type(exc).__name__},
            allow_retries=False,
        ) from exc
    meta = save_parsed(doc, stats, paths)
    _record(paths, "parsed_report", store, parser, embedder, llm)
    context.log.info(f"{src.company_name}: {stats.pages} pages, {stats.tables} tables in {stats.seconds:.1f}s")
    return dg.MaterializeResult(
        metadata=_meta({**meta, "company_name": src.company_name, "pdf": src.path, "path": paths.parsed})
    )


@report_asset("report_pages", deps=[parsed_report], kinds={"parquet"})
def report_pages(
    context: dg.AssetExecutionContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Cleaned pages: one markdown text per zero-based PDF page, glyph noise and repeated headers removed."""
    paths = store.paths(context.partition_key)
    meta = clean_stage(paths)
    _record(paths, "report_pages", store, parser, embedder, llm)
    pages = read_pages(paths.pages)
    sample = next((p for p in pages if p.n_tables), next((p for p in pages if p.text), None))
    extra = {"path": paths.pages}
    if sample is not None:
        extra["sample_page"] = dg.MetadataValue.md(f"**page_index {sample.page_index}**\n\n{sample.text[:3000]}")
    return dg.MaterializeResult(metadata=_meta({**meta, **extra}))


def _run_llm_stage(context: dg.AssetExecutionContext, store: ReportStore, llm: LLMResource, enabled: bool,
                   what: str, stage) -> tuple:
    """Run an optional LLM stage function (off: it writes an empty output) with the ingestion LLM and the
    shared cache; log what it cost."""
    sha1 = context.partition_key
    paths = store.paths(sha1)
    company = store.source(sha1).company_name
    client = llm.ingest_client() if enabled else None
    cache = store.llm_cache() if client is not None else None
    try:
        meta = stage(paths, client, cache, company, _progress(context, f"{company}: {what}"))
    finally:
        if cache is not None:
            cache.close()
    if meta["enabled"]:
        context.log.info(
            f"{company}: {what}: {meta['llm_items']} items, {meta['llm_calls']} LLM calls, "
            f"{meta['llm_cache_hits']} cached, {meta['llm_failures']} failed, {meta['llm_seconds']}s"
        )
    return paths, meta


@report_asset("serialized_tables", deps=[parsed_report], kinds={"parquet"})
def serialized_tables(
    context: dg.AssetExecutionContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Serialized tables: LLM statements {subject_core_entity, information_block} per table (empty when off)."""
    paths, meta = _run_llm_stage(context, store, llm, store.table_serialization, "serialized tables", table_stage)
    _record(paths, "serialized_tables", store, parser, embedder, llm)
    extra = {"path": paths.tables}
    if meta["blocks"]:
        sample = read_table_blocks(paths.tables)[:12]
        extra["sample"] = dg.MetadataValue.md("\n".join(
            f"- p{r['page_index']} **{r['subject_core_entity']}**: {r['information_block']}" for r in sample
        ))
    return dg.MaterializeResult(metadata=_meta({**meta, **extra}))


@report_asset("report_chunks", deps=[report_pages, serialized_tables], kinds={"parquet"})
def report_chunks(
    context: dg.AssetExecutionContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Chunks: ~300-token pieces of one page each (tables whole), in Parquet."""
    paths = store.paths(context.partition_key)
    meta = chunk_stage(paths, store.chunking(), store.source(context.partition_key).company_name)
    _record(paths, "report_chunks", store, parser, embedder, llm)
    return dg.MaterializeResult(metadata=_meta({**meta, "path": paths.chunks}))


@report_asset("chunk_contexts", deps=[report_chunks], kinds={"parquet"})
def chunk_contexts(
    context: dg.AssetExecutionContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """Chunk contexts: an LLM-written line (at most 75 words) situating each chunk in its report (empty when off)."""
    paths, meta = _run_llm_stage(context, store, llm, store.chunk_context == "llm", "chunk contexts", context_stage)
    _record(paths, "chunk_contexts", store, parser, embedder, llm)
    extra = {"path": paths.chunk_contexts}
    if meta["enabled"]:
        sample = list(read_llm_contexts(paths.chunk_contexts).items())[:8]
        extra["sample"] = dg.MetadataValue.md("\n".join(f"- `{k}`: {v}" for k, v in sample))
    return dg.MaterializeResult(metadata=_meta({**meta, **extra}))


@report_asset("faiss_index", deps=[report_chunks, chunk_contexts], kinds={"faiss"})
def faiss_index(
    context: dg.AssetExecutionContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """FAISS index: normalized chunk embeddings in IndexFlatIP, with the row -> chunk_id map."""
    paths = store.paths(context.partition_key)
    meta = faiss_stage(paths, embedder.get(), _progress(context, "embedded chunks"))
    _record(paths, "faiss_index", store, parser, embedder, llm)
    return dg.MaterializeResult(metadata=_meta(meta))


@report_asset("bm25_index", deps=[report_chunks, chunk_contexts], kinds={"bm25"})
def bm25_index(
    context: dg.AssetExecutionContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
) -> dg.MaterializeResult:
    """BM25 index: bm25s over the same chunks, numbers and tickers kept as tokens."""
    paths = store.paths(context.partition_key)
    meta = bm25_stage(paths)
    _record(paths, "bm25_index", store, parser, embedder, llm)
    return dg.MaterializeResult(metadata=_meta({**meta, "path": paths.bm25_dir}))


# -- asset checks ------------------------------------------------------------------------------------


@dg.asset_check(asset=report_chunks, partitions_def=reports_partitions, blocking=True)
def every_page_has_chunks(context: dg.AssetCheckExecutionContext, store: ReportStore) -> dg.AssetCheckResult:
    """Every non-empty cleaned page has at least one chunk."""
    paths = store.paths(context.partition_key)
    non_empty = {p.page_index for p in read_pages(paths.pages) if p.text.strip()}
    chunked = set(read_chunks(paths.chunks)["page_index"].tolist())
    missing = sorted(non_empty - chunked)
    return dg.AssetCheckResult(
        passed=not missing,
        metadata={"non_empty_pages": len(non_empty), "pages_without_chunks": str(missing[:50])},
    )


@dg.asset_check(asset=faiss_index, partitions_def=reports_partitions, blocking=True)
def faiss_rows_match_chunks(
    context: dg.AssetCheckExecutionContext, store: ReportStore, embedder: EmbedderResource
) -> dg.AssetCheckResult:
    """The FAISS row count and its chunk ids equal the chunks table."""
    paths = store.paths(context.partition_key)
    ids = read_chunks(paths.chunks)["chunk_id"].tolist()
    index = VectorIndex.load(paths.faiss_dir_for(embedder.get().model_name))
    return dg.AssetCheckResult(
        passed=index.ntotal == len(ids) and index.chunk_ids == ids,
        metadata={"rows": index.ntotal, "chunks": len(ids)},
    )


@dg.asset_check(asset=bm25_index, partitions_def=reports_partitions, blocking=True)
def bm25_docs_match_chunks(context: dg.AssetCheckExecutionContext, store: ReportStore) -> dg.AssetCheckResult:
    """The BM25 document count and its chunk ids equal the chunks table."""
    paths = store.paths(context.partition_key)
    ids = read_chunks(paths.chunks)["chunk_id"].tolist()
    index = BM25Index.load(paths.bm25_dir)
    n_docs = int(index.model.scores["num_docs"]) if hasattr(index.model, "scores") else index.n_docs
    return dg.AssetCheckResult(
        passed=n_docs == len(ids) and index.chunk_ids == ids,
        metadata={"documents": n_docs, "chunks": len(ids)},
    )


ingestion_assets = [
    parsed_report, report_pages, serialized_tables, report_chunks, chunk_contexts, faiss_index, bm25_index
]
ingestion_checks = [every_page_has_chunks, faiss_rows_match_chunks, bm25_docs_match_chunks]
