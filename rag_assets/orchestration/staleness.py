"""Which ingestion assets of a partition need a run: Dagster's own stale status (the resolver the UI's stale
markers come from), plus outputs whose files are missing or changed on disk (the partition manifest)."""

import logging

import dagster as dg

from rag_assets.ingest.stages import STAGES, downstream_of
from rag_assets.ingest.verify import check_partition_files
from rag_assets.storage.paths import ReportPaths

log = logging.getLogger(__name__)


def stale_status_resolver(instance: dg.DagsterInstance, graph):
    """Dagster's stale-status resolver over an asset graph (pinned Dagster: this is the UI's own code path)."""
    from dagster._core.asset_graph_view.asset_graph_view import AssetGraphView, TemporalContext
    from dagster._core.definitions.data_version import CachingStaleStatusResolver
    from dagster._time import get_current_datetime

    view = AssetGraphView(temporal_context=TemporalContext(effective_dt=get_current_datetime(), last_event_id=None),
                          instance=instance, asset_graph=graph)
    return CachingStaleStatusResolver(instance=instance, asset_graph=graph, loading_context=view)


def stale_by_partition(instance: dg.DagsterInstance, graph, partitions: list[str]) -> dict[str, list[str]]:
    """Partition -> its ingestion assets that Dagster marks stale or missing (one resolver for them all)."""
    from dagster._core.definitions.data_version import StaleStatus

    resolver = stale_status_resolver(instance, graph)
    behind = (StaleStatus.STALE, StaleStatus.MISSING)
    return {p: [name for name in STAGES if resolver.get_status(dg.AssetKey(name), p) in behind] for p in partitions}


def dagster_stale(instance: dg.DagsterInstance, defs: dg.Definitions, partition: str) -> list[str]:
    """Ingestion assets of ``partition`` that Dagster marks stale or missing."""
    return stale_by_partition(instance, defs.resolve_asset_graph(), [partition])[partition]


def assets_to_rebuild(instance: dg.DagsterInstance, defs: dg.Definitions, paths: ReportPaths,
                      partition: str, vectors: str | None = None) -> list[str]:
    """What a run must materialize for ``paths``' partition, in stage order (empty: up to date): what Dagster
    marks stale or missing, and what the disk shows broken (files gone or changed since they were written,
    index ids that disagree with the chunk table, no index of ``vectors``, the name of the vectors this
    machine's embedder makes; leftovers of killed writers are cleared first), then everything that reads them
    (their inputs change, and Dagster would mark them stale the moment the run starts)."""
    stale = dagster_stale(instance, defs, partition)
    cleared, problems = check_partition_files(paths)
    if vectors and paths.faiss_dir.exists() and not paths.faiss_dir_for(vectors).exists():
        problems.setdefault("faiss_index", f"no index of the vectors the embedder makes here ({vectors})")
    for line in cleared:
        log.warning("%s: %s", paths.sha1[:8], line)
    for stage, problem in problems.items():
        if stage not in stale:  # a new partition's files are missing, and Dagster already says so
            log.warning("%s: %s: %s", paths.sha1[:8], stage, problem)
    return downstream_of([*stale, *problems])
