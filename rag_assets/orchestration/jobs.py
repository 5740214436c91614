"""The jobs of the code location, and the executor they run on.

On one machine (default) both run in one process: a run's steps share the loaded embedder and LLM, and runs
of different partitions go in parallel through the instance's run queue. On a cluster
(``RAG_ASSETS_EXECUTOR=celery``) each step is a Celery task that any worker may take (see deploy/)."""

import dagster as dg

from rag_assets.orchestration.monitoring import UP_TO_DATE_CHECKS
from rag_assets.settings import ExecutorName


# Runs that write the answers' lineage (one DuckDB file, one writer at a time) carry this tag; a cluster's
# run coordinator runs one of them at a time (``tag_concurrency_limits`` in deploy/).
LINEAGE_WRITER_TAG = "rag_assets/lineage_writer"


def executor_named(name: ExecutorName, celery_broker: str | None = None) -> dg.ExecutorDefinition:
    """The executor of a name (``Settings.executor``, from ``RAG_ASSETS_EXECUTOR``); Celery's broker, when
    given, is the default of its run config (``Settings.celery_broker``)."""
    if name == "celery":
        from rag_assets.orchestration.celery_watch import watched_celery_executor

        return watched_celery_executor(celery_broker)
    return dg.multiprocess_executor if name == "multiprocess" else dg.in_process_executor


def build_jobs(executor: dg.ExecutorDefinition) -> list:
    ingest = dg.define_asset_job(
        "ingest_reports",
        selection=dg.AssetSelection.groups("ingestion") - dg.AssetSelection.checks(*UP_TO_DATE_CHECKS),
        executor_def=executor,
        description="Parse, clean, chunk and index one report partition (only what is stale when launched by "
        "`rag-assets ingest`).",
    )
    evaluate = dg.define_asset_job(
        "evaluate_config",
        selection=dg.AssetSelection.assets("question_set", "answers", "evaluation"),
        executor_def=executor,
        tags={LINEAGE_WRITER_TAG: "duckdb"},  # a cluster's run queue limits these (deploy/*dagster*.yaml)
        description="Read the question set, answer it with one configuration (partition) and score it (a "
        "missing questions or gold file fails the run with one line).",
    )
    status = dg.define_asset_job(
        "report_status_job", selection=dg.AssetSelection.assets("report_status"), executor_def=executor,
        description="Refresh report_status: which reports are stale or incomplete (run by report_status_sensor).")
    return [ingest, evaluate, status]
