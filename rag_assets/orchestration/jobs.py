"""The jobs of the code location. Both run in one process: a run's steps share the loaded embedder and LLM,
and runs of different partitions go in parallel through the instance's run queue."""

import dagster as dg

ingest_job = dg.define_asset_job(
    "ingest_reports",
    selection=dg.AssetSelection.groups("ingestion"),
    executor_def=dg.in_process_executor,
    description="Parse, clean, chunk and index one report partition (only the stale assets when launched by "
    "`rag-assets ingest`).",
)

evaluate_job = dg.define_asset_job(
    "evaluate_config",
    selection=dg.AssetSelection.assets("answers", "evaluation"),
    executor_def=dg.in_process_executor,
    description="Answer the question set with one configuration (partition) and score it.",
)
