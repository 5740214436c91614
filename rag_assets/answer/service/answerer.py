"""Answer one typed question with the pages that prove it: route to the company's filing(s), rank its pages,
then hand the question to the reader of its kind. Python-first readers: computed metrics and yes/no on
figures (``computed``), numbers picked among Python's candidates (``number_reader``), yes/no and names of a
change from checked statements (``boolean_reader``, ``names_reader``); the model reads passages otherwise
(``passage_reader``); comparisons are split per company (``comparative``)."""

from __future__ import annotations

import time
from functools import partial

from rag_assets.answer.readers.boolean_reader import read_boolean
from rag_assets.answer.readers.comparative import answer_comparative
from rag_assets.answer.evidence.evidence_policy import asks_event
from rag_assets.answer.routing.filing_routes import FilingRoutes
from rag_assets.answer.routing.filings import Filing
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.period import asks_latest_year, with_latest_year
from rag_assets.answer.question.planning import QuestionPlan, company_plan
from rag_assets.answer.question.text import as_read
from rag_assets.answer.readers.names_reader import read_names
from rag_assets.answer.evidence.numbers import NA
from rag_assets.answer.readers.passage_reader import na_value, read_passages
from rag_assets.answer.routing.question_text import retrieval_query, too_long
from rag_assets.answer.readers.readings import take_boolean, take_computed, take_decided, take_names, take_retrieval
from rag_assets.answer.service.number_reads import NumberReads
from rag_assets.answer.readers.record import AnswerRecord, answered, na_reason
from rag_assets.answer.routing.router import Route
from rag_assets.config import RunConfig
from rag_assets.llm.clients import LLMClient
from rag_assets.llm.deadlines import deadline
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.rerank import NoReranker, Reranker
from rag_assets.retrieval.search import RetrievedPage, Retriever, ScoredChunk, merge_pages


# what an answer read in a company's other filings replaces in the record (``Answerer._read_route``)
TAKEN_FROM_SECOND = ("value", "references", "retrieved_chunks", "ranked_pages", "pages_sent", "raw_output", "parsed",
                     "grounded", "candidates", "evidence_ok", "computation", "plan", "index_versions", "sub_answers")


# a kind read from statements: its reader, what takes its reading into the record, the threshold in the settings
STATEMENT_READERS = {"boolean": (read_boolean, take_boolean, "boolean_threshold"),
                     "names": (read_names, take_names, "names_threshold")}


