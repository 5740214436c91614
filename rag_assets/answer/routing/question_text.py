"""What a question's text says beyond its words: the query searched (without the template's tail and the
company's name), what a comparison compares and in which direction, and whether it is too long to answer."""

from __future__ import annotations

import re

from rag_assets.answer.routing.router import normalize_name
from rag_assets.config import RunConfig

INSTRUCTION_TAIL_RE = re.compile(
    r"\s*(If (data|there) is not available|If there is no mention|Give me the title|If data is not)[^?]*$", re.I
)
LOWEST_RE = re.compile(r"\b(lowest|least|smallest|minimum|fewest|lower|smaller)\b", re.I)
HIGHEST_RE = re.compile(r"\b(highest|largest|most|greatest|maximum|biggest|higher|larger|top)\b", re.I)
COMPARE_HEAD_RE = re.compile(r"^\s*which\s+(?:of\s+the\s+)?compan(?:y|ies)\s+(?:had|has|have|reported|showed|was|"
                             r"were|is)\s+(?:the\s+)?", re.I)
QUOTED_LIST_RE = re.compile(r"[:,]?\s*(?:\"[^\"]*\"\s*(?:,|\band\b|\bor\b)?\s*)+\??\s*$")
IN_REPORTS_RE = re.compile(r"\b(?:in|according to)\s+(?:their|its|the)\s+annual\s+reports?\b", re.I)


def comparative_metric(question: str) -> str:
    """What a comparison compares: 'Which of the companies had the lowest total assets in USD in their annual
    reports: "A", "B"?' -> 'total assets in USD'. Each company's sub-question searches for it and its figure
    must name it (the question's other words and the other companies' names would only dilute both)."""
    q = INSTRUCTION_TAIL_RE.sub("", question).strip()
    q = COMPARE_HEAD_RE.sub("", QUOTED_LIST_RE.sub("", q))
    q = IN_REPORTS_RE.sub(" ", HIGHEST_RE.sub(" ", LOWEST_RE.sub(" ", q)))
    return re.sub(r"\s+", " ", q).strip(" ?:,") or retrieval_query(question)


def too_long(cfg: RunConfig, question: str) -> bool:
    """A question over ``max_question_chars`` is refused before any work (routing, embedding) is spent on it."""
    return len(question) > cfg.max_question_chars


def retrieval_query(question: str, company: str | None = None, written: tuple[str, ...] = ()) -> str:
    """The question without the challenge's trailing instructions ('If data is not available...') and
    without the company's name (and its possessive "'s"), also as the question ``written`` it (an alias, a
    ticker, initials: 'JPM', 'J&J'): inside its own report every page is about the company, so the name only
    pulls covers and headers up the ranking, and the report never prints an analyst's abbreviation."""
    query = INSTRUCTION_TAIL_RE.sub("", question).strip() or question
    if company:
        names = {company, company.rstrip("."), normalize_name(company), *written}
        for name in sorted((n for n in names if n), key=len, reverse=True):
            query = re.sub(_name_re(name), " ", query, flags=re.I)
        query = re.sub(r"\s+", " ", query).strip(" ,") or question
    return query


def _name_re(name: str) -> str:
    """``name`` as a whole word (not inside 'Boeingsville'), with its possessive ("Boeing's", "Jones'")."""
    possessive = r"['’]s\b|['’](?=\s)"
    end = rf"(?:{possessive}|(?!\w))" if name[-1:].isalnum() else rf"(?:{possessive})?"
    return rf"(?<!\w){re.escape(name)}{end}"
