"""Token counting with the all-MiniLM-L6-v2 WordPiece tokenizer that ships in this package."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from tokenizers import Tokenizer

TOKENIZER_PATH = Path(__file__).resolve().parents[1] / "models" / "minilm" / "tokenizer.json"


@lru_cache(maxsize=1)
def tokenizer() -> Tokenizer:
    tok = Tokenizer.from_file(str(TOKENIZER_PATH))
    tok.no_truncation()
    tok.no_padding()
    return tok


def count_tokens(texts: list[str]) -> list[int]:
    """Number of word-piece tokens (no special tokens) of each text."""
    if not texts:
        return []
    tok = tokenizer()
    encode = getattr(tok, "encode_batch_fast", tok.encode_batch)  # no offsets needed: faster when available
    return [len(e.ids) for e in encode(texts, add_special_tokens=False)]


def split_by_tokens(text: str, max_tokens: int, overlap: int) -> list[str]:
    """Split ``text`` into windows of at most ``max_tokens`` tokens overlapping by ``overlap``, cut at word edges."""
    enc = tokenizer().encode(text, add_special_tokens=False)
    offsets = enc.offsets
    words = enc.word_ids
    n = len(offsets)
    if n <= max_tokens:
        return [text]
    out = []
    start = 0
    while start < n:
        end = min(n, start + max_tokens)
        # do not cut inside a word
        while end < n and end > start + 1 and words[end] is not None and words[end] == words[end - 1]:
            end -= 1
        out.append(text[offsets[start][0] : offsets[end - 1][1]])
        if end >= n:
            break
        nxt = max(end - overlap, start + 1)
        while nxt > start + 1 and words[nxt] is not None and words[nxt] == words[nxt - 1]:
            nxt -= 1
        start = nxt
    return out
