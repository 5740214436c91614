"""Asset checks of the ingestion assets: blocking, so a broken index never reaches answering."""


import warnings

import dagster as dg

from rag_assets.index.bm25 import BM25Index
from rag_assets.index.vectors import VectorIndex
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.orchestration.resources import EmbedderResource, ReportStore
from rag_assets.storage.artifacts import read_chunks, read_pages


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


def ingestion_checks() -> list[dg.AssetChecksDefinition]:
    """The checks, bound to their assets. Partitioned checks are a Dagster preview feature: its warning is
    silenced here, where they are defined, and nowhere else."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=dg.PreviewWarning)
        return [
            dg.asset_check(asset=dg.AssetKey(asset), partitions_def=reports_partitions, blocking=True)(fn)
            for asset, fn in [("report_chunks", every_page_has_chunks), ("faiss_index", faiss_rows_match_chunks),
                              ("bm25_index", bm25_docs_match_chunks)]
        ]
