"""The answer record: a question's answer, its pages, and everything that explains it (what was retrieved,
ranked, read, computed and checked). Stored in the answers log and DuckDB lineage; the submission is its
challenge-format part."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from rag_assets.answer.evidence.computed import Computation
from rag_assets.answer.evidence.numbers import NA
from rag_assets.llm.structured import StructuredResult
from rag_assets.retrieval.search import RetrievedPage


@dataclass
class AnswerRecord:
    question_text: str
    kind: str
    value: object = NA
    references: list[dict] = field(default_factory=list)
    config: str = ""
    companies: list[str] = field(default_factory=list)
    routed: list[str] = field(default_factory=list)
    retrieved_chunks: list[dict] = field(default_factory=list)
    ranked_pages: list[dict] = field(default_factory=list)
    pages_sent: list[dict] = field(default_factory=list)
    raw_output: str = ""
    parsed: dict | None = None
    grounded: bool | None = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_calls: int = 0
    seconds: float = 0.0
    index_versions: dict = field(default_factory=dict)
    sub_answers: list[dict] = field(default_factory=list)
    candidates: list[dict] = field(default_factory=list)  # number questions: the figures the model chose from
    evidence_ok: bool | None = None  # the evidence quote is in the context and on the question's topic
    computation: dict | None = None  # a computed metric: formula, operands (value, period, page), missing ones
    plan: dict | None = None  # the question's plan: period, unit, formula or criterion, its source and checks
    fingerprint: str = ""  # what produced it (answer.fingerprint.answer_key): reused only while it matches
    na_reason: str = ""  # why the answer is N/A (``na_reason``), set when the answer is made
    run_id: str = ""  # the lineage table's run it is recorded under ('' before it was)

    def to_dict(self) -> dict:
        return asdict(self)

    def submission(self) -> dict:
        return {
            "question_text": self.question_text,
            "kind": self.kind,
            "value": self.value,
            "references": [{"pdf_sha1": r["pdf_sha1"], "page_index": r["page_index"]} for r in self.references],
        }


NA_NOTE_TAIL = (": N/A", "; answered N/A", ", answered N/A", ": answered N/A")


def _defaulted(rec: dict) -> bool:
    """A yes/no answered False for want of evidence: it cites no page (the yes/no form of N/A)."""
    return rec.get("value") is False and not rec.get("references")


def answered(rec: dict) -> bool:
    """The record holds an answer that cites its evidence: not an error, not N/A, not a False for want of
    evidence (no page cited)."""
    value = rec.get("value")
    return not rec.get("error") and value is not None and str(value) != NA and not _defaulted(rec)


def cited_candidate(candidates: list[dict], references: list[dict]) -> dict | None:
    """The first candidate on a page the answer cites: the figure Python read without the model (a count the
    sentences agree on), which no model output names."""
    cited = {(r["pdf_sha1"], int(r["page_index"])) for r in references}
    return next((c for c in candidates if (c["sha1"], int(c["page_index"])) in cited), None)


NOT_READ = "the number reader did not read"  # operand_reader's note on an operand it read and Python refused


def na_reason(rec: dict) -> str:
    """Why an answer is N/A, in the words of the step that refused: no filing covers the period, no row or
    sentence of the pages searched prints the item (or the part), the model chose nothing, a check failed (with
    what the number reader read for a missing operand and why Python refused it); also
    why a yes/no is False for want of evidence (False citing no page: the yes/no form of N/A). '' for an answer
    that is neither."""
    if str(rec.get("value")) != NA and not _defaulted(rec) or rec.get("error"):
        return ""
    said = [n for n in rec.get("notes", []) if "N/A" in n]
    if not said:
        return "no reader found the figure in the pages searched"
    reason = said[-1]
    for tail in NA_NOTE_TAIL:
        reason = reason[: -len(tail)] if reason.endswith(tail) else reason
    refused = [n for n in rec.get("notes", []) if n.startswith(NOT_READ)]  # the model's figure, and why not it
    return reason + (f"; {refused[-1]}" if refused and refused[-1] not in reason else "")


def add_call(rec: AnswerRecord, res: StructuredResult) -> None:
    """Record a structured call's output and usage (and whether the repair prompt was needed)."""
    rec.raw_output = res.raw
    rec.prompt_tokens += res.prompt_tokens
    rec.completion_tokens += res.completion_tokens
    rec.llm_calls += len(res.calls)
    if res.repaired:
        rec.notes.append("output repaired by the schema-repair prompt")
    if res.cut:
        rec.notes.append("output cut at the token limit after its answer: the answer was written whole")


def page_refs(pages: list[RetrievedPage]) -> list[dict]:
    return list({(p.sha1, p.page_index): {"pdf_sha1": p.sha1, "page_index": p.page_index} for p in pages}.values())


def note_computation(rec: AnswerRecord, comp: Computation, *notes: str) -> None:
    """Keep a computation (formula, operands, what is missing) and its notes on the record."""
    rec.computation = comp.to_dict()
    rec.notes += comp.notes + list(notes)


def take_computation(rec: AnswerRecord, comp: Computation) -> None:
    """A computation is the answer: its value (N/A when an operand is missing: nothing cited), the operands'
    pages as what was read and cited."""
    note_computation(rec, comp)
    rec.value, rec.references = comp.value, comp.references if comp.value != NA else []
    rec.pages_sent = comp.references
    rec.grounded = rec.evidence_ok = comp.value != NA


def judgement_lines(record: dict, reports: dict[str, str] | None = None) -> list[str]:
    """How a yes/no or names answer read from statements was decided, for a person: the decisive statement with
    its strength (the model's p(yes)) and page, or the best statement when none reached the threshold, and what
    the checks turned away. Nothing for other answers."""
    parsed = record.get("parsed") or {}
    if record.get("kind") not in ("boolean", "names") or "p_yes" not in parsed:
        return []
    where = f"page {parsed.get('page_index')}"
    if reports and parsed.get("pdf_sha1") in reports:
        where += f" of {reports[parsed['pdf_sha1']]}"
    if "evidence_quote" in parsed:
        lines = [f"decided by the statement on {where}, strength p(yes) {parsed['p_yes']:.2f}: "
                 f"\"{parsed['evidence_quote'][:300]}\""]
    else:
        lines = [f"no statement reached the threshold; the strongest, p(yes) {parsed['p_yes']:.2f} on {where}: "
                 f"\"{parsed.get('best_statement', '')[:300]}\""]
    return lines + [n for n in record.get("notes", []) if n.startswith("statements turned away")]
