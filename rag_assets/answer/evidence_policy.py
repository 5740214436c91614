"""What a quote must say to prove an answer: the question's topic (its words or their synonyms) and, when the
question asks whether something happened or changed, that it did (the lexicon's ``events``)."""

from __future__ import annotations

from rag_assets.answer.candidates import MetricQuery
from rag_assets.index.bm25 import tokenize
from rag_assets.retrieval.query import Lexicon, contains


def on_topic(quote: str, query: str, lexicon: Lexicon | None) -> bool:
    """The quote prints a content word of ``query`` (the question without its template tail and company) or
    a synonym term of it."""
    return MetricQuery.of(query, lexicon).score(quote) > 0


def asks_event(question: str, lexicon: Lexicon | None) -> bool:
    tokens = tokenize(question)
    return bool(lexicon) and any(contains(tokens, t) for t in lexicon.events.get("asked_by", ()))


def event_problem(question: str, quote: str, lexicon: Lexicon | None) -> str | None:
    """Why ``quote`` does not say that the asked event happened, or None (it does, or none is asked)."""
    if not asks_event(question, lexicon):
        return None
    tokens = tokenize(quote)
    if any(contains(tokens, t) for t in lexicon.events.get("negated_by", ())):
        return "the quote says it did not happen or change"
    if not any(contains(tokens, t) for t in lexicon.events.get("stated_by", ())):
        return "the quote does not say that it happened or changed"
    return None
