"""Which ingestion assets of a partition need a run: Dagster's own stale status (the resolver the UI's stale
markers come from), plus outputs whose files are missing or changed on disk (the partition manifest)."""

import logging

import dagster as dg

from rag_assets.ingest.stages import STAGES, downstream_of
from rag_assets.ingest.verify import verify_report
from rag_assets.storage.atomic import recover_leftovers
from rag_assets.storage.manifest import damaged_outputs
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


def assets_to_rebuild(instance: dg.DagsterInstance, defs: dg.Definitions, paths: ReportPaths) -> list[str]:
    """What a run must materialize for ``paths``' partition, in stage order (empty: up to date): what Dagster
    marks stale or missing, what is damaged on disk (files gone or changed since they were written, leftovers
    of a killed writer) or disagrees with the chunk table (index ids), then everything that reads them (their inputs change,
    and Dagster would mark them stale the moment the run starts)."""
    for line in recover_leftovers(paths.dir):
        log.warning("%s: %s", paths.sha1[:8], line)
    stale = dagster_stale(instance, defs, paths.sha1)
    damaged = damaged_outputs(paths, {n: st.outputs(paths) for n, st in STAGES.items()})
    inconsistent = verify_report(paths) if paths.dir.exists() else {}
    for stage, problem in inconsistent.items():
        log.warning("%s: %s: %s", paths.sha1[:8], stage, problem)
    return downstream_of([*stale, *damaged, *inconsistent])
