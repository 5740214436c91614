"""Automation: a sensor for new PDFs in the inbox, a schedule for stale partitions."""


import os

import dagster as dg

from rag_assets.assets.ingestion import ingestion_assets, reports_partitions, stage_fingerprints
from rag_assets.core.pipeline import stale_stages
from rag_assets.resources import EmbedderResource, LLMResource, ParserResource, ReportStore

ingest_job = dg.define_asset_job(
    "ingest_reports",
    selection=dg.AssetSelection.assets(*ingestion_assets),
    partitions_def=reports_partitions,
    description="Parse, clean, chunk and index one report partition.",
)

evaluate_job = dg.define_asset_job(
    "evaluate_config",
    selection=dg.AssetSelection.assets("answers", "evaluation"),
    description="Answer the question set with one configuration (partition) and score it.",
)

STAGE_ORDER = [a.key.path[-1] for a in ingestion_assets]


def _downstream(stage: str) -> list[str]:
    """``stage`` and every ingestion asset that depends on it, directly or not, in materialization order."""
    deps = {a.key.path[-1]: {k.path[-1] for k in a.dependency_keys} for a in ingestion_assets}
    out = {stage}
    for name in STAGE_ORDER:
        if deps[name] & out:
            out.add(name)
    return [s for s in STAGE_ORDER if s in out]


DOWNSTREAM = {stage: _downstream(stage) for stage in STAGE_ORDER}


@dg.sensor(job=ingest_job, minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING)
def inbox_sensor(context: dg.SensorEvaluationContext, store: ReportStore) -> dg.SensorResult | dg.SkipReason:
    """Registers new PDFs in the inbox as report partitions and requests their ingestion."""
    found = store.scan_inbox()
    known = set(context.instance.get_dynamic_partitions(reports_partitions.name))
    new = [r for r in found if r.sha1 not in known]
    if not new:
        return dg.SkipReason(f"no new PDFs in {store.inbox_dir} ({len(found)} known)")
    for r in new:
        context.log.info(f"new report {r.sha1} {r.company_name} ({r.path})")
    return dg.SensorResult(
        run_requests=[dg.RunRequest(partition_key=r.sha1, run_key=f"ingest:{r.sha1}") for r in new],
        dynamic_partitions_requests=[reports_partitions.build_add_request([r.sha1 for r in new])],
    )


def stale_run_requests(
    instance: dg.DagsterInstance,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource | None = None,
) -> list[dg.RunRequest]:
    """One run per report partition whose outputs were made by other code or config than now."""
    expected = stage_fingerprints(store, parser, embedder, llm)
    requests = []
    for sha1 in sorted(instance.get_dynamic_partitions(reports_partitions.name)):
        stale = stale_stages(store.paths(sha1), expected)
        if not stale:
            continue
        keys = sorted({k for s in stale for k in DOWNSTREAM[s]}, key=STAGE_ORDER.index)
        requests.append(
            dg.RunRequest(
                partition_key=sha1,
                asset_selection=[dg.AssetKey(k) for k in keys],
                tags={"rag_assets/stale": ",".join(stale)},
            )
        )
    return requests


@dg.schedule(
    job=ingest_job,
    cron_schedule=os.environ.get("RAG_ASSETS_STALE_CRON", "0 3 * * *"),
    default_status=dg.DefaultScheduleStatus.STOPPED,
)
def stale_reports_schedule(
    context: dg.ScheduleEvaluationContext,
    store: ReportStore,
    parser: ParserResource,
    embedder: EmbedderResource,
    llm: LLMResource,
):
    """Re-materializes report partitions whose code version or configuration changed."""
    requests = stale_run_requests(context.instance, store, parser, embedder, llm)
    if not requests:
        return dg.SkipReason("every report partition is up to date")
    return requests
