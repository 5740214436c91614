"""The number reader as the answerer calls it: for a whole question (``question``), and for one operand of a
formula that no statement row prints (``operand``, see ``readers.operand_reader``); what a bare '$' means in each
report is read once."""

from __future__ import annotations

from typing import Callable

from rag_assets.answer.evidence.part_sections import parts_of
from rag_assets.answer.evidence.unprinted_parts import unprinted_part
from rag_assets.answer.evidence.units import report_dollar
from rag_assets.answer.question.bases import without_basis, without_part_noun
from rag_assets.answer.question.counts import counted_noun
from rag_assets.answer.question.formulas import Item
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.period import asked_period
from rag_assets.answer.question.planning import QuestionPlan
from rag_assets.answer.readers.number_reader import NumberReading, read_number
from rag_assets.answer.readers.operand_reader import operand_question
from rag_assets.answer.readers.readings import take_number
from rag_assets.answer.readers.record import AnswerRecord
from rag_assets.answer.routing.question_text import retrieval_query
from rag_assets.answer.routing.router import Route
from rag_assets.config import RunConfig
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.search import RetrievedPage, Retriever


class NumberReads:
    def __init__(self, cfg: RunConfig, llm, retriever: Retriever, rank: Callable):
        self.cfg, self.llm, self.retriever = cfg, llm, retriever
        self.rank = rank  # (question, route, query) -> (ranked pages, chunks, usage)

    def question(self, question: str, query: str, route: Route, ranked: list[RetrievedPage],
                 rec: AnswerRecord, plan: QuestionPlan, quarters: dict[str, int] | None = None) -> None:
        """Figure candidates from the best-ranked pages (every page of the route's filings when none of those
        names the metric: ``wider``), the model's pick, Python's checks (number_reader); the plan's part of the
        company, which every candidate must name, and what a count question counts; ``quarters``: the quarter
        each interim filing of the route reports on."""
        every = every_page(self.retriever, route, ranked) if plan.counted else []  # a count, wherever printed
        asked = asked_period(question)
        year = asked.target
        basis = next((b for b in default_library().bases if b.name == plan.basis), None)
        query = without_basis(query, basis)  # the figure's words; the basis is a line's to name, not the metric's
        if basis is not None:  # and the part's noun: its row names the part alone, its columns the basis
            query = without_part_noun(query, plan.part, default_library().part_nouns)
        def read(pages: list[RetrievedPage], wide: bool) -> NumberReading:
            return read_number(self.llm, question, query, pages, default_lexicon(), self.dollars(route),
                               self.cfg.max_candidates, verify_min=self.cfg.number_verify_min, year=year,
                               wide=wide,
                               part=plan.part, counted=plan.counted, count_pages=every, months=plan.months,
                               quarter=(year, plan.quarter) if plan.quarter and year else None,
                               own_quarters=quarters, qualifiers=plan.qualifiers, percent=plan.percent,
                               points=plan.points, parts=self.parts(route), as_of=asked.as_of, basis=basis,
                               company=(route.company, *route.written), since_start=plan.since_start)
        reading, pages = self.wider(route, ranked, read, every or None)
        read_on = {(c.sha1, c.page_index) for c in reading.candidates}
        take_number(rec, reading, pages + [p for p in every if (p.sha1, p.page_index) in read_on and p not in pages],
                    question)

    def operand(self, route: Route, item: Item) -> NumberReading:
        """One operand of a formula read by the number reader from the pages ranked for it alone (every page of
        the route's filings when none of those names it); a count ('the ratio of revenue to employees') is read
        as a count question reads it, beside its noun on any page."""
        question = operand_question(route.company, item, item.name not in default_library().items)
        query = retrieval_query(question, route.company, route.written)
        ranked = self.rank(question, route, query)[0]
        counted = counted_noun(question)
        every = every_page(self.retriever, route, ranked) if counted else None  # a count, wherever printed
        def read(pages: list[RetrievedPage], wide: bool) -> NumberReading:
            return read_number(self.llm, question, query, pages, default_lexicon(), self.dollars(route),
                               self.cfg.max_candidates, verify_min=self.cfg.number_verify_min, year=item.year,
                               wide=wide, part=item.part, counted=counted, count_pages=every,
                               months=item.months, quarter=(item.year, item.quarter) if item.quarter else None,
                               parts=self.parts(route))
        return self.wider(route, ranked, read, every)[0]

    def wider(self, route: Route, ranked: list[RetrievedPage],
              read: Callable[[list[RetrievedPage], bool], NumberReading], every: list[RetrievedPage] | None = None
              ) -> tuple[NumberReading, list[RetrievedPage]]:
        """``read`` on the number_pages best-ranked pages; when no row or sentence of them names the metric with a
        figure of the kind and period asked, on every page of the route's filings, the ranked ones first, each
        line printing nearly every word of the metric and each figure dated by its column, its sentence or at
        least its page (``read``'s second argument): an N/A then says that no page of the filings prints it.
        Returns the reading and the pages it read; ``every``: those pages when the caller has them already."""
        pages = ranked[: self.cfg.number_pages]
        reading = read(pages, False)
        if reading.candidates or reading.error:
            return reading, pages
        every = every or every_page(self.retriever, route, ranked)
        if len(every) <= len(pages):
            return reading, pages
        wide = read(every, True)
        wide.notes = [f"no row or sentence of the {len(pages)} best-ranked pages names the metric: every page of the "
                      f"filings read ({len(every)}) for lines printing nearly its every word, their figures dated",
                      *wide.notes]
        return wide, every

    def parts(self, route: Route) -> dict[str, tuple[str, ...]]:
        """The parts each report of the route names (its segments and divisions), read once a report."""
        return {sha1: parts_of(self.retriever, sha1) for sha1 in route.sha1s}

    def unprinted_part(self, route: Route, part: str) -> str:
        """Why the segment ``part`` asked is none of the route's company (``unprinted_parts``), or ''."""
        texts = (text for sha1 in route.sha1s for text in self.retriever.index(sha1).pages.values())
        return unprinted_part(part, self.parts_named(route), texts)

    def parts_named(self, route: Route) -> tuple[str, ...]:
        """The parts the route's filings name, each once: what a question may name as a part without its noun."""
        return tuple(dict.fromkeys(p for named in self.parts(route).values() for p in named))

    def dollars(self, route: Route) -> dict[str, str]:
        """What a bare '$' means in each report of the route, read once a loaded report."""
        return {sha1: self.retriever.index(sha1).derived("dollar", lambda pages: report_dollar(pages.values()))
                for sha1 in route.sha1s}


def every_page(retriever: Retriever, route: Route, ranked: list[RetrievedPage]) -> list[RetrievedPage]:
    """Every page of the route's reports: the ranked ones first, then the others in page order."""
    seen = {(p.sha1, p.page_index) for p in ranked}
    rest = [RetrievedPage(sha1, i, 0.0, text, []) for sha1 in route.sha1s
            for i, text in sorted(retriever.index(sha1).pages.items()) if (sha1, i) not in seen]
    return list(ranked) + rest
