"""A Python-first reader's result written onto the answer record: the value, the pages cited, what the model was
shown (the candidates or statements with their scores) and the reader's notes; and the answers Python computes
or decides from statement rows alone."""

from __future__ import annotations

from typing import Callable

from rag_assets.answer.evidence.computed import compute
from rag_assets.answer.evidence.decisions import decide
from rag_assets.answer.question.formulas import Item, items_of
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import QuestionPlan
from rag_assets.answer.question.year_forms import OVER_YEARS_HOW_RE
from rag_assets.answer.readers.boolean_reader import BooleanReading, cited as boolean_cited
from rag_assets.answer.readers.names_reader import NamesReading, cited as names_cited
from rag_assets.answer.readers.number_reader import NumberReading
from rag_assets.answer.readers.operand_reader import read_missing
from rag_assets.answer.evidence.numbers import NA
from rag_assets.answer.readers.record import AnswerRecord, add_call, note_computation, take_computation
from rag_assets.answer.evidence.statements import Statement
from rag_assets.answer.evidence.shares import decide_share
from rag_assets.answer.question.unit import asked_unit
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.search import RetrievedPage


def _shown(pages: list[RetrievedPage], keys: set[tuple[str, int]]) -> list[dict]:
    """The pages (best first) of which the model was shown something."""
    return [{"pdf_sha1": p.sha1, "page_index": p.page_index} for p in pages if (p.sha1, p.page_index) in keys]


def _take_judged(rec: AnswerRecord, pages: list[RetrievedPage], judged: list[Statement], candidates: list[dict],
                 proof: tuple[Statement, float] | None, best: tuple[Statement, float] | None) -> None:
    """What every statements reader records: one model call per judged statement, the statements with their
    scores, the pages they are on, and the decisive statement with its strength: the best proof as the evidence
    quote, or (none reached the threshold) the best statement judged."""
    rec.llm_calls += len(judged)
    rec.candidates = candidates
    rec.pages_sent = _shown(pages, {(s.sha1, s.page_index) for s in judged})
    if proof is not None:
        rec.parsed = {"evidence_quote": proof[0].text, "p_yes": proof[1], "pdf_sha1": proof[0].sha1,
                      "page_index": proof[0].page_index}
    elif best is not None:
        rec.parsed = {"best_statement": best[0].text, "p_yes": best[1], "pdf_sha1": best[0].sha1,
                      "page_index": best[0].page_index}


def _best(judged: list[tuple[Statement, float | None]]) -> tuple[Statement, float] | None:
    scored = [(s, p) for s, p in judged if p is not None]
    return max(scored, key=lambda sp: sp[1]) if scored else None


def take_boolean(rec: AnswerRecord, reading: BooleanReading, pages: list[RetrievedPage]) -> None:
    proof = (reading.proof[0], reading.proof[0].p_yes) if reading.proof else None
    best = _best([(s, s.p_yes) for s in reading.statements])
    _take_judged(rec, pages, reading.statements, [s.to_dict() for s in reading.statements], proof, best)
    rec.notes += reading.notes
    rec.value = reading.value
    rec.references = boolean_cited(reading)
    rec.grounded = rec.evidence_ok = reading.value or None


def take_names(rec: AnswerRecord, reading: NamesReading, pages: list[RetrievedPage]) -> None:
    proof = (reading.proof[0].statement, reading.proof[0].p_yes) if reading.proof else None
    best = _best([(n.statement, n.p_yes) for n in reading.judged])
    _take_judged(rec, pages, [n.statement for n in reading.judged], [n.to_dict() for n in reading.judged], proof,
                 best)
    rec.notes += reading.notes
    rec.value = reading.value
    rec.references = names_cited(reading)
    rec.grounded = rec.evidence_ok = reading.value != NA or None


def take_number(rec: AnswerRecord, reading: NumberReading, pages: list[RetrievedPage], question: str) -> None:
    """The picked figure, written in the scale and rounding the question asks, its line's page cited."""
    rec.candidates = [c.to_dict() for c in reading.candidates]
    rec.pages_sent = _shown(pages, {(c.sha1, c.page_index) for c in reading.candidates})
    rec.notes += reading.notes
    if reading.result is not None:
        add_call(rec, reading.result)
        value = reading.result.value
        rec.parsed = value.model_dump() if value is not None else None
    rec.error = reading.error
    rec.value = reading.value
    unit = asked_unit(question)
    if reading.points and isinstance(rec.value, float):  # a stated change: in the points asked
        rec.value = unit.ratio(rec.value)
    elif isinstance(rec.value, float) and unit.words != "full units":  # the scale and rounding asked
        before = rec.value
        rec.value = unit.rounded(rec.value) if reading.percent else unit.amount(rec.value)
        rec.notes.append(f"{before:g} written as asked ({unit.words}): {rec.value:g}")
    if reading.p_yes is not None:
        rec.notes.append(f"check p(yes)={reading.p_yes}")
    if reading.candidate is not None:
        c = reading.candidate
        rec.references = [{"pdf_sha1": c.sha1, "page_index": c.page_index}]
        rec.grounded = rec.evidence_ok = True


