"""The passage of a page that best matches a keyword query: what a reranker reads instead of the whole page."""

from __future__ import annotations

from rag_assets.index.bm25 import tokenize


def best_passage(text: str, own: tuple[str, ...], added: tuple[str, ...] = (), max_chars: int = 900) -> str:
    """The run of consecutive lines (at most ``max_chars``) holding the most distinct query words: the
    question's own words count 2, synonyms 1; ties go to the earlier run. Short pages come back whole."""
    if len(text) <= max_chars:
        return text
    weight = {t: 1.0 for t in added}
    weight.update({t: 2.0 for t in own})
    lines = [ln for ln in text.splitlines() if ln.strip()]
    toks = [set(tokenize(ln)) & weight.keys() for ln in lines]
    best, best_score = (0, 0), -1.0
    for start in range(len(lines)):
        size, have, end = 0, set(), start
        while end < len(lines) and size + len(lines[end]) <= max_chars:
            size += len(lines[end]) + 1
            have |= toks[end]
            end += 1
        score = sum(weight[t] for t in have)
        if score > best_score and end > start:
            best, best_score = (start, end), score
    start, end = best
    if end == start:  # one line longer than max_chars
        return lines[start][:max_chars] if lines else text[:max_chars]
    return "\n".join(lines[start:end])
