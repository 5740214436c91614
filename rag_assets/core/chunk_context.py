"""Deterministic chunk context: company, report year, page and section heading, prepended to a chunk's text
before embedding and BM25 indexing (the chunk text itself, shown to the LLM, is unchanged)."""

from __future__ import annotations

import re
from collections import Counter

from rag_assets.core.cleaning import PageText

YEAR_RE = re.compile(r"\b(20[0-4]\d|19[89]\d)\b")
HEADING_RE = re.compile(r"^## (.+)$", re.MULTILINE)


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
