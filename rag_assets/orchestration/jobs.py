"""The jobs of the code location, and the executor they run on.

On one machine (default) both run in one process: a run's steps share the loaded embedder and LLM, and runs
of different partitions go in parallel through the instance's run queue. On a cluster
(``RAG_ASSETS_EXECUTOR=celery``) each step is a Celery task that any worker may take (see deploy/)."""

import dagster as dg

from rag_assets.settings import ExecutorName


def executor_named(name: ExecutorName) -> dg.ExecutorDefinition:
    """The executor of a name (``Settings.executor``, from ``RAG_ASSETS_EXECUTOR``)."""
    if name == "celery":
        from dagster_celery import celery_executor

        return celery_executor
    return dg.multiprocess_executor if name == "multiprocess" else dg.in_process_executor


def build_jobs(executor: dg.ExecutorDefinition) -> list:
    ingest = dg.define_asset_job(
        "ingest_reports",
        selection=dg.AssetSelection.groups("ingestion"),
        executor_def=executor,
        description="Parse, clean, chunk and index one report partition (only what is stale when launched by "
        "`rag-assets ingest`).",
    )
    evaluate = dg.define_asset_job(
        "evaluate_config",
        selection=dg.AssetSelection.assets("question_set", "answers", "evaluation"),
        executor_def=executor,
        description="Read the question set, answer it with one configuration (partition) and score it (a "
        "missing questions or gold file fails the run with one line).",
    )
    return [ingest, evaluate]
