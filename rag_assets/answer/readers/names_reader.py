"""Names of a change from the statements that report it: Python finds the checked statements of the best pages
that speak of the asked topic, state that the change happened (``answer.statements`` with the lexicon's
``events.changed_by`` or ``launched_by``) and date it in the report's period, and in each the names of the asked
kind beside its change word (``answer.name_spans``: a roster is not a change); the model judges each statement
with its names (its probability of "yes", nothing generated). The answer is the names of the
statements that reach the threshold, each cited by its page; 'N/A' when none does."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from rag_assets.answer.evidence.name_spans import asked, change_events, event_names
from rag_assets.answer.evidence.numbers import NA
from rag_assets.answer.evidence.statements import YEAR_RE, Statement, find_statements
from rag_assets.llm.prompts import build_messages
from rag_assets.retrieval.query import Lexicon
from rag_assets.retrieval.rerank import p_yes

MAX_CITED = 3
SEARCHED = 4  # statements looked at per statement judged: most on-topic statements name nobody


@dataclass(frozen=True)
class NamedStatement:
    statement: Statement
    names: tuple[str, ...]
    p_yes: float | None = None

    def to_dict(self) -> dict:
        return {**asdict(self.statement), "names": list(self.names), "p_yes": self.p_yes}


@dataclass
class NamesReading:
    value: list[str] | str = NA
    judged: list[NamedStatement] = field(default_factory=list)
    proof: list[NamedStatement] = field(default_factory=list)  # those that reached the threshold, best first
    notes: list[str] = field(default_factory=list)


def judge(llm, question: str, named: NamedStatement) -> NamedStatement:
    s = named.statement
    messages, _ = build_messages("names_statement", question=question, page=str(s.page_index), statement=s.text,
                                 names="; ".join(named.names))
    return NamedStatement(s, named.names, round(p_yes(llm, messages), 4))


def in_period(text: str, year: int | None, lexicon: Lexicon) -> bool:
    """``text`` dates what it reports in the report's period: it prints the fiscal year, the one before or the
    one after (a change after year end), or one of the lexicon's ``names.period_phrases`` ('during the year').
    Without a known fiscal year every statement counts as dated."""
    if year is None:
        return True
    if any(abs(int(y) - year) <= 1 for y in YEAR_RE.findall(text)):
        return True
    lowered = " ".join(text.lower().split())
    return any(p in lowered for p in lexicon.names.get("period_phrases", ()))


def named_statements(pages, question: str, query: str, lexicon: Lexicon, limit: int, year: int | None
                     ) -> tuple[list[NamedStatement], list[str]]:
    """The ``limit`` best checked statements that name someone (or something) of the asked kind beside their
    event word, and notes on what was turned away."""
    kind = asked(question, lexicon)
    events = change_events(question, kind, lexicon)
    found, refused = find_statements(pages, question, query, lexicon, limit * SEARCHED, year, term_words=1,
                                     rows=True, stated=events)
    dated = [s for s in found if in_period(s.text, year, lexicon)]
    if len(dated) < len(found):
        refused["it does not date the change in the report's period"] += len(found) - len(dated)
    found = dated
    named = [NamedStatement(s, tuple(event_names(s.text, kind, lexicon, events))) for s in found]
    notes = [f"names asked: {kind}; {len(found)} statements on the topic, "
             f"{sum(bool(n.names) for n in named)} name {kind} beside their event word"]
    if refused:
        notes.append("statements turned away: " + "; ".join(f"{n} x {why}" for why, n in refused.items()))
    return [n for n in named if n.names][:limit], notes


def read_names(llm, question: str, query: str, pages, lexicon: Lexicon, limit: int, threshold: float,
               year: int | None = None) -> NamesReading:
    """Answer a names question about a change from ``pages`` (see the module's docstring)."""
    named, notes = named_statements(pages, question, query, lexicon, limit, year)
    reading = NamesReading(judged=[judge(llm, question, n) for n in named], notes=notes)
    if not named:
        reading.notes.append("no statement names the change: N/A")
        return reading
    ranked = sorted(reading.judged, key=lambda n: -n.p_yes)
    reading.proof = [n for n in ranked if n.p_yes >= threshold]
    names: dict[str, str] = {}
    for n in reading.proof:
        for name in n.names:
            names.setdefault(name.lower(), name)
    reading.value = list(names.values()) or NA
    reading.notes.append(f"best of {len(named)} statements: p(yes)={ranked[0].p_yes} on page "
                         f"{ranked[0].statement.page_index}; {len(reading.proof)} reach {threshold}")
    return reading


def cited(reading: NamesReading) -> list[dict]:
    """The distinct pages of the proof, best first (at most ``MAX_CITED``)."""
    pages = list(dict.fromkeys((n.statement.sha1, n.statement.page_index) for n in reading.proof))[:MAX_CITED]
    return [{"pdf_sha1": sha1, "page_index": page} for sha1, page in pages]
