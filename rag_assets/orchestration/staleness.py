"""Which ingestion assets of a partition need a run: Dagster's own stale status (the resolver the UI's stale
markers come from), plus outputs whose files are missing or changed on disk (the partition manifest)."""

import logging

import dagster as dg

from rag_assets.ingest.stages import STAGES, downstream_of
from rag_assets.ingest.verify import check_partition_files
from rag_assets.storage.paths import ReportPaths

log = logging.getLogger(__name__)


def stale_status_resolver(instance: dg.DagsterInstance, defs: dg.Definitions):
    """Dagster's stale-status resolver over ``defs`` (pinned Dagster: this is the UI's own code path)."""
    from dagster._core.asset_graph_view.asset_graph_view import AssetGraphView, TemporalContext
    from dagster._core.definitions.data_version import CachingStaleStatusResolver
    from dagster._time import get_current_datetime

    graph = defs.resolve_asset_graph()
    view = AssetGraphView(temporal_context=TemporalContext(effective_dt=get_current_datetime(), last_event_id=None),
                          instance=instance, asset_graph=graph)
    return CachingStaleStatusResolver(instance=instance, asset_graph=graph, loading_context=view)


def dagster_stale(instance: dg.DagsterInstance, defs: dg.Definitions, partition: str) -> list[str]:
    """Ingestion assets of ``partition`` that Dagster marks stale or missing."""
    from dagster._core.definitions.data_version import StaleStatus

    resolver = stale_status_resolver(instance, defs)
    return [name for name in STAGES
            if resolver.get_status(dg.AssetKey(name), partition) in (StaleStatus.STALE, StaleStatus.MISSING)]


def assets_to_rebuild(instance: dg.DagsterInstance, defs: dg.Definitions, paths: ReportPaths,
                      partition: str) -> list[str]:
    """What a run must materialize for ``paths``' partition, in stage order (empty: up to date): what Dagster
    marks stale or missing, and what the disk shows broken (files gone or changed since they were written,
    index ids that disagree with the chunk table; leftovers of killed writers are cleared first), then
    everything that reads them (their inputs change, and Dagster would mark them stale the moment the run
    starts)."""
    stale = dagster_stale(instance, defs, partition)
    cleared, problems = check_partition_files(paths)
    for line in cleared:
        log.warning("%s: %s", paths.sha1[:8], line)
    for stage, problem in problems.items():
        if stage not in stale:  # a new partition's files are missing, and Dagster already says so
            log.warning("%s: %s: %s", paths.sha1[:8], stage, problem)
    return downstream_of([*stale, *problems])
