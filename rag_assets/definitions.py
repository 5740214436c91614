"""The Dagster code location: assets, checks, jobs, sensor, schedule and resources."""

from __future__ import annotations

import dagster as dg

from rag_assets.assets.ingestion import ingestion_assets, ingestion_checks
from rag_assets.resources import EmbedderResource, ParserResource, ReportStore
from rag_assets.sensors import inbox_sensor, ingest_job, stale_reports_schedule


def default_resources() -> dict:
    """Resources from the environment (all defaults work offline with no key)."""
    return {
        "store": ReportStore(),
        "parser": ParserResource(route=dg.EnvVar("RAG_ASSETS_PARSER").get_value("auto") or "auto"),
        "embedder": EmbedderResource(provider=dg.EnvVar("RAG_ASSETS_EMBEDDER").get_value("onnx") or "onnx"),
    }


defs = dg.Definitions(
    assets=ingestion_assets,
    asset_checks=ingestion_checks,
    jobs=[ingest_job],
    sensors=[inbox_sensor],
    schedules=[stale_reports_schedule],
    resources=default_resources(),
)