class Answerer:
    """The question-answering pipeline of one run configuration."""

    def __init__(
        self,
        cfg: RunConfig,
        reports: dict[str, str],
        retriever: Retriever,
        llm: LLMClient,
        reranker: Reranker | None = None,
        filings: dict[str, Filing] | None = None,
    ):
        self.cfg = cfg
        self.filing_routes = FilingRoutes(reports, retriever, filings)
        self.retriever = retriever
        self.llm = llm
        self.reranker = reranker or NoReranker()
        self.numbers = NumberReads(cfg, llm, retriever, self.rank_pages)

    # -- public -----------------------------------------------------------------------------------

    def answer(self, question: str, kind: str) -> AnswerRecord:
        t0 = time.perf_counter()
        rec = AnswerRecord(question_text=question, kind=kind, config=self.cfg.name)
        if too_long(self.cfg, question):
            rec.error = (f"the question has {len(question):,} characters; the limit is {self.cfg.max_question_chars:,} "
                         "(max_question_chars)")
            rec.value = None
            return rec
        with deadline(self.cfg.question_deadline_s):
            self._answer(as_read(question), kind, rec)
        rec.na_reason = na_reason({"value": rec.value, "error": rec.error, "notes": rec.notes,
                                   "references": rec.references})
        rec.seconds = round(time.perf_counter() - t0, 3)
        return rec

    def routes(self, question: str, notes: list[str] | None = None) -> list[Route]:
        """The companies a question names, each with the filing(s) that answer it (``answer.filing_routes``)."""
        return self.filing_routes.routes(question, notes)

    def _answer(self, question: str, kind: str, rec: AnswerRecord) -> None:
        try:
            question = self.filing_routes.at_latest_quarter(question, rec.notes)  # 'the most recent quarter'
            routes = self.routes(question, rec.notes)  # reads a filing's cover: may fail like any report read
            rec.companies = [r.company for r in routes]
            rec.routed = [s for r in routes for s in r.sha1s]
            if not routes:
                rec.value = na_value(kind)
                rec.notes.append("no known company is named in the question; answered N/A")
            elif kind == "comparative" or len(routes) >= 2:
                answer_comparative(self.cfg, self.llm, question, routes, rec, self._sub_question)
            else:
                self._read_route(question, kind, routes[0], rec)
        except Exception as exc:  # one question's failure is recorded (an error, never an answer), not fatal
            rec.error = f"{type(exc).__name__}: {exc}"
        if rec.error:  # an error is never an answer: no value, no pages
            rec.value, rec.references = None, []

    def rank_pages(self, question: str, route: Route, query: str | None = None, count: int | None = None
                   ) -> tuple[list[RetrievedPage], list[ScoredChunk], dict]:
        """Candidate pages of the company's report(s), reranked, best first; ``query`` is what is searched
        (default: the question without its template tail and the company's name); ``count`` pages (default
        candidate_pages)."""
        query = query or retrieval_query(question, route.company, route.written)
        count = count or self.cfg.candidate_pages
        per_report, chunks = [], []
        for sha1 in route.sha1s:
            pages, ch = self.retriever.pages(sha1, query, count)
            per_report.append(pages)
            chunks.extend(ch)
        candidates = merge_pages(per_report, count)
        ranked, usage = self.reranker.rerank(query, candidates, len(candidates))
        return ranked, chunks, usage

    # -- internals --------------------------------------------------------------------------------

    def _read_route(self, question: str, kind: str, route: Route, rec: AnswerRecord, query: str | None = None
                    ) -> None:
        """``_single`` on the filings chosen; when they give no answer (N/A, or a yes/no False for want of
        evidence), again on the company's other filings that print the period asked too (a year's figure only
        its fourth-quarter earnings release prints: ``FilingRoutes.also_printing``): ``take_other_filings``."""
        self._single(question, kind, route, rec, query)
        other = None if rec.error or answered(rec.to_dict()) else self.filing_routes.also_printing(route, question)
        if other is not None:
            second = AnswerRecord(question_text=rec.question_text, kind=kind, config=rec.config)
            self._single(question, kind, other, second, query)
            labels = ", ".join(self.filing_routes.filing(s).label for s in other.sha1s)
            take_other_filings(rec, second, other, labels)

    def _single(self, question: str, kind: str, route: Route, rec: AnswerRecord, query: str | None = None) -> None:
        """Answer ``question`` from ``route``'s report(s); ``query`` is what is searched and what quotes and
        figures must name (default: the question without its template tail and the company's name)."""
        plan = self._plan(question, kind, route) if route.sha1s else None
        if plan is not None:
            rec.plan, rec.llm_calls = plan.to_dict(), rec.llm_calls + len(plan.model_calls)
        refused = refusal(route, plan, kind, self.numbers)
        if refused:  # never another year's figure, nor another part's
            rec.value, rec.notes = NA, [*rec.notes, f"{route.company}: {refused}; answered N/A"]
            return
        query = query or retrieval_query(question, route.company, route.written)
        ranked, chunks, usage = self.rank_pages(question, route, query, page_count(self.cfg, self.llm, kind, question))
        take_retrieval(rec, ranked, chunks, usage, {s: self.retriever.index(s).versions() for s in route.sha1s})
        computes = (plan.metric or plan.criterion) and not plan.quarter
        by_year = self.filing_routes.year_filings(route) if computes else {}  # other reports by the years they print
        quarters = self.filing_routes.quarters(route, by_year)  # also a balance asked at a date: its quarter's column
        read = partial(self.numbers.operand, route)  # an operand no statement row prints
        if kind == "number" and take_computed(plan, self.retriever, route.sha1s, rec, question, by_year, quarters,
                                              read):
            return
        if kind == "boolean" and take_decided(plan, question, self.retriever, route.sha1s, rec, by_year, quarters,
                                              read):
            return
        if kind in STATEMENT_READERS and reads_statements(self.cfg, self.llm, kind, question):
            self._read_statements(kind, question, query, route, ranked, rec)
            return
        if kind == "number" and self.cfg.number_reader == "candidates":
            self.numbers.question(question, query, route, ranked, rec, plan, quarters)
            return
        read_passages(self.cfg, self.llm, self.retriever, question, query, kind, ranked, rec)

    def _plan(self, question: str, kind: str, route: Route) -> QuestionPlan:
        """The plan of ``question`` asked of ``route``'s company ('the most recent fiscal year': the routed report's)."""
        asked = with_latest_year(question, self.filing_routes.period_year(route)) if asks_latest_year(question) \
            else question
        return self.plan(asked, kind, route.written, self.filing_routes.own_names(route.company),
                         self.numbers.parts_named(route))

    def plan(self, question: str, kind: str, written: tuple[str, ...] = (), own_names: tuple[str, ...] = (),
             parts: tuple[str, ...] = ()) -> QuestionPlan:
        """The question's plan (``planning.company_plan``), with the model's checked plan where the
        configuration asks for it (question_planner=rules+model); ``parts``: those the route's filings name."""
        return company_plan(question, kind, written, default_library(),
                            self.llm if self.cfg.question_planner == "rules+model" else None, own_names, parts)

    def _read_statements(self, kind: str, question: str, query: str, route: Route, ranked: list[RetrievedPage],
                         rec: AnswerRecord) -> None:
        """Checked statements of the best pages, each judged by the model: a yes/no (``boolean_reader``) or the
        names beside the event word (``names_reader``)."""
        read, take, threshold = STATEMENT_READERS[kind]
        pages = ranked[: self.cfg.statement_pages]
        take(rec, read(self.llm, question, query, pages, default_lexicon(), self.cfg.max_statements,
                       getattr(self.cfg, threshold), self.filing_routes.period_year(route)), pages)

    def _sub_question(self, sub_q: str, route: Route, sub: AnswerRecord, query: str) -> None:
        """A comparison's number sub-question for one company (``answer.comparative``)."""
        self._read_route(sub_q, "number", route, sub, query=query)


