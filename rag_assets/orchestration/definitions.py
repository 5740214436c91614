"""The Dagster code location: assets, checks, jobs, sensor, schedule and resources, in one place.

Ingestion settings come from the environment (so the UI, the daemon and `rag-assets ingest` agree on the code
versions): RAG_ASSETS_PARSER, RAG_ASSETS_EMBEDDER, RAG_ASSETS_CHUNK_CONTEXT, RAG_ASSETS_TABLE_SERIALIZATION,
RAG_ASSETS_INGEST_MODEL; the executor from RAG_ASSETS_EXECUTOR (jobs.py)."""

from __future__ import annotations

import os

import dagster as dg

from rag_assets.orchestration.answer_assets import answering_assets
from rag_assets.orchestration.automation import inbox_sensor, nightly_inbox_schedule
from rag_assets.orchestration.checks import ingestion_checks
from rag_assets.orchestration.ingest_assets import ingest_settings, ingestion_assets
from rag_assets.orchestration.jobs import build_jobs, executor_from_env
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore


def default_resources(env: dict | None = None) -> dict:
    """Resources from the environment (every default works offline with no key)."""
    env = os.environ if env is None else env
    llm = {"ingest_model": env["RAG_ASSETS_INGEST_MODEL"]} if env.get("RAG_ASSETS_INGEST_MODEL") else {}
    return {
        "store": ReportStore(chunk_context=env.get("RAG_ASSETS_CHUNK_CONTEXT") or "none",
                             table_serialization=env.get("RAG_ASSETS_TABLE_SERIALIZATION", "") in ("1", "true")),
        "parser": ParserResource(route=env.get("RAG_ASSETS_PARSER") or "auto"),
        "embedder": EmbedderResource(provider=env.get("RAG_ASSETS_EMBEDDER") or "onnx"),
        "llm": LLMResource(**llm),
    }


def ingestion_graph(resources: dict) -> list:
    """The ingestion assets (versioned by the settings ``resources`` describe) and their checks."""
    settings = ingest_settings(resources["store"], resources["parser"], resources["embedder"], resources["llm"])
    return [*ingestion_assets(settings), *ingestion_checks()]


def build_definitions(resources: dict, executor: dg.ExecutorDefinition = dg.in_process_executor) -> dg.Definitions:
    """The code location over ``resources``; the ingestion assets' code versions follow their settings."""
    return dg.Definitions(
        assets=[*ingestion_graph(resources), *answering_assets],
        jobs=build_jobs(executor),
        sensors=[inbox_sensor],
        schedules=[nightly_inbox_schedule],
        resources=resources,
        executor=executor,
    )


defs = build_definitions(default_resources(), executor_from_env(os.environ))
