"""The passage of a page that best matches a keyword query: what a reranker or reader reads instead of the whole
page, and how well a page's best passage covers the query (the proximity ranking of ``search``)."""

from __future__ import annotations

from collections import Counter

from rag_assets.index.bm25 import tokenize


def query_weights(own: tuple[str, ...], added: tuple[str, ...] = ()) -> dict[str, float]:
    """What each query word is worth in a passage: the question's own words 2, synonyms 1."""
    weight = {t: 1.0 for t in added}
    weight.update({t: 2.0 for t in own})
    return weight


def best_window(lines: list[str], weight: dict[str, float], max_chars: int, long_lines: bool = False,
                line_tokens: list[frozenset[str]] | None = None) -> tuple[int, int, float]:
    """(start, end, score) of the run of consecutive ``lines`` (at most ``max_chars`` with newlines) whose
    distinct query words weigh most; ties go to the earlier run. A line longer than ``max_chars`` is a run of
    its own if ``long_lines``, else no run starts there ((0, 0, 0.0) when none fits). Two pointers: linear.
    ``line_tokens``: each line's tokens, if already known."""
    toks = [t & weight.keys() for t in (line_tokens or [frozenset(tokenize(ln)) for ln in lines])]
    have: Counter[str] = Counter()
    best, best_score = (0, 0), -1.0
    end = size = 0
    score = 0.0
    for start in range(len(lines)):
        if end <= start:  # the window is empty: it opens on this line
            end, size, have, score = start, 0, Counter(), 0.0
        while end < len(lines) and (size + len(lines[end]) <= max_chars or (long_lines and end == start)):
            size += len(lines[end]) + 1
            for t in toks[end]:
                have[t] += 1
                score += weight[t] if have[t] == 1 else 0.0
            end += 1
        if end == start:  # this line alone is too long
            continue
        if score > best_score:
            best, best_score = (start, end), score
        size -= len(lines[start]) + 1
        for t in toks[start]:
            have[t] -= 1
            score -= weight[t] if have[t] == 0 else 0.0
    return best[0], best[1], max(best_score, 0.0)


def best_passage(text: str, own: tuple[str, ...], added: tuple[str, ...] = (), max_chars: int = 900) -> str:
    """The run of consecutive lines (at most ``max_chars``) holding the most distinct query words: the
    question's own words count 2, synonyms 1; ties go to the earlier run. Short pages come back whole."""
    if len(text) <= max_chars:
        return text
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return text[:max_chars]
    start, end, _ = best_window(lines, query_weights(own, added), max_chars)
    if end == start:  # every line is longer than max_chars
        return lines[0][:max_chars]
    return "\n".join(lines[start:end])


def page_lines(text: str) -> tuple[list[str], list[frozenset[str]]]:
    """A page's non-blank lines and each line's tokens: what ``window_score`` reads (worth keeping per page)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines, [frozenset(tokenize(ln)) for ln in lines]


def window_score(lines: tuple[list[str], list[frozenset[str]]], own: tuple[str, ...], added: tuple[str, ...] = (),
                 max_chars: int = 400) -> float:
    """How much of the query a page's best ``max_chars`` window holds (distinct words, own 2, synonyms 1; a
    paragraph longer than the window counts as one window). ``lines``: the page's ``page_lines``."""
    text_lines, tokens = lines
    return best_window(text_lines, query_weights(own, added), max_chars, True, tokens)[2]
