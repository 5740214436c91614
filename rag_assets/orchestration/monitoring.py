"""What a user scanning many reports and configurations needs in the UI, beyond one partition's page:

- ``accuracy_by_config``: recorded by every ``evaluation`` run, the latest score of each configuration as
  numbers (Dagster plots each one over time on the asset's Plots tab) and as one table;
- ``report_status``: which report partitions Dagster marks stale or missing, as a table, with the check
  ``all_reports_up_to_date`` failing (a warning) while any is. Dagster shows a partition's stale marker only on
  that partition's own page (dagster-io/dagster#9374); this lists them all, and ``report_status_sensor``
  refreshes it by itself whenever the set of stale reports changes."""

import hashlib
import json
from typing import Callable

import dagster as dg

from rag_assets.ingest.stages import STAGES, downstream_of
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.orchestration.resources import ReportStore
from rag_assets.orchestration.staleness import stale_by_partition

GROUP = "monitoring"
ACCURACY = dg.AssetKey("accuracy_by_config")
# the evaluation figures that are plotted per configuration
PLOTTED = ("score_per_100", "G_percent", "R_percent", "value_accuracy", "page_hit@5")

accuracy_by_config = dg.AssetSpec(
    ACCURACY, group_name=GROUP, deps=["evaluation"], kinds={"plot"},
    description="The latest evaluation of every configuration side by side, recorded by each `evaluation` run: "
                "`<config> <figure>` numbers (plotted over time) and a table.")


def latest_evaluations(instance: dg.DagsterInstance, limit: int = 500) -> dict[str, dict]:
    """Configuration -> the metadata of its latest ``evaluation`` materialization."""
    latest: dict[str, dict] = {}
    for record in instance.fetch_materializations(dg.AssetKey("evaluation"), limit=limit).records:
        mat = record.asset_materialization
        if mat is not None and mat.partition and mat.partition not in latest:
            latest[mat.partition] = {k: getattr(v, "value", v) for k, v in mat.metadata.items()}
    return latest


def accuracy_metadata(by_config: dict[str, dict]) -> dict:
    """Each configuration's plotted figures as numbers, and a markdown table of them all."""
    metadata: dict = {}
    header = ["configuration", "questions", *PLOTTED]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for config in sorted(by_config):
        figures = by_config[config]
        for name in PLOTTED:
            if isinstance(figures.get(name), (int, float)):
                metadata[f"{config} {name}"] = float(figures[name])
        cells = [config, *(str(figures.get(k, "")) for k in ("questions", *PLOTTED))]
        lines.append("| " + " | ".join(cells) + " |")
    metadata["configurations"] = dg.MetadataValue.md("\n".join(lines))
    return metadata


def record_accuracy(context: dg.AssetExecutionContext, config: str, summary: dict) -> None:
    """Log a materialization of ``accuracy_by_config`` with this evaluation and the latest of the others."""
    by_config = latest_evaluations(context.instance)
    by_config[config] = summary
    context.log_event(dg.AssetMaterialization(ACCURACY, metadata=accuracy_metadata(by_config)))


def ingestion_asset_graph(ingestion: list):
    """The asset graph of the ingestion assets (and so the code versions) of the code location."""
    from dagster._core.definitions.assets.graph.asset_graph import AssetGraph  # what Definitions resolves

    return AssetGraph.from_assets(ingestion)


def stale_reports(instance: dg.DagsterInstance, graph, store: ReportStore) -> tuple[dict[str, str], dict]:
    """(partition -> company of every registered report, partition -> its stale or missing ingestion assets for
    those behind)."""
    registered = instance.get_dynamic_partitions(reports_partitions.name)
    partitions = {key: store.company_of_partition(key) for key in registered}
    behind = {p: a for p, a in stale_by_partition(instance, graph, sorted(partitions)).items() if a}
    return partitions, behind


UP_TO_DATE = "up_to_date"  # each ingestion asset's check: every partition built under the current settings and code
# Not steps of the ingestion runs (7 more steps a run, each a process on a cluster): the status sensor and
# `rag-assets ingest` report them. Unpartitioned: Dagster's storage keeps one row per (check, run, partition),
# so a second runless evaluation of one partition's check is refused (its run id is empty).
UP_TO_DATE_CHECKS = tuple(dg.AssetCheckKey(dg.AssetKey(stage), UP_TO_DATE) for stage in STAGES)
STATUS_INTERVAL = 30  # seconds between the status sensor's looks: a settings change shows within a minute


def behind_by_stage(now: dict[str, list[str]]) -> dict[str, list[str]]:
    """Stage -> the partitions where it is stale or missing, from partition -> its stages behind."""
    return {stage: sorted(p for p, stages in now.items() if stage in stages) for stage in STAGES}


