"""The Dagster code location: assets, checks, jobs, sensor, schedule and resources, in one place.

Ingestion settings come from the environment (so the UI, the daemon and `rag-assets ingest` agree on the code
versions): RAG_ASSETS_PARSER, RAG_ASSETS_EMBEDDER, RAG_ASSETS_CHUNK_CONTEXT, RAG_ASSETS_TABLE_SERIALIZATION,
RAG_ASSETS_INGEST_MODEL, RAG_ASSETS_OCR_RUNTIME, the threads RAG_ASSETS_EMBED_THREADS and
RAG_ASSETS_PARSER_THREADS (OCR, Docling); the executor from RAG_ASSETS_EXECUTOR (jobs.py)."""

from __future__ import annotations

import os

import dagster as dg
from pydantic import ValidationError

from rag_assets.config import SettingsError
from rag_assets.orchestration.answer_assets import answering_assets
from rag_assets.orchestration.automation import inbox_sensor, nightly_inbox_schedule
from rag_assets.orchestration.checks import ingestion_checks
from rag_assets.orchestration.ingest_assets import ingest_settings, ingestion_assets
from rag_assets.orchestration.jobs import build_jobs, executor_from_env
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore


def _from_env(cls, env, **variables):
    """A resource whose fields come from environment variables (field=VARIABLE); a bad value is one line."""
    values = {field: env[var] for field, var in variables.items() if env.get(var)}
    try:
        return cls(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        var = variables[err["loc"][0]]
        raise SettingsError(f"{var}={env[var]!r}: {err['msg']}") from None


RUNS_AT_ONCE = 2  # dagster.yaml: the run queue's max_concurrent_runs


def default_resources(env: dict | None = None, runs_at_once: int = RUNS_AT_ONCE) -> dict:
    """Resources from the environment (every default works offline with no key). The cores are shared by the
    runs that may run at once: two queued runs embed with one thread each on 2 cores (the CLI's in-process
    ingestion, one run at a time, passes 1 and gets every core); OCR and Docling the same.
    ``RAG_ASSETS_EMBED_THREADS`` and ``RAG_ASSETS_PARSER_THREADS`` override."""
    env = os.environ if env is None else env
    threads = str(max(1, (os.cpu_count() or 1) // max(1, runs_at_once)))
    env = {"RAG_ASSETS_EMBED_THREADS": threads, "RAG_ASSETS_PARSER_THREADS": threads, **env}
    return {
        "store": _from_env(ReportStore, env, chunk_context="RAG_ASSETS_CHUNK_CONTEXT",
                           table_serialization="RAG_ASSETS_TABLE_SERIALIZATION"),
        "parser": _from_env(ParserResource, env, route="RAG_ASSETS_PARSER", ocr_runtime="RAG_ASSETS_OCR_RUNTIME",
                            num_threads="RAG_ASSETS_PARSER_THREADS"),
        "embedder": _from_env(EmbedderResource, env, provider="RAG_ASSETS_EMBEDDER", threads="RAG_ASSETS_EMBED_THREADS"),
        "llm": _from_env(LLMResource, env, ingest_model="RAG_ASSETS_INGEST_MODEL"),
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
