"""Array helpers shared by the embedders and the fused ONNX graph: padding token ids, mean pooling, unit rows."""

from __future__ import annotations

import numpy as np


def normalize(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return x / norms


def padded(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Rows of token ids padded with 0 to the longest (int64), and their attention mask."""
    width = max(len(r) for r in rows)
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for i, r in enumerate(rows):
        ids[i, : len(r)] = r
        mask[i, : len(r)] = 1
    return ids, mask


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Token states (batch, seq, dim) averaged over the tokens the mask keeps."""
    m = mask[..., None].astype(np.float32)
    return (hidden * m).sum(axis=1) / m.sum(axis=1).clip(min=1e-9)
