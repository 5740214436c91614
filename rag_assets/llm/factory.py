"""The LLM client of a run configuration: an OpenAI-compatible endpoint, or an embedded GGUF model."""

from __future__ import annotations


from rag_assets.config import RunConfig
from rag_assets.settings import read_settings


def build_llm(cfg: RunConfig, model: str | None = None):
    """The LLM client of ``cfg``: an OpenAI-compatible endpoint, or an embedded GGUF model. For the embedded
    route the backend is checked before any model is fetched (``BackendMissing`` says what to install)."""
    from rag_assets.llm.clients import OpenAICompatibleLLM

    model = model or cfg.answer_model
    if cfg.llm == "openai":
        return OpenAICompatibleLLM(
            model=model,
            base_url=cfg.base_url or read_settings().openai_base_url,
            concurrency=max(1, cfg.parallel_requests),
            max_retries=max(0, cfg.llm_retries),
            tokens_per_minute=cfg.tokens_per_minute,
        )
    from rag_assets.llm.embedded import embedded_llm, resolve_backend
    from rag_assets.llm.models import ensure_model

    backend = resolve_backend(cfg.llm_backend)
    return embedded_llm(str(ensure_model(model)), backend=backend, n_ctx=cfg.n_ctx)
