"""LLM resource: an OpenAI-compatible endpoint or an embedded GGUF model, by configuration."""

from __future__ import annotations

from typing import Literal

import dagster as dg
from pydantic import Field, PrivateAttr

from rag_assets.config import RunConfig
from rag_assets.settings import read_settings


class LLMResource(dg.ConfigurableResource):
    """The LLMs of a run: the answering LLM of a run configuration (with overrides), and the ingestion LLM
    (table statements, chunk contexts), loaded once per run."""

    route: Literal["preset", "llama_cpp", "openai"] = Field(
        default="preset", description="preset: what the run configuration says; llama_cpp: an embedded GGUF model "
        "(no network); openai: an OpenAI-compatible endpoint (base_url, key from OPENAI_API_KEY)")
    model: str = Field(default="", description="overrides the configuration's answer model (GGUF name or path, or "
                       "an API model)")
    base_url: str = Field(default="", description="OpenAI-compatible endpoint (default $OPENAI_BASE_URL)")
    concurrency: int = Field(default=0, description="parallel LLM requests (0: the configuration's)")
    tokens_per_minute: int = Field(default=0, description="API token budget per minute (0: the configuration's)")
    retries: int = Field(default=-1, description="API retries of a failed call (-1: the configuration's)")
    ingest_model: str = Field(default="qwen2.5-coder-0.5b", description="LLM of ingestion: table statements and "
                              "chunk contexts (embedded unless route is openai)")
    _ingest_client: object = PrivateAttr(default=None)

    def client(self, cfg: RunConfig):
        """The LLM client for a (resolved) run configuration."""
        from rag_assets.llm.factory import build_llm

        return build_llm(cfg)

    def overrides(self) -> dict:
        """The run configuration fields this resource overrides."""
        update: dict = {}
        if self.route != "preset":
            update["llm"] = self.route
        if self.model:
            update["answer_model"] = self.model
        base_url = self.base_url or read_settings().openai_base_url or ""
        if base_url:
            update["base_url"] = base_url
        if self.concurrency:
            update["parallel_requests"] = self.concurrency
        if self.tokens_per_minute:
            update["tokens_per_minute"] = self.tokens_per_minute
        if self.retries >= 0:
            update["llm_retries"] = self.retries
        return update

    def ingest_client(self):
        """The ingestion LLM: ``ingest_model`` on the embedded route unless ``route`` is ``openai``."""
        from rag_assets.llm.factory import build_llm

        if self._ingest_client is None:
            cfg = RunConfig(name="ingest", llm=self._ingest_route, answer_model=self.ingest_model,
                            base_url=self.base_url or read_settings().openai_base_url or "", n_ctx=8192,
                            parallel_requests=max(1, self.concurrency))
            self._ingest_client = build_llm(cfg)
        return self._ingest_client

    @property
    def _ingest_route(self) -> str:
        return "openai" if self.route == "openai" else "llama_cpp"

    def ingest_fingerprint(self) -> dict:
        return {"route": self._ingest_route, "model": self.ingest_model}