def take_other_filings(rec: AnswerRecord, second: AnswerRecord, other: Route, labels: str) -> None:
    """``second``, the answer read in the company's other filings of the period (``labels``), into ``rec`` when it
    is one (its value, pages and what explains them); else why it is not, in ``rec``'s notes."""
    rec.routed = [*rec.routed, *other.sha1s]
    for spent in ("llm_calls", "prompt_tokens", "completion_tokens"):  # both readings' model calls are the answer's
        setattr(rec, spent, getattr(rec, spent) + getattr(second, spent))
    if second.error or not answered(second.to_dict()):
        why = second.error or na_reason(second.to_dict()) or "no answer"
        rec.notes.append(f"{other.company}: not found in the other filings of the period either ({labels}: {why})")
        return
    notes = [*rec.notes, f"{other.company}: not found in the filings chosen; read in {labels}", *second.notes]
    for name in TAKEN_FROM_SECOND:
        setattr(rec, name, getattr(second, name))
    rec.notes = notes


def refusal(route: Route, plan: QuestionPlan | None, kind: str, numbers: NumberReads) -> str:
    """Why ``route`` answers N/A before any page is read, or '': no filing of the company covers the period asked;
    a segment asked that none of its filings has (``unprinted_parts``)."""
    if not route.sha1s:
        return "no filing covers the period asked"
    if kind == "number" and plan is not None and plan.segment:
        return numbers.unprinted_part(route, plan.part)
    return ""


def reads_statements(cfg, llm, kind: str, question: str) -> bool:
    """A yes/no, or a names question about a change, read from statements (needs token probabilities)."""
    if not hasattr(llm, "choice_logprobs"):
        return False
    if kind == "boolean":
        return cfg.boolean_reader == "statements"
    return kind == "names" and cfg.names_reader == "statements" and asks_event(question, default_lexicon())


def page_count(cfg, llm, kind: str, question: str) -> int:
    """Pages ranked for a question: more for the statements readers (Python reads them all, the model only the
    statements found)."""
    if reads_statements(cfg, llm, kind, question):
        return max(cfg.candidate_pages, cfg.statement_pages)
    return cfg.candidate_pages
