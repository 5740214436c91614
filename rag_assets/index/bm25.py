"""BM25 over chunks with bm25s (no pickle), and a tokenizer that keeps numbers, years and tickers."""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import bm25s
import numpy as np

from rag_assets.storage.atomic import atomic_dir

logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs every index build

TOKENIZER_VERSION = "bm25-tok-1"
IDS_FILE = "chunk_ids.json"

# Numbers with thousands separators and decimals are one token: "7,710,615" -> "7710615", "406.1" -> "406.1".
TOKEN_RE = re.compile(r"\d[\d,]*(?:\.\d+)?%?|[a-z][a-z0-9&]*(?:[.'’][a-z0-9]+)*", re.IGNORECASE)
STOPWORDS = frozenset(
    "a an and are as at be been but by for from had has have if in into is it its of on or our such that the "
    "their then there these they this to was were which will with within what who whom how did does do".split()
)


def tokenize(text: str) -> list[str]:
    """Lower-cased tokens; numbers keep their digits (commas dropped), '%' kept as its own token."""
    text = unicodedata.normalize("NFKC", text)
    out: list[str] = []
    for m in TOKEN_RE.finditer(text):
        tok = m.group(0).lower()
        if tok[0].isdigit():
            pct = tok.endswith("%")
            tok = tok.rstrip("%").replace(",", "")
            if tok.endswith(".0"):
                tok = tok[:-2]
            out.append(tok)
            if pct:
                out.append("%")
            continue
        tok = tok.replace("’", "'")
        if tok.endswith("'s"):
            tok = tok[:-2]
        if tok in STOPWORDS:
            continue
        out.append(tok)
    return out


@dataclass
class BM25Index:
    model: bm25s.BM25
    chunk_ids: list[str]

    @classmethod
    def build(cls, texts: list[str], chunk_ids: list[str], k1: float = 1.5, b: float = 0.75, method: str = "lucene"):
        if len(texts) != len(chunk_ids):
            raise ValueError(f"{len(texts)} texts for {len(chunk_ids)} chunk ids")
        model = bm25s.BM25(k1=k1, b=b, method=method)
        model.index([tokenize(t) or ["<empty>"] for t in texts] or [["<empty>"]], show_progress=False)
        return cls(model, list(chunk_ids))

    @property
    def n_docs(self) -> int:
        return len(self.chunk_ids)

    def save(self, directory: Path) -> None:
        with atomic_dir(Path(directory)) as tmp:
            self.model.save(str(tmp), show_progress=False)
            (tmp / IDS_FILE).write_text(
                json.dumps({"tokenizer": TOKENIZER_VERSION, "chunk_ids": self.chunk_ids}), encoding="utf-8"
            )

    @classmethod
    def load(cls, directory: Path, mmap: bool = False) -> "BM25Index":
        directory = Path(directory)
        meta = json.loads((directory / IDS_FILE).read_text(encoding="utf-8"))
        model = bm25s.BM25.load(str(directory), mmap=mmap, show_progress=False)
        return cls(model, meta["chunk_ids"])

    def scores(self, query: str) -> np.ndarray:
        vocab = self.model.vocab_dict
        toks = [t for t in tokenize(query) if t in vocab]
        if not toks or not self.chunk_ids:
            return np.zeros(len(self.chunk_ids), dtype=np.float32)
        return self.model.get_scores(toks)

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        s = self.scores(query)
        if not len(s):
            return []
        k = min(k, len(s))
        top = np.argpartition(-s, k - 1)[:k]
        top = top[np.argsort(-s[top], kind="stable")]
        return [(self.chunk_ids[i], float(s[i])) for i in top if s[i] > 0]
