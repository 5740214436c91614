"""Embedder resource: local all-MiniLM-L6-v2 (default, offline) or OpenAI embeddings, by configuration."""

from __future__ import annotations

from typing import Literal

import dagster as dg
from pydantic import PrivateAttr

from rag_assets.core.embedding import Embedder, make_embedder


class EmbedderResource(dg.ConfigurableResource):
    """``provider``: ``onnx`` (int8 MiniLM, no PyTorch; default), ``sentence-transformers`` or ``openai``."""

    provider: Literal["onnx", "sentence-transformers", "openai"] = "onnx"
    model: str = ""  # onnx/st: a local model path; openai: the model name (default text-embedding-3-large)
    batch_size: int = 32
    base_url: str = ""  # openai-compatible endpoint

    _embedder: Embedder | None = PrivateAttr(default=None)

    def get(self) -> Embedder:
        if self._embedder is None:
            kwargs = {"batch_size": self.batch_size}
            if self.provider == "openai" and self.base_url:
                kwargs["base_url"] = self.base_url
            self._embedder = make_embedder(self.provider, self.model or None, **kwargs)
        return self._embedder

    def fingerprint(self) -> dict:
        return {"provider": self.provider, "model": self.model}