def build_status_sensor(graph_now: Callable[[], object], running: bool = True) -> dg.SensorDefinition:
    """Stale at a glance: every 30 s, against the ingestion graph of the data root's settings as they are now
    (``graph_now``: its file is read afresh, so a change made by another process counts without a reload), it
    reports the ``up_to_date`` check of each ingestion asset whose stale partitions changed (failing, a
    warning, on the asset's node in the graph) and, when the set of reports behind changed, refreshes
    ``report_status``."""
    status = dg.DefaultSensorStatus.RUNNING if running else dg.DefaultSensorStatus.STOPPED

    @dg.sensor(job_name="report_status_job", minimum_interval_seconds=STATUS_INTERVAL, default_status=status,
               name="report_status_sensor", description="Every 30 s: the up_to_date check of each ingestion asset "
               "whose stale partitions changed, and report_status when the set of reports behind changed.")
    def report_status_sensor(context: dg.SensorEvaluationContext, store: ReportStore):
        partitions, behind = stale_reports(context.instance, graph_now(), store)
        if not partitions:  # a fresh instance: nothing to report on (and no cursor, so the first reports count)
            return dg.SkipReason("no reports registered yet")
        before = json.loads(context.cursor) if (context.cursor or "").startswith("{") else {}
        now = {p: downstream_of(behind.get(p, [])) for p in partitions}  # what a stale asset feeds is behind too
        was, stages = behind_by_stage(before), behind_by_stage(now)
        events = [check_evaluation(stage, stages[stage]) for stage in STAGES
                  if not before or stages[stage] != was[stage]]
        said = f"{len(behind)} of {len(partitions)} reports stale or incomplete"
        if not events and before:
            return dg.SkipReason(f"{said}, as at the last look")
        context.update_cursor(json.dumps(now, sort_keys=True))
        seen = hashlib.sha1(json.dumps(sorted(behind.items())).encode()).hexdigest()[:16]
        runs = [dg.RunRequest(run_key=f"report_status:{seen}", tags={"stale_reports": str(len(behind))})] \
            if {p: a for p, a in now.items() if a} != {p: a for p, a in before.items() if a} or not before else []
        return dg.SensorResult(run_requests=runs, asset_events=events)

    return report_status_sensor


def check_evaluation(stage: str, behind: list[str]) -> dg.AssetCheckEvaluation:
    """``stage``'s ``up_to_date`` check: failing (a warning) while any partition (``behind``) is stale."""
    more = f"\n- ... and {len(behind) - 50} more" if len(behind) > 50 else ""
    listed = "\n".join(f"- {p}" for p in behind[:50]) + more
    return dg.AssetCheckEvaluation(
        asset_key=dg.AssetKey(stage), check_name=UP_TO_DATE, passed=not behind, severity=dg.AssetCheckSeverity.WARN,
        metadata={"stale_partitions": len(behind),
                  "stale": dg.MetadataValue.md(listed if behind else "every partition is built under the data "
                                               "root's current settings and code"),
                  "fix": "rag-assets ingest <inbox> (rebuilds exactly these)"})


def stale_stages(instance: dg.DagsterInstance, graph) -> dict[str, list[str]]:
    """Stage -> its registered partitions that are stale or missing (with what a stale asset feeds)."""
    registered = instance.get_dynamic_partitions(reports_partitions.name)
    return behind_by_stage({p: downstream_of(a) for p, a in stale_by_partition(instance, graph, registered).items()})


def report_up_to_date(instance: dg.DagsterInstance, graph) -> None:
    """Record each ingestion asset's ``up_to_date`` check as it stands now (after ingestion runs)."""
    stages = stale_stages(instance, graph)
    for stage in STAGES:
        instance.report_runless_asset_event(check_evaluation(stage, stages[stage]))


def up_to_date_checks(graph_now: Callable[[], object]) -> list[dg.AssetChecksDefinition]:
    """Each ingestion asset's ``up_to_date`` check over all its partitions, as a definition Dagster shows on the
    asset (executable from its page); evaluated by the status sensor and after ``rag-assets ingest``, not as
    steps of the ingestion runs."""
    def build(stage: str):
        def up_to_date(context: dg.AssetCheckExecutionContext) -> dg.AssetCheckResult:
            evaluation = check_evaluation(stage, stale_stages(context.instance, graph_now())[stage])
            return dg.AssetCheckResult(passed=evaluation.passed, severity=evaluation.severity,
                                       metadata=evaluation.metadata)
        up_to_date.__doc__ = f"Every partition of {stage} is built under the data root's current settings and code."
        return dg.asset_check(asset=dg.AssetKey(stage), name=UP_TO_DATE)(up_to_date)

    return [build(stage) for stage in STAGES]


def report_status_asset(ingestion: list) -> dg.AssetsDefinition:
    """``report_status`` over the ingestion assets (and so the code versions) of the code location."""
    graph = ingestion_asset_graph(ingestion)

    @dg.asset(
        group_name=GROUP,
        kinds={"dagster"},
        check_specs=[dg.AssetCheckSpec("all_reports_up_to_date", asset="report_status",
                                       description="No report partition is stale or missing an ingestion asset.")],
    )
    def report_status(context: dg.AssetExecutionContext, store: ReportStore):
        """Every report partition with the ingestion assets Dagster marks stale (a setting or the code changed)
        or missing; `rag-assets ingest` rebuilds exactly those."""
        partitions, behind = stale_reports(context.instance, graph, store)
        rows = ["| report | company | stale or missing |", "| --- | --- | --- |"]
        rows += [f"| {p} | {partitions[p]} | {', '.join(a)} |" for p, a in sorted(behind.items())]
        table = dg.MetadataValue.md("\n".join(rows) if behind else "every report is up to date")
        context.log.info(f"{len(behind)} of {len(partitions)} reports stale or incomplete")
        yield dg.MaterializeResult(
            metadata={"reports": len(partitions), "stale_reports": len(behind), "stale": table},
            check_results=[dg.AssetCheckResult(
                check_name="all_reports_up_to_date", passed=not behind, severity=dg.AssetCheckSeverity.WARN,
                metadata={"stale_reports": len(behind), "stale": table,
                          "fix": "rag-assets ingest <inbox> (rebuilds exactly these)"})])

    return report_status
