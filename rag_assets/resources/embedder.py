"""Embedder resource: local all-MiniLM-L6-v2 (default, offline) or OpenAI embeddings, by configuration."""

from __future__ import annotations

import threading
from typing import Literal

import dagster as dg

from rag_assets.core.embedding import Embedder, make_embedder

# Dagster builds a fresh resource object for every run; the model is loaded once per process instead.
_EMBEDDERS: dict[tuple, Embedder] = {}
_LOCK = threading.Lock()


class EmbedderResource(dg.ConfigurableResource):
    """``provider``: ``onnx`` (int8 MiniLM, no PyTorch; default), ``sentence-transformers`` or ``openai``."""

    provider: Literal["onnx", "sentence-transformers", "openai"] = "onnx"
    model: str = ""  # onnx/st: a local model path; openai: the model name (default text-embedding-3-large)
    batch_size: int = 32
    base_url: str = ""  # openai-compatible endpoint

    def get(self) -> Embedder:
        key = (self.provider, self.model, self.batch_size, self.base_url)
        with _LOCK:
            if key not in _EMBEDDERS:
                kwargs = {"batch_size": self.batch_size}
                if self.provider == "openai" and self.base_url:
                    kwargs["base_url"] = self.base_url
                _EMBEDDERS[key] = make_embedder(self.provider, self.model or None, **kwargs)
            return _EMBEDDERS[key]

    def fingerprint(self) -> dict:
        return {"provider": self.provider, "model": self.model}
