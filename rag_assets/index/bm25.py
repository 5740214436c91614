"""BM25 with bm25s (no pickle) over chunks and over whole pages, and a tokenizer that keeps numbers, years and
tickers and stems words (Snowball English), so 'acquisitions' finds 'acquisition' and 'revenues' 'revenue'."""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import bm25s
import numpy as np
import Stemmer

from rag_assets.storage.atomic import atomic_dir

logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs every index build

TOKENIZER_VERSION = "bm25-tok-2-stem"
IDS_FILE = "chunk_ids.json"
PAGES_SUBDIR = "pages"  # the page index, inside the chunk index's folder: one swap replaces both

# Numbers with thousands separators and decimals are one token: "7,710,615" -> "7710615", "406.1" -> "406.1".
TOKEN_RE = re.compile(r"\d[\d,]*(?:\.\d+)?%?|[a-z][a-z0-9&]*(?:[.'’][a-z0-9]+)*", re.IGNORECASE)
STOPWORDS = frozenset(
    "a an and are as at be been but by for from had has have if in into is it its of on or our such that the "
    "their then there these they this to was were which will with within what who whom how did does do".split()
)


_STEMMER = Stemmer.Stemmer("english")


class StaleIndexError(ValueError):
    """A BM25 index written by another tokenizer: its terms would not match the query's."""


def tokenize(text: str) -> list[str]:
    """Lower-cased, stemmed tokens without stopwords; numbers keep their digits (commas dropped), '%' kept as
    its own token."""
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
        out.append(_STEMMER.stemWord(tok))
    return out


def token_ids(docs: list[list[str]]) -> bm25s.tokenization.Tokenized:
    """The documents as token ids over a vocabulary in sorted order: the same chunks give the same index bytes
    in any process (bm25s numbers tokens by a set's order, which follows the process's hash seed)."""
    vocab = {tok: i for i, tok in enumerate(sorted({t for doc in docs for t in doc}))}
    return bm25s.tokenization.Tokenized(ids=[[vocab[t] for t in doc] for doc in docs], vocab=vocab)


@dataclass
class BM25Index:
    model: bm25s.BM25
    chunk_ids: list[str]

    @classmethod
    def build(cls, texts: list[str], chunk_ids: list[str], k1: float = 1.5, b: float = 0.75, method: str = "lucene"):
        if len(texts) != len(chunk_ids):
            raise ValueError(f"{len(texts)} texts for {len(chunk_ids)} chunk ids")
        model = bm25s.BM25(k1=k1, b=b, method=method)
        model.index(token_ids([tokenize(t) or ["<empty>"] for t in texts] or [["<empty>"]]), show_progress=False)
        return cls(model, list(chunk_ids))

    @property
    def n_docs(self) -> int:
        return len(self.chunk_ids)

    def save(self, directory: Path) -> None:
        with atomic_dir(Path(directory)) as tmp:
            self.write(tmp)

    def write(self, directory: Path) -> None:
        """Write into ``directory`` as it is (the caller makes it atomic)."""
        directory.mkdir(parents=True, exist_ok=True)
        self.model.save(str(directory), show_progress=False)
        (directory / IDS_FILE).write_text(
            json.dumps({"tokenizer": TOKENIZER_VERSION, "chunk_ids": self.chunk_ids}), encoding="utf-8"
        )

    @classmethod
    def load(cls, directory: Path, mmap: bool = False) -> "BM25Index":
        directory = Path(directory)
        meta = json.loads((directory / IDS_FILE).read_text(encoding="utf-8"))
        if meta.get("tokenizer") != TOKENIZER_VERSION:
            raise StaleIndexError(f"{directory} was built by tokenizer {meta.get('tokenizer')!r}, this code uses "
                                  f"{TOKENIZER_VERSION!r}: run `rag-assets ingest` to rebuild it")
        model = bm25s.BM25.load(str(directory), mmap=mmap, show_progress=False)
        return cls(model, meta["chunk_ids"])

    def scores(self, query: str | list[str]) -> np.ndarray:
        """BM25 score of every document for a text, or for tokens already made by ``tokenize`` (a token given
        twice counts twice)."""
        vocab = self.model.vocab_dict
        toks = [t for t in (tokenize(query) if isinstance(query, str) else query) if t in vocab]
        if not toks or not self.chunk_ids:
            return np.zeros(len(self.chunk_ids), dtype=np.float32)
        return self.model.get_scores(toks)

    def search(self, query: str | list[str], k: int) -> list[tuple[str, float]]:
        s = self.scores(query)
        if not len(s):
            return []
        k = min(k, len(s))
        top = np.argpartition(-s, k - 1)[:k]
        top = top[np.argsort(-s[top], kind="stable")]
        return [(self.chunk_ids[i], float(s[i])) for i in top if s[i] > 0]
