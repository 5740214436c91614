"""Chunk context, prepended to a chunk's text before embedding and BM25 indexing; the chunk text the
answering LLM sees is unchanged. Deterministic context (company, report year, page, section heading) is
always available; an LLM-written context (at most ~75 words, from the page and the report's outline) is an
option, cached per chunk input, model and prompt version."""

from __future__ import annotations

import logging
import re
from collections import Counter

from rag_assets.storage.artifacts import PageText

YEAR_RE = re.compile(r"\b(20[0-4]\d|19[89]\d)\b")
HEADING_RE = re.compile(r"^## (.+)$", re.MULTILINE)
log = logging.getLogger(__name__)


def report_year(pages: list[PageText], first_pages: int = 5) -> str:
    """The year most printed on the first pages (the report's fiscal year, as a rule)."""
    counts = Counter(y for p in pages[:first_pages] for y in YEAR_RE.findall(p.text))
    return counts.most_common(1)[0][0] if counts else ""


def section_headings(pages: list[PageText]) -> dict[int, list[str]]:
    """For every page, the headings in force along it: the last one of earlier pages, then its own."""
    out: dict[int, list[str]] = {}
    current = ""
    for p in pages:
        own = [h.strip() for h in HEADING_RE.findall(p.text) if len(h.strip()) > 2]
        out[p.page_index] = ([current] if current else []) + own
        if own:
            current = own[-1]
    return out


def heading_for(chunk_text: str, candidates: list[str]) -> str:
    """The heading a chunk sits under: the last heading of its page printed before its text, else the carry."""
    if not candidates:
        return ""
    inside = [h for h in candidates if f"## {h}" in chunk_text]
    return inside[-1] if inside else candidates[0]


def deterministic_context(company: str, year: str, page_index: int, heading: str) -> str:
    parts = [company]
    if year:
        parts.append(f"annual report {year}")
    parts.append(f"page {page_index}")
    if heading:
        parts.append(heading[:120])
    return " | ".join(p for p in parts if p)


# -- LLM-written context ------------------------------------------------------------------------------

LLM_TASK = "chunk_context"
LLM_CONTEXT_WORDS = 75


def page_headings(pages: list[PageText]) -> list[tuple[int, str]]:
    """(page_index, heading) of every distinct heading, in page order."""
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    for p in pages:
        for h in HEADING_RE.findall(p.text):
            h = h.strip()
            if len(h) > 2 and len(h) <= 120 and h.lower() not in seen:
                seen.add(h.lower())
                out.append((p.page_index, h))
    return out


def document_outline(headings: list[tuple[int, str]], near_page: int, global_n: int = 20, local_n: int = 20,
                     window: int = 15) -> str:
    """The report's outline seen from one page: ``global_n`` headings spread over the report, then up to
    ``local_n`` headings nearest ``near_page`` (within ``window`` pages); one "p<page>: heading" line each, in
    page order."""
    if len(headings) > global_n:
        step = len(headings) / global_n
        spread = [headings[int(i * step)] for i in range(global_n)]
    else:
        spread = list(headings)
    near = [x for x in headings if abs(x[0] - near_page) <= window and x not in spread]
    local = sorted(near, key=lambda x: abs(x[0] - near_page))[:local_n]  # the nearest first
    lines = sorted(set(spread + local))
    return "\n".join(f"p{p}: {h}" for p, h in lines) or "(no headings found)"


def clean_llm_context(text: str, max_words: int = LLM_CONTEXT_WORDS) -> str:
    """The model's reply as one line of at most ``max_words`` words (preambles and quotes removed)."""
    text = re.sub(r"^\s*(context|answer)\s*:\s*", "", text.strip(), flags=re.IGNORECASE)
    text = text.strip().strip('"').strip()
    words = text.split()
    return " ".join(words[:max_words])


def llm_chunk_contexts(
    chunks: list[tuple[str, int, str]],
    pages: list[PageText],
    company: str,
    llm,
    cache=None,
    page_chars: int = 6000,
    max_output_tokens: int = 120,
    progress=None,
):
    """chunk_id -> LLM-written context for ``chunks`` [(chunk_id, page_index, text)], with its LLMCost.

    Chunks go page by page so a llama.cpp model reuses the shared prompt prefix (outline + page).
    ``progress(done, total)`` is called after every chunk."""
    from rag_assets.llm.cached_map import cached_map
    from rag_assets.llm.prompts import build_messages, load_prompt

    by_page = {p.page_index: p for p in pages}
    headings = page_headings(pages)
    outlines: dict[int, str] = {}

    def messages_for(chunk):
        _, page_index, text = chunk
        if page_index not in outlines:
            outlines[page_index] = document_outline(headings, page_index)
        page = by_page.get(page_index)
        return build_messages(LLM_TASK, company=company or "the company", outline=outlines[page_index],
                              page_index=str(page_index), page=(page.text if page else "")[:page_chars],
                              chunk=text)[0]

    def ask(chunk, messages, cost):
        try:
            resp = llm.chat(messages, max_tokens=max_output_tokens)
        except Exception as exc:  # one failed chunk keeps its deterministic context only
            cost.failures += 1
            log.warning("no LLM context for %s: %s", chunk[0], exc)
            return None
        cost.add_calls([resp])
        context = clean_llm_context(resp.text)
        cost.failures += 0 if context else 1
        return context

    ordered = sorted(chunks, key=lambda c: (c[1], c[0]))
    results, cost = cached_map(ordered, messages_for, ask, llm, cache, LLM_TASK, load_prompt(LLM_TASK).version,
                               progress)
    return {c[0]: ctx for c, ctx in zip(ordered, results) if ctx}, cost
