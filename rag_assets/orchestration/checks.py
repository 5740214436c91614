"""Asset checks of the ingestion assets: blocking, so a broken index never reaches answering."""


import warnings

import dagster as dg

from rag_assets.ingest.verify import bm25_problem, chunk_ids, faiss_problem
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.orchestration.resources import EmbedderResource, ReportStore
from rag_assets.storage.artifacts import read_chunks, read_pages


def every_page_has_chunks(context: dg.AssetCheckExecutionContext, store: ReportStore) -> dg.AssetCheckResult:
    """Every non-empty cleaned page has at least one chunk."""
    paths = store.partition_paths(context.partition_key)
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
    """The FAISS index of the configured embedder holds exactly the chunk table's ids (``ingest.verify``)."""
    paths = store.partition_paths(context.partition_key)
    ids = chunk_ids(paths.chunks)
    problem = faiss_problem(paths, ids, [paths.faiss_dir_for(embedder.get().model_name)])
    return dg.AssetCheckResult(passed=problem is None, metadata={"chunks": len(ids), "problem": problem or ""})


def bm25_docs_match_chunks(context: dg.AssetCheckExecutionContext, store: ReportStore) -> dg.AssetCheckResult:
    """The BM25 indexes hold exactly the chunk table's ids (``ingest.verify``)."""
    paths = store.partition_paths(context.partition_key)
    ids = chunk_ids(paths.chunks)
    problem = bm25_problem(paths, ids)
    return dg.AssetCheckResult(passed=problem is None, metadata={"chunks": len(ids), "problem": problem or ""})


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
