"""LLM resource: an OpenAI-compatible endpoint or an embedded GGUF model, by configuration."""

from __future__ import annotations

import os
from typing import Literal

import dagster as dg

from rag_assets.core.config import RunConfig


class LLMResource(dg.ConfigurableResource):
    """``route``: ``preset`` (what the run configuration says), ``llama_cpp`` (embedded GGUF, no network) or
    ``openai`` (any OpenAI-compatible endpoint: ``base_url``, key from ``OPENAI_API_KEY``)."""

    route: Literal["preset", "llama_cpp", "openai"] = "preset"
    model: str = ""  # overrides the preset's answer model (a GGUF path or name, or an API model)
    base_url: str = ""
    concurrency: int = 0  # 0: the preset's parallel_requests
    tokens_per_minute: int = 0  # 0: the preset's budget

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
