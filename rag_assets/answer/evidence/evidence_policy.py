"""What a quote must say to prove an answer: the question's topic (its words or their synonyms), not only as a
possibility ("may discourage a merger"), and, when the question asks whether something happened or changed, that
it did, or when it asks what is expected, an expectation (the lexicon's ``events``)."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.candidates import MetricQuery
from rag_assets.answer.question.wording import asks_expectation
from rag_assets.index.bm25 import tokenize
from rag_assets.retrieval.query import Lexicon, contains, term_starts


def on_topic(quote: str, query: str, lexicon: Lexicon | None) -> bool:
    """The quote prints a content word of ``query`` (the question without its template tail and company) or
    a synonym term of it."""
    return MetricQuery.of(query, lexicon).score(quote) > 0


def asks_event(question: str, lexicon: Lexicon | None) -> bool:
    tokens = tokenize(question)
    return bool(lexicon) and any(contains(tokens, t) for t in lexicon.events.get("asked_by", ()))


def event_problem(question: str, quote: str, lexicon: Lexicon | None, stated: str = "stated_by") -> str | None:
    """Why ``quote`` does not say that the asked event happened, or None (it does, or none is asked).
    ``stated``: the lexicon's event list whose words say it happened."""
    if not asks_event(question, lexicon):
        return None
    tokens = tokenize(quote)
    if any(contains(tokens, t) for t in lexicon.events.get("negated_by", ())):
        return "the quote says it did not happen or change"
    if not any(contains(tokens, t) for t in lexicon.events.get(stated, ())):
        return "the quote does not say that it happened or changed"
    return None


def expectation_problem(question: str, quote: str, lexicon: Lexicon | None) -> str | None:
    """Why ``quote`` cannot answer a question about what is expected (it states no expectation: a result
    already reported), or None."""
    if not asks_expectation(question, lexicon):
        return None
    if any(contains(tokenize(quote), t) for t in lexicon.events.get("expectation_stated_by", ())):
        return None
    return "it reports a result, not an expectation"


SENTENCE_END_RE = re.compile(r"(?<=[.;!?])\s+")
HEDGE_REACH = 6  # a hedge word governs the topic words up to this many (content) words after it


def hedge_problem(quote: str, query: str, lexicon: Lexicon | None) -> str | None:
    """Why ``quote`` speaks of the topic only as a possibility, or None: every topic word of ``query`` in the
    quote has a hedge word (the lexicon's ``events.hedged_by``: may, could, potential...) at most
    ``HEDGE_REACH`` words before it."""
    hedges = lexicon.events.get("hedged_by", ()) if lexicon else ()
    if not hedges:
        return None
    metric = MetricQuery.of(query, lexicon)
    terms = [(t,) for t in metric.own] + list(metric.terms)  # a synonym term counts where all of it is printed
    mentions = hedged = 0
    for sentence in SENTENCE_END_RE.split(quote):  # a hedge does not reach into the next sentence
        tokens = tokenize(sentence)
        hedge_at = term_starts(tokens, hedges)
        for m in term_starts(tokens, terms):
            mentions += 1
            hedged += any(0 < m - h <= HEDGE_REACH for h in hedge_at)
    return "the quote speaks of it only as a possibility" if mentions and hedged == mentions else None
