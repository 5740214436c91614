"""Statements: the sentences and table rows of a report's best pages that speak of a yes/no or names question's
topic, and what Python checks before a model reads one: it names the topic (the question's words or a synonym
term); it does not speak of it as a possibility (a hedge word before the topic: "possible mergers"); and when the
question asks whether something happened, it is a sentence (a table row shows figures, not events) that says it
happened, not in a year long before the report's period, and not a rule, a risk, a policy or a general practice
("covenants restricting mergers") unless it reports the event in the period ("in May 2022 the acquisition, which
required approval, was completed").

The order of the pages handed in does not matter: statements are ranked by how well they name the topic, then
by their page's retrieval score, then by where they stand."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass

from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.evidence.sentences import SENTENCE_SPLIT_RE, sentence_goes_on
from rag_assets.answer.evidence.evidence_policy import (asks_event, event_problem, expectation_problem,
                                                        general_problem, hedge_tokens)
from rag_assets.answer.evidence.table_headers import cells_of
from rag_assets.index.bm25 import tokenize
from rag_assets.retrieval.query import Lexicon, contains, term_starts

MIN_CHARS = 25  # shorter pieces are headings and stubs
MAX_CHARS = 400  # what the model reads of one statement
MIN_COVER = 0.5  # a statement prints half of the question's own words, or a synonym term of two words or more
YEAR_RE = re.compile(r"\b(?:19[89]\d|20[0-4]\d)\b")


@dataclass(frozen=True)
class Statement:
    sha1: str
    page_index: int
    text: str
    topic: float  # share of the question's own words printed, +1 for a synonym term of them
    order: int  # its position on the page
    page_score: float = 0.0  # its page's retrieval score
    p_yes: float | None = None  # the model's judgement, once read

    def to_dict(self) -> dict:
        return asdict(self)


def _cells(line: str) -> str:
    """A table row as text: its non-empty cells joined by ' | ' ('' for a separator row)."""
    cells = cells_of(line)
    return " | ".join(c for c in cells if c and not set(c) <= set("-: "))


def page_statements(text: str) -> list[tuple[str, bool]]:
    """A page's sentences (paragraphs split at sentence ends) and table rows, in page order, each with whether
    it is a table row."""
    out: list[tuple[str, bool]] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            out.extend((s.strip(), False) for s in SENTENCE_SPLIT_RE.split(" ".join(para)))
            para.clear()

    lines = text.splitlines()
    for i, line in enumerate(lines):
        s = line.strip()
        if s.startswith("|"):
            flush()
            out.append((_cells(s), True))
        elif s.startswith("#") or not s and not sentence_goes_on(para, lines[i + 1:]):
            flush()
        elif s:
            para.append(s)
    flush()
    return [(s, row) for s, row in out if len(s) >= MIN_CHARS]


def hedged(text: str, metric: MetricQuery, lexicon: Lexicon | None) -> bool:
    """A hedge word (the lexicon's ``events.hedged_by``) comes before the statement's first topic word."""
    hedges = lexicon.events.get("hedged_by", ()) if lexicon else ()
    tokens = hedge_tokens(text)
    topic = term_starts(tokens, [(t,) for t in metric.own] + list(metric.terms))
    return bool(topic) and any(h < topic[0] for h in term_starts(tokens, hedges))


PAST_FORM_RE = re.compile(r"\b[a-z]+ed\b", re.I)


def reports_event(text: str, lexicon: Lexicon | None) -> bool:
    """``text`` says that something happened: a past form ('completed', 'announced') of one of the lexicon's
    ``events.stated_by`` words ("the acquisition, which required approval, was completed" reports an event;
    "covenants restricting mergers" does not)."""
    stated = {t[0] for t in (lexicon.events.get("stated_by", ()) if lexicon else ()) if len(t) == 1}
    return any(token in stated for word in PAST_FORM_RE.findall(text) for token in tokenize(word))


def dated_in_period(text: str, year: int | None) -> bool:
    """``text`` prints the report's fiscal year or the one before (every statement counts when it is not
    known)."""
    return year is None or any(year - 1 <= int(y) <= year for y in YEAR_RE.findall(text))


def dated_before(text: str, year: int | None) -> bool:
    """Every year the statement prints is before the year preceding the report's fiscal year: an old event."""
    years = [int(y) for y in YEAR_RE.findall(text)]
    return year is not None and bool(years) and max(years) < year - 1