def take_computed(plan: QuestionPlan, retriever, sha1s: tuple[str, ...], rec: AnswerRecord,
                  question: str, by_year: dict[int, tuple[str, ...]] | None = None,
                  quarters: dict[str, int] | None = None, read: Callable[[Item], NumberReading] | None = None
                  ) -> bool:
    """A number question whose plan is a formula (its own definition, a standard form or metric, a line item):
    computed from cited statement rows (``answer.computed``), an operand no row prints read by the number reader
    (``read``, ``operand_reader``). True when that is the answer (a value, an error, or N/A for a formula of
    Python's reader with an operand missing); a single line item, or a plan the model wrote, that does not
    compute is left to the number reader. ``by_year``: the company's other reports by the years they print, read
    for a year ``sha1s`` do not print; ``quarters``: each report's own quarter (0 annual)."""
    if plan.metric is None:
        return False
    args = (plan.metric, asked_unit(question), retriever, sha1s, default_library(), default_lexicon(), by_year,
            quarters)
    comp = compute(*args)
    single = isinstance(plan.metric.node, Item)
    if comp.value == NA and read is not None and not single:
        given = _read_missing(comp, read, rec)
        if rec.error:
            return True
        comp = compute(*args, given=given) if given else comp
    if comp.value == NA and not _over_years(plan) and (single or plan.source == "model" or _printed_names(plan) or
                                                       plan.points or _share_of_part(plan)):
        note_computation(rec, comp, "the plan does not compute: the number reader reads the figure instead")
        return False
    take_computation(rec, comp)
    return True


def _over_years(plan: QuestionPlan) -> bool:
    """A sum or an average over years ('a sum over 3 years', 'a 3-year average'): no one printed figure is it, so
    the number reader reading one is no answer (a year's figure had been answered for the sum)."""
    return OVER_YEARS_HOW_RE.match(plan.metric.how or "") is not None


def _share_of_part(plan: QuestionPlan) -> bool:
    """A percentage asked of a part of the company ('what share of net sales came from the U.S. Government'):
    a filing often states it in a sentence ('73% of our net sales from the U.S. Government') where no row
    prints the part's amount, so the number reader reads it when the rows do not compute."""
    return plan.percent and any(i.part for i in items_of(plan.metric.node))


def _printed_names(plan: QuestionPlan) -> bool:
    """Every operand of the plan is a row named as the question writes it, none a library item ('operational
    sales growth'): a figure the filing may print under the question's whole name, read as printed when the rows do
    not compute."""
    library = default_library().items
    return all(i.name not in library for i in items_of(plan.metric.node))


def take_decided(plan: QuestionPlan, question: str, retriever, sha1s: tuple[str, ...], rec: AnswerRecord,
                 by_year: dict[int, tuple[str, ...]] | None = None, quarters: dict[str, int] | None = None,
                 read: Callable[[Item], NumberReading] | None = None) -> bool:
    """A yes/no whose criterion is on figures ('positive working capital based on FY2022 data', 'did X
    increase its debt between 2021 and 2022', 'any category over 20% of revenue'): decided by Python from cited
    rows, an operand no row prints read by the number reader (``read``); True when decided or a call failed (an
    operand or a breakdown missing leaves the question to the model)."""
    comp = decide_share(question, retriever, sha1s, default_library(), default_lexicon())
    if comp is None:
        if plan.criterion is None:
            return False
        args = (plan.criterion, retriever, sha1s, default_library(), default_lexicon(), by_year, quarters)
        comp = decide(*args)
        given = _read_missing(comp, read, rec) if comp.value == NA and read is not None else None
        if rec.error:
            return True
        comp = decide(*args, given=given) if given else comp
    if comp.value == NA:
        note_computation(rec, comp, "the figures do not decide it: the model judges")
        return False
    take_computation(rec, comp)
    return True


def _read_missing(comp, read: Callable[[Item], NumberReading], rec: AnswerRecord) -> dict | None:
    """The operands ``comp`` misses, read by the number reader (``operand_reader``), its calls and notes on
    ``rec``; a failed call is ``rec``'s error."""
    given, readings, said = read_missing(comp.unfound, read)
    for reading in readings:
        if reading.result is not None:
            add_call(rec, reading.result)
        rec.error = rec.error or reading.error
    rec.notes += said
    return given


def take_retrieval(rec: AnswerRecord, ranked: list[RetrievedPage], chunks, usage: dict, versions: dict) -> None:
    """What retrieval ranked (the best 40 chunks, the pages), the reports' index versions and the reranker's
    usage, onto the record."""
    rec.retrieved_chunks = [
        {"chunk_id": c.chunk_id, "pdf_sha1": c.sha1, "page_index": c.page_index, "score": round(c.score, 6),
         "sources": c.sources}
        for c in sorted(chunks, key=lambda c: -c.score)[:40]
    ]
    rec.ranked_pages = [p.to_dict() for p in ranked]
    rec.index_versions = versions
    rec.prompt_tokens += usage.get("prompt_tokens", 0)
    rec.completion_tokens += usage.get("completion_tokens", 0)
    rec.llm_calls += usage.get("calls", 0)
