"""Yes/no from statements: Python finds the statements of the best pages that speak of the asked topic and
checks them (``answer.statements``); the model judges each one alone (its probability of "yes", nothing
generated); the answer is True only when a checked statement reaches the threshold, and cites its page.
False is the answer when no statement passes."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rag_assets.answer.evidence.statements import Statement, find_statements
from rag_assets.llm.prompts import build_messages
from rag_assets.retrieval.query import Lexicon
from rag_assets.retrieval.rerank import p_yes

MAX_CITED = 3  # pages cited for a True answer: the statements that reached the threshold, best first


@dataclass
class BooleanReading:
    value: bool = False
    statements: list[Statement] = field(default_factory=list)  # what the model judged, each with its p_yes
    proof: list[Statement] = field(default_factory=list)  # those that reached the threshold, best first
    notes: list[str] = field(default_factory=list)


def judge(llm, question: str, statement: Statement) -> Statement:
    """``statement`` with the model's probability that it shows the answer is yes."""
    messages, _ = build_messages("boolean_statement", question=question, page=str(statement.page_index),
                                 statement=statement.text)
    return replace(statement, p_yes=round(p_yes(llm, messages), 4))


def read_boolean(llm, question: str, query: str, pages, lexicon: Lexicon | None, limit: int,
                 threshold: float, year: int | None = None) -> BooleanReading:
    """Answer a yes/no question from ``pages``: True when one of the ``limit`` best checked statements has
    p(yes) >= ``threshold``. ``year``: the report's fiscal year, if known."""
    found, refused = find_statements(pages, question, query, lexicon, limit, year)
    reading = BooleanReading(statements=[judge(llm, question, s) for s in found])
    if refused:
        reading.notes.append("statements turned away: " + "; ".join(f"{n} x {why}" for why, n in refused.items()))
    if not found:
        reading.notes.append(f"no statement of the {len(pages)} pages speaks of the topic: False")
        return reading
    ranked = sorted(reading.statements, key=lambda s: -s.p_yes)
    reading.proof = [s for s in ranked if s.p_yes >= threshold]
    reading.value = bool(reading.proof)
    best = ranked[0]
    reading.notes.append(f"best of {len(found)} statements: p(yes)={best.p_yes} on page {best.page_index} "
                         f"({'>=' if reading.value else '<'} {threshold}): {reading.value}")
    return reading


def cited(reading: BooleanReading) -> list[dict]:
    """The distinct pages of the proof, best first (at most ``MAX_CITED``)."""
    pages = list(dict.fromkeys((s.sha1, s.page_index) for s in reading.proof))[:MAX_CITED]
    return [{"pdf_sha1": sha1, "page_index": page} for sha1, page in pages]