def topic_of(text: str, metric: MetricQuery, term_words: int = 2) -> float:
    """How well ``text`` names the topic: the share of the question's own words it prints, +1 for a synonym
    term; 0 when that share is under ``MIN_COVER`` and no synonym term of ``term_words`` words or more is
    printed (for yes/no, one common word of a synonym group, 'dividend' or 'acquired', does not make a statement
    about the topic; a names statement is also checked for the names beside its event word)."""
    tokens = tokenize(text)
    have = set(metric.words(text))
    cover = sum(t in have for t in metric.own) / len(metric.own) if metric.own else 0.0
    terms = [t for t in metric.terms if contains(tokens, t)]
    if cover < MIN_COVER and not any(len(t) >= term_words for t in terms):
        return 0.0
    return cover + (1.0 if terms else 0.0)


_SAYS_AGAIN = r"(?:i\.\s?e\.|that\s+is(?:\s+to\s+say)?|in\s+other\s+words|namely|meaning)"
RESTATED_RE = re.compile(rf"(?:\bi\.\s?e\.|[,;:]\s*{_SAYS_AGAIN})[,:]?\s+", re.I)  # ', that is, ...', 'i.e. ...'
RESTATED_PAREN_RE = re.compile(rf"\(\s*{_SAYS_AGAIN}[,:]?\s*([^()]*)\)", re.I)  # '(i.e. ...)'


def topic_queries(query: str, lexicon: Lexicon | None) -> list[MetricQuery]:
    """The topic of ``query`` and of each restatement it gives ("is the business cyclical, i.e. do its results
    move with economic cycles"; "the firm (i.e. the bank)"): a statement names the topic when it names one of
    them, the main clause's words alone or the restatement's alone (together, it would have to print both
    wordings)."""
    inner = RESTATED_PAREN_RE.findall(query)
    parts = RESTATED_RE.split(RESTATED_PAREN_RE.sub(" ", query)) + inner
    parts = [p for p in parts if tokenize(p)]
    return [MetricQuery.of(p, lexicon, frame=True) for p in parts or [query]]


def _best_topic(text: str, metrics: list[MetricQuery], term_words: int) -> tuple[float, MetricQuery]:
    return max(((topic_of(text, m, term_words), m) for m in metrics), key=lambda t: t[0])


def _problem(question: str, text: str, row: bool, metric: MetricQuery, lexicon: Lexicon | None,
             year: int | None, rows: bool, stated: str) -> str | None:
    if hedged(text, metric, lexicon):
        return "it speaks of the topic as a possibility"
    general = general_problem(question, text, lexicon)
    if general and not (reports_event(text, lexicon) and dated_in_period(text, year)):
        return general
    if expectation_problem(question, text, lexicon):
        return "it reports a result, not an expectation"
    if asks_event(question, lexicon):
        if row and not rows:
            return "a table row shows figures, not that something happened"
        if dated_before(text, year):
            return "it dates the event long before the report's period"
    return event_problem(question, text, lexicon, stated)


def find_statements(pages, question: str, query: str, lexicon: Lexicon | None, limit: int,
                    year: int | None = None, term_words: int = 2, rows: bool = False, stated: str = "stated_by"
                    ) -> tuple[list[Statement], Counter]:
    """The ``limit`` statements of ``pages`` that best name ``query``'s topic and pass the checks, best first;
    and how many on-topic statements each check turned away. ``year``: the report's fiscal year, if known;
    ``term_words``: see ``topic_of``; ``rows``: a table row may state an asked event (a roster row's
    "(appointed 1 July 2022)"); ``stated``: the lexicon's event list that says an asked event happened."""
    metrics = topic_queries(query, lexicon)
    kept, refused = [], Counter()
    for page in pages:
        for order, (text, row) in enumerate(page_statements(page.text)):
            topic, metric = _best_topic(text, metrics, term_words)
            if topic <= 0:
                continue
            problem = _problem(question, text, row, metric, lexicon, year, rows, stated)
            if problem:
                refused[problem] += 1
                continue
            kept.append(Statement(page.sha1, page.page_index, text[:MAX_CHARS], round(topic, 3), order,
                                  round(float(page.score), 6)))
    kept.sort(key=lambda s: (-s.topic, -s.page_score, s.sha1, s.page_index, s.order))
    return _distinct(kept)[:limit], refused


def _distinct(statements: list[Statement]) -> list[Statement]:
    """The first of statements printed twice (a report repeats its highlights)."""
    seen, out = set(), []
    for s in statements:
        key = " ".join(s.text.lower().split())
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out
