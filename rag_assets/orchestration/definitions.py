"""The Dagster code location: assets, checks, jobs, sensor, schedule and resources, in one place.

Everything that varies comes from one ``Settings`` (``rag_assets.settings``, read from the environment so that
the UI, the daemon and ``rag-assets ingest`` agree on the code versions): the ingestion resources, the executor
and the schedule's cron. ``defs`` is the code location of this process's environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import partial

import dagster as dg
from pydantic import ValidationError

from rag_assets.orchestration.answer_assets import answering_assets
from rag_assets.orchestration.automation import build_inbox_sensor, nightly_inbox_schedule
from rag_assets.orchestration.deployments import Deployment, deployment_of
from rag_assets.orchestration.checks import ingestion_checks
from rag_assets.orchestration.ingest_assets import ingest_settings, ingestion_assets
from rag_assets.orchestration.jobs import build_jobs, executor_named
from rag_assets.orchestration.monitoring import (accuracy_by_config, build_status_sensor, ingestion_asset_graph,
                                                 report_status_asset, up_to_date_checks)
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore
from rag_assets.orchestration.root_settings import SHAPING, recorded, root_of, rooted
from rag_assets.settings import ENV_OF, Settings, invalid, read_settings

def _resource(cls, settings: Settings, **fields):
    """A resource whose fields come from settings (resource field=settings field; unset ones keep the
    resource's default); a value the resource refuses is one line naming the variable."""
    values = {field: getattr(settings, name) for field, name in fields.items() if getattr(settings, name) is not None}
    try:
        return cls(**values)
    except ValidationError as exc:
        name = fields[exc.errors()[0]["loc"][0]]
        raise invalid(ENV_OF[name], getattr(settings, name), exc) from None


def default_resources(env: Mapping[str, str] | Settings | None = None, runs_at_once: int | None = None) -> dict:
    """Resources from the settings (every default works offline with no key). The cores are shared by the
    runs that may run at once (default: the deployment's): on the `local` deployment two queued runs embed with
    one thread each on 2 cores (the CLI's in-process ingestion, one run at a time, passes 1 and gets every
    core); OCR and Docling the same. ``RAG_ASSETS_EMBED_THREADS`` and ``RAG_ASSETS_PARSER_THREADS`` override."""
    settings = env if isinstance(env, Settings) else read_settings(env)
    settings = rooted(settings, root_of(settings))  # the data root's index settings, whatever the environment
    runs_at_once = runs_at_once or deployment_of(settings).runs_at_once
    threads = max(1, (os.cpu_count() or 1) // max(1, runs_at_once))
    settings = settings.model_copy(update={"embed_threads": settings.embed_threads or threads,
                                           "parser_threads": settings.parser_threads or threads})
    return {
        "store": _resource(ReportStore, settings, chunk_context="chunk_context",
                           table_serialization="table_serialization"),
        "parser": _resource(ParserResource, settings, route="parser", ocr_runtime="ocr_runtime",
                            num_threads="parser_threads"),
        "embedder": _resource(EmbedderResource, settings, provider="embedder", threads="embed_threads"),
        "llm": _resource(LLMResource, settings, ingest_model="ingest_model"),
    }


def ingestion_graph(resources: dict) -> list:
    """The ingestion assets (versioned by the settings ``resources`` describe) and their checks."""
    settings = ingest_settings(resources["store"], resources["parser"], resources["embedder"], resources["llm"])
    return [*ingestion_assets(settings), *ingestion_checks()]


def current_graph(resources: dict):
    """The ingestion asset graph under the data root's settings as its file says now (a change made by another
    process counts without reloading the code location); ``resources``' own for a root of none."""
    recorded_now = recorded(resources["store"].root)
    updates: dict[str, dict] = {}
    for name, (cls, field) in SHAPING.items():  # each setting onto the resource field it sets
        if name in recorded_now:
            key = next(k for k, r in resources.items() if isinstance(r, cls))
            updates.setdefault(key, {})[field] = recorded_now[name]
    now = {**resources, **{k: resources[k].model_copy(update=u) for k, u in updates.items()}}
    return ingestion_asset_graph(ingestion_graph(now))


def build_definitions(resources: dict, executor: dg.ExecutorDefinition = dg.in_process_executor,
                      inbox_cron: str = Settings.model_fields["inbox_cron"].default,
                      sensor_running: bool = True) -> dg.Definitions:
    """The code location over ``resources``; the ingestion assets' code versions follow their settings."""
    ingestion = ingestion_graph(resources)
    graph_now = partial(current_graph, resources)
    return dg.Definitions(
        assets=[*ingestion, *answering_assets, accuracy_by_config, report_status_asset(ingestion)],
        asset_checks=up_to_date_checks(graph_now),
        jobs=build_jobs(executor),
        sensors=[build_inbox_sensor(sensor_running), build_status_sensor(graph_now, sensor_running)],
        schedules=[nightly_inbox_schedule(inbox_cron)],
        resources=resources,
        executor=executor,
    )


def definitions_for(settings: Settings) -> dg.Definitions:
    """The code location of one ``Settings`` on its deployment (``RAG_ASSETS_DEPLOYMENT``)."""
    deployment: Deployment = deployment_of(settings)
    executor = executor_named(deployment.executor, settings.celery_broker)
    return build_definitions(default_resources(settings, deployment.runs_at_once), executor, settings.inbox_cron,
                             deployment.sensor_running)


defs = definitions_for(read_settings())


def ingest_reports_job() -> dg.JobDefinition:
    """The ingestion job of this process's settings, as a reconstructable entry point: a run launched with
    ``dg.reconstructable(ingest_reports_job)`` is rebuilt the same way by every Celery worker that runs one
    of its steps (``RAG_ASSETS_DEPLOYMENT=cluster`` in the workers' environment too)."""
    return defs.resolve_job_def("ingest_reports")
