"""Embedder resource: local all-MiniLM-L6-v2 (default, offline) or OpenAI embeddings, by configuration."""

from __future__ import annotations


import dagster as dg
from pydantic import Field, PrivateAttr

from rag_assets.index.embedding import Embedder, MiniLMOnnxEmbedder, make_embedder
from rag_assets.settings import EmbedderKind


class EmbedderResource(dg.ConfigurableResource):
    """Embeds chunk texts for the FAISS index. The model loads once per run (the ingestion job runs in process,
    so every step of a run shares it) and is let go when the run ends."""

    provider: EmbedderKind = Field(
        default="onnx", description="onnx: all-MiniLM-L6-v2 from a package, int8 arithmetic (offline, default); "
        "sentence-transformers: a local model folder; openai: an OpenAI-compatible embeddings endpoint")
    model: str = Field(default="", description="onnx/sentence-transformers: a local model path; openai: the model "
                       "name (default text-embedding-3-large)")
    batch_size: int = Field(default=0, description="texts per model batch (onnx, sentence-transformers) or per "
                            "API call (openai); 0: the embedder's own default (onnx 1, sentence-transformers 32, "
                            "openai 256)")
    base_url: str = Field(default="", description="openai provider: the endpoint (empty: api.openai.com)")
    threads: int = Field(default=0, ge=0, description="onnx provider: inference threads (0: one per core). Two "
                         "runs at once with one thread each beat one run with two on 2 cores (README, Benchmark)")
    _embedder: Embedder | None = PrivateAttr(default=None)

    def get(self) -> Embedder:
        if self._embedder is None:
            kwargs = {"batch_size": self.batch_size} if self.batch_size > 0 else {}
            if self.provider == "onnx" and self.threads > 0:
                kwargs["threads"] = self.threads
            if self.provider == "openai" and self.base_url:
                kwargs["base_url"] = self.base_url
            self._embedder = make_embedder(self.provider, self.model or None, **kwargs)
        return self._embedder

    def teardown_after_execution(self, context) -> None:
        """The run is over: its model (two ONNX sessions, ~100 MB) goes now, not when Python's cycle collector
        gets to the run's objects (ingesting 28 filings in one process grew to 2.5 GiB without this)."""
        self._embedder = None

    def fingerprint(self) -> dict:
        """What decides the vectors: the provider, its model and (onnx) the arithmetic of the default graph."""
        arithmetic = {"vectors": MiniLMOnnxEmbedder.INT8_NAME} if self.provider == "onnx" and not self.model else {}
        return {"provider": self.provider, "model": self.model, **arithmetic}
