"""What a quote must say to prove an answer: the question's topic (its words or their synonyms), not only as a
possibility ("may discourage a merger"); when the question asks whether something happened or changed, that it
did, and not as a rule, a risk, a policy or a general practice; when it asks what is expected, an expectation
(the lexicon's ``events``)."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.question.wording import asks_expectation, asks_past
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


def general_problem(question: str, quote: str, lexicon: Lexicon | None) -> str | None:
    """Why ``quote`` cannot show that something happened or was the case in the period, or None: the question
    asks that (a past or perfect question, or an asked event) and the quote states a rule, a restriction, a
    risk, a condition, a definition, a policy or a general practice (the lexicon's ``events.general_by``) that
    the question does not itself ask about."""
    words = lexicon.events.get("general_by", ()) if lexicon else ()
    if not words or not (asks_past(question) or asks_event(question, lexicon)):
        return None
    asked, tokens = tokenize(question), tokenize(quote)
    if any(contains(tokens, t) and not contains(asked, t) for t in words):
        return "it states a rule, a risk or a general practice, not what happened"
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
# the month, not the hedge: "May" beside a number ("May 2022", "26 May") or after a lower-case word ("in May")
MONTH_MAY_RE = re.compile(r"\bMay\b(?=\s+\d)|(?<=\d\s)May\b|(?<=[a-z,]\s)May\b")


def hedge_tokens(text: str) -> list[str]:
    """``text``'s tokens, the month May written as a month so that it is not read as the hedge "may"."""
    return tokenize(MONTH_MAY_RE.sub("month", text))


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
        tokens = hedge_tokens(sentence)
        hedge_at = term_starts(tokens, hedges)
        for m in term_starts(tokens, terms):
            mentions += 1
            hedged += any(0 < m - h <= HEDGE_REACH for h in hedge_at)
    return "the quote speaks of it only as a possibility" if mentions and hedged == mentions else None
