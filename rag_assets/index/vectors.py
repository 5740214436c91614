"""FAISS inner-product index over normalized chunk embeddings, with its row -> chunk_id map beside it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import faiss
import numpy as np

from rag_assets.storage.atomic import atomic_dir
from rag_assets.index.embedding import EmbeddingModelMismatch

INDEX_FILE = "index.faiss"
META_FILE = "meta.json"


@dataclass
class VectorIndex:
    index: faiss.Index
    chunk_ids: list[str]
    model_name: str
    dim: int

    @classmethod
    def build(cls, vectors: np.ndarray, chunk_ids: list[str], model_name: str) -> "VectorIndex":
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if len(vectors) != len(chunk_ids):
            raise ValueError(f"{len(vectors)} vectors for {len(chunk_ids)} chunk ids")
        dim = int(vectors.shape[1]) if vectors.ndim == 2 and len(vectors) else 0
        index = faiss.IndexFlatIP(dim or 1)
        if len(vectors):
            index.add(vectors)
        return cls(index, list(chunk_ids), model_name, dim)

    @property
    def ntotal(self) -> int:
        return int(self.index.ntotal)

    def save(self, directory: Path) -> None:
        """Write index and metadata to a temp dir, then swap it in (never a half-written index)."""
        with atomic_dir(Path(directory)) as tmp:
            faiss.write_index(self.index, str(tmp / INDEX_FILE))
            (tmp / META_FILE).write_text(
                json.dumps(
                    {"model_name": self.model_name, "dim": self.dim, "ntotal": self.ntotal, "chunk_ids": self.chunk_ids}
                ),
                encoding="utf-8",
            )

    @classmethod
    def load(cls, directory: Path) -> "VectorIndex":
        directory = Path(directory)
        meta = json.loads((directory / META_FILE).read_text(encoding="utf-8"))
        index = faiss.read_index(str(directory / INDEX_FILE))
        if index.ntotal != len(meta["chunk_ids"]):
            raise ValueError(f"{directory}: {index.ntotal} vectors but {len(meta['chunk_ids'])} chunk ids")
        return cls(index, meta["chunk_ids"], meta["model_name"], meta["dim"])

    def search(self, query: np.ndarray, k: int, model_name: str) -> list[tuple[str, float]]:
        """Top-k (chunk_id, cosine) for one query vector; refuses a query from another embedding model."""
        if model_name != self.model_name:
            raise EmbeddingModelMismatch(
                f"index built with {self.model_name!r} cannot be searched with a {model_name!r} query"
            )
        if self.ntotal == 0 or k <= 0:
            return []
        q = np.ascontiguousarray(np.asarray(query, dtype=np.float32).reshape(1, -1))
        if q.shape[1] != self.dim:
            raise EmbeddingModelMismatch(f"query has dimension {q.shape[1]}, index has {self.dim}")
        scores, rows = self.index.search(q, min(k, self.ntotal))
        return [(self.chunk_ids[r], float(s)) for r, s in zip(rows[0], scores[0]) if r >= 0]
