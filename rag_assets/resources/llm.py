"""LLM resource: an OpenAI-compatible endpoint or an embedded GGUF model, by configuration."""

from __future__ import annotations

import os
import threading
from typing import Literal

import dagster as dg

from rag_assets.core.config import RunConfig

# Dagster builds a fresh resource object for every run; an embedded model is loaded once per process instead.
_INGEST_CLIENTS: dict[tuple, object] = {}
_LOCK = threading.Lock()


class LLMResource(dg.ConfigurableResource):
    """``route``: ``preset`` (what the run configuration says), ``llama_cpp`` (embedded GGUF, no network) or
    ``openai`` (any OpenAI-compatible endpoint: ``base_url``, key from ``OPENAI_API_KEY``)."""

    route: Literal["preset", "llama_cpp", "openai"] = "preset"
    model: str = ""  # overrides the preset's answer model (a GGUF path or name, or an API model)
    base_url: str = ""
    concurrency: int = 0  # 0: the preset's parallel_requests
    tokens_per_minute: int = 0  # 0: the preset's budget
    ingest_model: str = "qwen2.5-coder-0.5b"  # LLM for table statements and chunk contexts in ingestion

    def client(self, cfg: RunConfig):
        """The LLM client for a (resolved) run configuration."""
        from rag_assets.core.runner import build_llm

        return build_llm(cfg)

    def apply(self, cfg: RunConfig) -> RunConfig:
        """The run configuration with this resource's overrides applied."""
        update = {}
        if self.route != "preset":
            update["llm"] = self.route
        if self.model:
            update["answer_model"] = self.model
        base_url = self.base_url or os.environ.get("OPENAI_BASE_URL", "")
        if base_url:
            update["base_url"] = base_url
        if self.concurrency:
            update["parallel_requests"] = self.concurrency
        if self.tokens_per_minute:
            update["tokens_per_minute"] = self.tokens_per_minute
        return cfg.model_copy(update=update) if update else cfg

    def ingest_client(self):
        """The LLM of ingestion (table serialization, chunk contexts): ``ingest_model`` on the embedded
        llama.cpp route unless ``route`` is ``openai``; one per process."""
        from rag_assets.core.runner import build_llm

        llm = self._ingest_route
        base_url = self.base_url or os.environ.get("OPENAI_BASE_URL", "")
        key = (llm, self.ingest_model, base_url)
        with _LOCK:
            if key not in _INGEST_CLIENTS:
                cfg = RunConfig(name="ingest", llm=llm, answer_model=self.ingest_model, base_url=base_url,
                                n_ctx=8192, parallel_requests=max(1, self.concurrency))
                _INGEST_CLIENTS[key] = build_llm(cfg)
            return _INGEST_CLIENTS[key]

    @property
    def _ingest_route(self) -> str:
        return "openai" if self.route == "openai" else "llama_cpp"

    def ingest_fingerprint(self) -> dict:
        return {"route": self._ingest_route, "model": self.ingest_model}
