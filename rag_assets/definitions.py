"""The Dagster code location: assets, checks, jobs, sensor, schedule and resources."""

from __future__ import annotations

import dagster as dg

from rag_assets.assets.answering import answering_assets
from rag_assets.assets.ingestion import ingestion_assets, ingestion_checks
from rag_assets.resources import EmbedderResource, LLMResource, ParserResource, ReportStore
from rag_assets.sensors import evaluate_job, inbox_sensor, ingest_job, stale_reports_schedule


def default_resources() -> dict:
    """Resources from the environment (all defaults work offline with no key)."""
    return {
        "store": ReportStore(),
        "parser": ParserResource(route=dg.EnvVar("RAG_ASSETS_PARSER").get_value("auto") or "auto"),
        "embedder": EmbedderResource(provider=dg.EnvVar("RAG_ASSETS_EMBEDDER").get_value("onnx") or "onnx"),
        "llm": LLMResource(),
    }


defs = dg.Definitions(
    assets=[*ingestion_assets, *answering_assets],
    asset_checks=ingestion_checks,
    jobs=[ingest_job, evaluate_job],
    sensors=[inbox_sensor],
    schedules=[stale_reports_schedule],
    resources=default_resources(),
)
