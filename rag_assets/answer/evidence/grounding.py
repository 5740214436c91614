"""Whether a page or a quote shows an answer: the quote is (nearly) word for word in what was read, the page
prints the number, the name or one of the names."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.numbers import grounded

QUOTE_NOISE_RE = re.compile(r"[|#*`\"'“”‘’]+")
WORD3_RE = re.compile(r"[a-z0-9][a-z0-9.,%-]*[a-z0-9%]|[a-z0-9]")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", QUOTE_NOISE_RE.sub(" ", text.lower())).strip()


def quote_in_context(quote: str, texts: list[str], min_share: float = 0.85) -> bool:
    """True if ``quote`` is (nearly) word for word in one of ``texts``: verbatim after folding case, spaces
    and table pipes, or with at least ``min_share`` of its words on one page."""
    q = _norm(quote)
    if len(q) < 8:
        return False
    words = [w for w in WORD3_RE.findall(q) if len(w) >= 3]
    for text in texts:
        t = _norm(text)
        if q in t:
            return True
        if len(words) >= 4:
            have = set(WORD3_RE.findall(t))
            if sum(1 for w in words if w in have) >= min_share * len(words):
                return True
    return False


def page_proves(kind: str, value, quote: str, text: str) -> bool:
    """The page prints the answer: the number (in some unit form), the name, one of the names, or (yes/no and
    anything else) the evidence quote."""
    if kind == "number" and isinstance(value, float):
        return grounded(value, [text])
    if kind == "name" and isinstance(value, str):
        return name_in(value, text)
    if kind == "names" and isinstance(value, list):
        return any(name_in(n, text) for n in value)
    return quote_in_context(quote, [text])


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def name_in(name: str, text: str) -> bool:
    """``name`` is printed in ``text`` (case and runs of whitespace folded)."""
    return flat(name) in flat(text)
