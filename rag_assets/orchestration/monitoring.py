"""What a user scanning many reports and configurations needs in the UI, beyond one partition's page:

- ``accuracy_by_config``: recorded by every ``evaluation`` run, the latest score of each configuration as
  numbers (Dagster plots each one over time on the asset's Plots tab) and as one table;
- ``report_status``: which report partitions Dagster marks stale or missing, as a table, with the check
  ``all_reports_up_to_date`` failing (a warning) while any is. Dagster shows a partition's stale marker only on
  that partition's own page (dagster-io/dagster#9374); this lists them all, and ``report_status_sensor``
  refreshes it by itself whenever the set of stale reports changes."""

import hashlib
import json

import dagster as dg

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


def build_status_sensor(ingestion: list, running: bool = True) -> dg.SensorDefinition:
    """Keeps ``report_status`` current without a click: every 5 minutes it counts the stale or incomplete
    reports and, when that set changed since its last look, materializes ``report_status`` (whose check warns
    in the asset graph while any report is behind)."""
    graph = ingestion_asset_graph(ingestion)
    status = dg.DefaultSensorStatus.RUNNING if running else dg.DefaultSensorStatus.STOPPED

    @dg.sensor(job_name="report_status_job", minimum_interval_seconds=300, default_status=status,
               name="report_status_sensor", description="Every 5 min: when the set of stale or incomplete reports "
               "changes, refreshes report_status (its check warns in the asset graph while any is behind).")
    def report_status_sensor(context: dg.SensorEvaluationContext, store: ReportStore):
        partitions, behind = stale_reports(context.instance, graph, store)
        if not partitions:  # a fresh instance: nothing to report on, no run to start
            return dg.SkipReason("no reports registered yet")
        seen = hashlib.sha1(json.dumps(sorted(behind.items())).encode()).hexdigest()[:16]
        said = f"{len(behind)} of {len(partitions)} reports stale or incomplete"
        if seen == context.cursor:
            return dg.SkipReason(f"{said}, as at the last look")
        context.update_cursor(seen)
        return dg.RunRequest(run_key=f"report_status:{seen}", tags={"stale_reports": str(len(behind))})

    return report_status_sensor


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
