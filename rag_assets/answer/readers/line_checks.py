"""Checks on the line the number reader chose: the currency it prints, whether it prints the metric's words
(Python), and the model's probability that it states the metric."""

from __future__ import annotations

from rag_assets.answer.evidence.candidates import Candidate, MetricQuery
from rag_assets.answer.evidence.figures import Figure
from rag_assets.answer.evidence.units import asked_currency, currencies_in
from rag_assets.index.bm25 import tokenize
from rag_assets.llm.prompts import build_messages
from rag_assets.retrieval.rerank import p_yes


def currency_problem(question: str, cand: Candidate, page_text: str, dollar: str) -> str | None:
    """Why the candidate's currency is not the one asked, or None (no currency asked, or it is printed)."""
    asked = asked_currency(question)
    if not asked:
        return None
    printed = currencies_in(f"{cand.scale_words} {cand.label} {' '.join(f.written for f in cand.figures)}", dollar)
    printed = printed or currencies_in(page_text, dollar)
    if printed and asked not in printed:
        return f"asked in {asked}, printed in {', '.join(sorted(printed))}"
    return None


def p_states(llm, question: str, cand: Candidate) -> float:
    """The model's probability that ``cand`` states the asked metric: its first answer token, yes vs no."""
    messages, _ = build_messages("number_verify", question=question, line=cand.shown())
    return p_yes(llm, messages)


NAMED_SHARE, NAMED_WORDS = 0.8, 3  # a line printing this share of the metric's own words (of at least three) names it


def names_metric(metric: MetricQuery, label: str) -> bool:
    """``label`` prints nearly every word of a metric of several words ('the aggregate market value of the
    registrant's voting stock held by non-affiliates'): Python's check that the line states it."""
    have = set(tokenize(label))
    own = own_words(metric)
    return len(own) >= NAMED_WORDS and len(own & have) >= NAMED_SHARE * len(own)


def own_words(metric: MetricQuery) -> set[str]:
    return {w for w in metric.own if not any(ch.isdigit() for ch in w)}  # a period's token ('q23') names no metric


def prints_metric(metric: MetricQuery, label: str) -> bool:
    """``label`` prints every word of the metric ('employees' in 'Each of our 57,500 full- and part-time
    employees'), or nearly every word of a longer one (``names_metric``): the chosen line states it, whatever
    the model's yes/no on it, which is close to noise for a statement this short."""
    own = own_words(metric)
    return bool(own) and own <= set(tokenize(label)) or names_metric(metric, label)


def exacter_row(chosen: Candidate, fig: Figure, cands: list[Candidate], metric: MetricQuery,
                template: frozenset[str] = frozenset()) -> tuple[Candidate, Figure] | None:
    """A row of the chosen row's table that prints every word of the metric and fewer words of its own
    ('Book value per share' where the model chose 'Tangible book value per share'), with its figure in the chosen
    figure's column; None when the chosen row is no such longer name or no row of its table is shorter."""
    own = own_words(metric)
    extra = lambda c: set(tokenize(c.label)) - own - template  # noqa: E731
    if chosen.source != "row" or not own or not extra(chosen) or not own <= set(tokenize(chosen.label)):
        return None
    column = next((i for i, f in enumerate(chosen.figures) if f is fig), None)
    shorter = [c for c in cands if c.source == "row" and (c.sha1, c.page_index, c.caption) ==
               (chosen.sha1, chosen.page_index, chosen.caption) and own <= set(tokenize(c.label))
               and len(extra(c)) < len(extra(chosen)) and len(c.figures) == len(chosen.figures)]
    if not shorter or column is None:
        return None
    row = min(shorter, key=lambda c: len(extra(c)))
    return row, row.figures[column]
