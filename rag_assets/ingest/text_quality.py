"""Is a page's text layer readable? Detects missing text, glyph garbage and letter-shifted ("Caesar") text.

The dictionary is the whole-word part of the all-MiniLM-L6-v2 WordPiece vocabulary that ships with the
package (~20k English words), so no word list has to be downloaded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rag_assets.index.tokens import tokenizer

WORD_RE = re.compile(r"[A-Za-z]{3,}")
BAD_RE = re.compile("[\ue000-\uf8ff\ufffd]|\\(cid:\\d+\\)|glyph<[^>]*>|/g\\d+")


@lru_cache(maxsize=1)
def dictionary() -> frozenset[str]:
    vocab = tokenizer().get_vocab()
    return frozenset(w for w in vocab if w.isalpha() and len(w) >= 3)


def shift(word: str, k: int) -> str:
    out = []
    for ch in word:
        if "a" <= ch <= "z":
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        elif "A" <= ch <= "Z":
            out.append(chr((ord(ch) - 65 + k) % 26 + 65))
        else:
            out.append(ch)
    return "".join(out)


def known_share(words: list[str], k: int = 0) -> float:
    vocab = dictionary()
    if not words:
        return 0.0
    return sum(1 for w in words if shift(w, k).lower() in vocab) / len(words)


@dataclass(frozen=True)
class Quality:
    ok: bool
    reason: str = ""
    shift: int = 0  # letter shift that makes the text readable (0: none found)
    known_share: float = 1.0


def page_quality(text: str, has_images: bool = False, min_words: int = 15) -> Quality:
    """Whether a page's extracted text can be trusted, and if not why."""
    stripped = text.strip()
    if not stripped:
        return Quality(False, "no text layer" if has_images else "empty page", known_share=0.0)
    bad = len(BAD_RE.findall(stripped))
    if bad and bad / max(1, len(stripped.split())) > 0.2:
        return Quality(False, f"glyph garbage ({bad} unmapped glyphs)", known_share=0.0)
    words = WORD_RE.findall(stripped)
    if len(words) < min_words:
        return Quality(True, "", known_share=known_share(words) if words else 1.0)
    share = known_share(words)
    if share >= 0.45:
        return Quality(True, "", known_share=share)
    # lists of names and non-English pages score 20-45%: only near-zero shares are unreadable
    best_k, best = 0, share
    for k in range(1, 26):
        s = known_share(words[:200], k)
        if s > best:
            best_k, best = k, s
    if best_k and best >= 0.6:
        return Quality(False, f"letter-shifted text layer (shift {best_k})", shift=best_k, known_share=share)
    if share < 0.15:
        return Quality(False, f"unreadable text ({share:.0%} dictionary words)", known_share=share)
    return Quality(True, "", known_share=share)
