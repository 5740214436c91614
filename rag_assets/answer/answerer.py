"""Answer one typed question with the pages that prove it: route, retrieve, rerank, ask, check."""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field, replace

from rag_assets.config import RunConfig
from rag_assets.llm.clients import LLMClient, StructuredResult, deadline, structured_call
from rag_assets.answer.boolean_reader import cited as boolean_cited, read_boolean
from rag_assets.answer.computed import Computation, compute, decide
from rag_assets.answer.filings import COVER_PAGES, Filing, asked_period, cover_year, detect, select
from rag_assets.answer.formulas import Item
from rag_assets.answer.metric_library import default_library
from rag_assets.answer.metric_question import criterion as metric_criterion, plan as metric_plan
from rag_assets.answer.evidence_policy import asks_event, event_problem, hedge_problem, on_topic
from rag_assets.answer.names_reader import cited as names_cited, read_names
from rag_assets.answer.number_reader import read_number
from rag_assets.answer.numbers import NA, close, grounded, is_na, parse_number, resolve_number
from rag_assets.answer.units import asked_unit, report_dollar
from rag_assets.llm.prompts import build_messages, fill, load_prompt
from rag_assets.retrieval.rerank import NoReranker, Reranker, page_block
from rag_assets.retrieval.search import RetrievedPage, Retriever, ScoredChunk, merge_pages
from rag_assets.answer.routing import Route, Router, normalize_name
from rag_assets.llm.schemas import SCHEMAS
from rag_assets.retrieval.passages import best_passage
from rag_assets.retrieval.query import default_lexicon

INSTRUCTION_TAIL_RE = re.compile(
    r"\s*(If (data|there) is not available|If there is no mention|Give me the title|If data is not)[^?]*$", re.I
)
QUOTE_NOISE_RE = re.compile(r"[|#*`\"'“”‘’]+")
WORD3_RE = re.compile(r"[a-z0-9][a-z0-9.,%-]*[a-z0-9%]|[a-z0-9]")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", QUOTE_NOISE_RE.sub(" ", text.lower())).strip()


def quote_in_context(quote: str, texts: list[str], min_share: float = 0.85) -> bool:
    """True if ``quote`` is (nearly) word for word in one of ``texts``: verbatim after folding case, spaces
    and table pipes, or with at least ``min_share`` of its words on one page."""
    q = _norm(quote)
    if len(q) < 8:
        return False
    words = [w for w in WORD3_RE.findall(q) if len(w) >= 3]
    for text in texts:
        t = _norm(text)
        if q in t:
            return True
        if len(words) >= 4:
            have = set(WORD3_RE.findall(t))
            if sum(1 for w in words if w in have) >= min_share * len(words):
                return True
    return False


LOWEST_RE = re.compile(r"\b(lowest|least|smallest|minimum|fewest|lower|smaller)\b", re.I)
HIGHEST_RE = re.compile(r"\b(highest|largest|most|greatest|maximum|biggest|higher|larger|top)\b", re.I)
COMPARE_HEAD_RE = re.compile(r"^\s*which\s+(?:of\s+the\s+)?compan(?:y|ies)\s+(?:had|has|have|reported|showed|was|"
                             r"were|is)\s+(?:the\s+)?", re.I)
QUOTED_LIST_RE = re.compile(r"[:,]?\s*(?:\"[^\"]*\"\s*(?:,|\band\b|\bor\b)?\s*)+\??\s*$")
IN_REPORTS_RE = re.compile(r"\b(?:in|according to)\s+(?:their|its|the)\s+annual\s+reports?\b", re.I)


def comparative_metric(question: str) -> str:
    """What a comparison compares: 'Which of the companies had the lowest total assets in USD in their annual
    reports: "A", "B"?' -> 'total assets in USD'. Each company's sub-question searches for it and its figure
    must name it (the question's other words and the other companies' names would only dilute both)."""
    q = INSTRUCTION_TAIL_RE.sub("", question).strip()
    q = COMPARE_HEAD_RE.sub("", QUOTED_LIST_RE.sub("", q))
    q = IN_REPORTS_RE.sub(" ", HIGHEST_RE.sub(" ", LOWEST_RE.sub(" ", q)))
    return re.sub(r"\s+", " ", q).strip(" ?:,") or retrieval_query(question)


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
    fingerprint: str = ""  # what produced it (answer.fingerprint.answer_key): reused only while it matches

    def to_dict(self) -> dict:
        return asdict(self)

    def submission(self) -> dict:
        return {
            "question_text": self.question_text,
            "kind": self.kind,
            "value": self.value,
            "references": [{"pdf_sha1": r["pdf_sha1"], "page_index": r["page_index"]} for r in self.references],
        }


def too_long(cfg: RunConfig, question: str) -> bool:
    """A question over ``max_question_chars`` is refused before any work (routing, embedding) is spent on it."""
    return len(question) > cfg.max_question_chars


def retrieval_query(question: str, company: str | None = None) -> str:
    """The question without the challenge's trailing instructions ('If data is not available...') and
    without the company's name: inside its own report every page is about the company, so the name only
    pulls covers and headers up the ranking."""
    query = INSTRUCTION_TAIL_RE.sub("", question).strip() or question
    if company:
        names = {company, company.rstrip("."), normalize_name(company)}
        for name in sorted((n for n in names if n), key=len, reverse=True):
            query = re.sub(re.escape(name), " ", query, flags=re.I)
        query = re.sub(r"\s+", " ", query).strip(" ,") or question
    return query


def page_proves(kind: str, value, quote: str, text: str) -> bool:
    """The page prints the answer: the number (in some unit form), the name, one of the names, or (yes/no and
    anything else) the evidence quote."""
    if kind == "number" and isinstance(value, float):
        return grounded(value, [text])
    if kind == "name" and isinstance(value, str):
        return name_in(value, text)
    if kind == "names" and isinstance(value, list):
        return any(name_in(n, text) for n in value)
    return quote_in_context(quote, [text])


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def name_in(name: str, text: str) -> bool:
    """``name`` is printed in ``text`` (case and runs of whitespace folded)."""
    return _flat(name) in _flat(text)


def _add_call(rec: AnswerRecord, res: StructuredResult) -> None:
    """Record a structured call's output and usage (and whether the repair prompt was needed)."""
    rec.raw_output = res.raw
    rec.prompt_tokens += res.prompt_tokens
    rec.completion_tokens += res.completion_tokens
    rec.llm_calls += len(res.calls)
    if res.repaired:
        rec.notes.append("output repaired by the schema-repair prompt")
    if res.cut:
        rec.notes.append("output cut at the token limit: only its complete items were kept")


def _refs(pages: list[RetrievedPage]) -> list[dict]:
    return list({(p.sha1, p.page_index): {"pdf_sha1": p.sha1, "page_index": p.page_index} for p in pages}.values())


def build_context(pages: list[RetrievedPage], max_chars: int) -> tuple[str, list[RetrievedPage]]:
    """Whole pages, best first, each prefixed 'PAGE <page_index>', within a character budget."""
    parts, used, sent = [], 0, []
    for p in pages:
        room = max_chars - used
        if room < 300:
            break
        block = page_block(p)
        if len(block) > room:
            block = block[:room] + "\n[... page truncated]"
        parts.append(block)
        used += len(block)
        sent.append(p)
    return "\n\n".join(parts), sent


def _note_computation(rec: AnswerRecord, comp: Computation, *notes: str) -> None:
    """Keep a computation (formula, operands, what is missing) and its notes on the record."""
    rec.computation = comp.to_dict()
    rec.notes += comp.notes + list(notes)


def _take_computation(rec: AnswerRecord, comp: Computation) -> None:
    """A computation is the answer: its value (N/A when an operand is missing: nothing cited), the operands'
    pages as what was read and cited."""
    _note_computation(rec, comp)
    rec.value, rec.references = comp.value, comp.references if comp.value != NA else []
    rec.pages_sent = comp.references
    rec.grounded = rec.evidence_ok = comp.value != NA


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
        self.filings = {s: (filings or {}).get(s) or Filing(s, name) for s, name in reports.items()}
        aliases: dict[str, tuple[str, ...]] = {}
        for f in self.filings.values():
            aliases[f.company] = tuple(dict.fromkeys(aliases.get(f.company, ()) + f.aliases))
        self.router = Router(reports, aliases)
        self.retriever = retriever
        self.llm = llm
        self.reranker = reranker or NoReranker()
        self._dollars: dict[str, str] = {}  # report -> what a bare '$' means in it

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
            self._answer(question, kind, rec)
        rec.seconds = round(time.perf_counter() - t0, 3)
        return rec

    def routes(self, question: str, notes: list[str] | None = None) -> list[Route]:
        """The companies a question names, each with the filing(s) that answer it (``answer.filings.select``:
        by the period asked, else the latest annual report)."""
        asked = asked_period(question)
        out = []
        for route in self.router.route(question):
            chosen, why = select([self._filing(s) for s in route.sha1s], asked)
            if len(route.sha1s) > 1 and notes is not None:
                notes.append(f"{route.company}: {why} ({', '.join(f.label for f in chosen)})")
            out.append(replace(route, sha1s=tuple(f.sha1 for f in chosen)))
        return out

    def _filing(self, sha1: str) -> Filing:
        """The filing's type and period: subset.csv's, completed once from the report's first pages."""
        f = self.filings[sha1]
        if not f.doc_type or f.year is None:
            pages = self.retriever.index(sha1).pages
            f = self.filings[sha1] = detect(f, [pages[i] for i in sorted(pages)[:COVER_PAGES]])
        return f

    def _period_year(self, sha1: str) -> int | None:
        """The filing's fiscal year, else the year its cover prints most often."""
        if self._filing(sha1).year is not None:
            return self._filing(sha1).year
        pages = self.retriever.index(sha1).pages
        return cover_year([pages[i] for i in sorted(pages)[:COVER_PAGES]])

    def _answer(self, question: str, kind: str, rec: AnswerRecord) -> None:
        try:
            routes = self.routes(question, rec.notes)  # reads a filing's cover: may fail like any report read
            rec.companies = [r.company for r in routes]
            rec.routed = [s for r in routes for s in r.sha1s]
            if not routes:
                rec.value = self._na_value(kind)
                rec.notes.append("no known company is named in the question; answered N/A")
            elif kind == "comparative" or len(routes) >= 2:
                self._comparative(question, kind, routes, rec)
            else:
                self._single(question, kind, routes[0], rec)
        except Exception as exc:  # one question's failure is recorded (an error, never an answer), not fatal
            rec.error = f"{type(exc).__name__}: {exc}"
        if rec.error:  # an error is never an answer: no value, no pages
            rec.value, rec.references = None, []

    def rank_pages(self, question: str, route: Route, query: str | None = None, count: int | None = None
                   ) -> tuple[list[RetrievedPage], list[ScoredChunk], dict]:
        """Candidate pages of the company's report(s), reranked, best first; ``query`` is what is searched
        (default: the question without its template tail and the company's name); ``count`` pages (default
        candidate_pages)."""
        query = query or retrieval_query(question, route.company)
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

    @staticmethod
    def _na_value(kind: str):
        return False if kind == "boolean" else NA

    def _single(self, question: str, kind: str, route: Route, rec: AnswerRecord, query: str | None = None) -> None:
        """Answer ``question`` from ``route``'s report(s); ``query`` is what is searched and what quotes and
        figures must name (default: the question without its template tail and the company's name)."""
        query = query or retrieval_query(question, route.company)
        ranked, chunks, usage = self.rank_pages(question, route, query, self._page_count(kind, question))
        rec.retrieved_chunks = [
            {"chunk_id": c.chunk_id, "pdf_sha1": c.sha1, "page_index": c.page_index, "score": round(c.score, 6),
             "sources": c.sources}
            for c in sorted(chunks, key=lambda c: -c.score)[:40]
        ]
        rec.ranked_pages = [p.to_dict() for p in ranked]
        rec.index_versions = {s: self.retriever.index(s).versions() for s in route.sha1s}
        rec.prompt_tokens += usage.get("prompt_tokens", 0)
        rec.completion_tokens += usage.get("completion_tokens", 0)
        rec.llm_calls += usage.get("calls", 0)
        if kind == "number" and self._computed(question, route, rec):
            return
        if kind == "boolean" and self._decided(question, route, rec):
            return
        if kind == "boolean" and self._reads_statements(kind, question):
            self._read_boolean(question, query, route, ranked, rec)
            return
        if kind == "names" and self._reads_statements(kind, question):
            self._read_names(question, query, route, ranked, rec)
            return
        if kind == "number" and self.cfg.number_reader == "candidates":
            self._read_number(question, query, route, ranked, rec)
            return
        top = self._context_pages(query, ranked)
        context, sent = build_context(top, self.cfg.max_context_tokens * 4)
        rec.pages_sent = [{"pdf_sha1": p.sha1, "page_index": p.page_index} for p in sent]
        prompt_kind = "number" if kind == "number" else kind if kind in SCHEMAS else "name"
        messages, schema = build_messages(prompt_kind, context=context, question=question)
        res = structured_call(self.llm, messages, schema, max_tokens=self.cfg.max_output_tokens)
        _add_call(rec, res)
        if res.value is None:
            rec.value = self._na_value(kind)
            rec.error = res.error
            return
        rec.parsed = res.value.model_dump()
        rec.value = self._final_value(kind, res.value)
        if kind in ("name", "names") and rec.value != NA:
            self._ground_names(kind, sent, rec)
        self._check_evidence(question, query, kind, res.value, sent, rec)
        rec.references = self._references(kind, rec.value, res.value, sent, rec)

    def _computed(self, question: str, route: Route, rec: AnswerRecord) -> bool:
        """A question naming a fiscal year and a metric Python can compute (its own definition, a standard form
        or metric, a line item): computed from cited statement rows (``answer.computed``). True when that is
        the answer (a value, or N/A for a formula with an operand missing); a single line item not found is
        left to the number reader."""
        plan = metric_plan(question, default_library())
        if plan is None:
            return False
        comp = compute(plan, asked_unit(question), self.retriever, route.sha1s, default_library(), default_lexicon())
        if comp.value == NA and isinstance(plan.node, Item):
            _note_computation(rec, comp, "the line item is read by the number reader instead")
            return False
        _take_computation(rec, comp)
        return True

    def _decided(self, question: str, route: Route, rec: AnswerRecord) -> bool:
        """A yes/no whose criterion is on figures ('positive working capital based on FY2022 data', 'did X
        increase its debt between 2021 and 2022'): decided by Python from cited rows; True when decided (an
        operand missing leaves the question to the model)."""
        crit = metric_criterion(question, default_library())
        if crit is None:
            return False
        comp = decide(crit, self.retriever, route.sha1s, default_library(), default_lexicon())
        if comp.value == NA:
            _note_computation(rec, comp, "the figures do not decide it: the model judges")
            return False
        _take_computation(rec, comp)
        return True

    def _reads_statements(self, kind: str, question: str) -> bool:
        """A yes/no, or a names question about a change, read from statements (needs token probabilities)."""
        if not hasattr(self.llm, "choice_logprobs"):
            return False
        if kind == "boolean":
            return self.cfg.boolean_reader == "statements"
        return kind == "names" and self.cfg.names_reader == "statements" and asks_event(question, default_lexicon())

    def _page_count(self, kind: str, question: str) -> int:
        """Pages ranked for a question: more for the statements readers (Python reads them all, the model only
        the statements found)."""
        if self._reads_statements(kind, question):
            return max(self.cfg.candidate_pages, self.cfg.statement_pages)
        return self.cfg.candidate_pages

    def _statement_year(self, route: Route) -> int | None:
        years = [y for y in (self._period_year(s) for s in route.sha1s) if y is not None]
        return max(years, default=None)

    def _read_names(self, question: str, query: str, route: Route, ranked: list[RetrievedPage],
                    rec: AnswerRecord) -> None:
        """The names beside the event word of checked statements, each statement judged by the model
        (``answer.names_reader``)."""
        pages = ranked[: self.cfg.statement_pages]
        reading = read_names(self.llm, question, query, pages, default_lexicon(), self.cfg.max_statements,
                             self.cfg.names_threshold, self._statement_year(route))
        rec.llm_calls += len(reading.judged)
        rec.candidates = [n.to_dict() for n in reading.judged]
        shown = {(n.statement.sha1, n.statement.page_index) for n in reading.judged}
        rec.pages_sent = [{"pdf_sha1": p.sha1, "page_index": p.page_index} for p in pages
                          if (p.sha1, p.page_index) in shown]
        rec.notes += reading.notes
        rec.value = reading.value
        rec.references = names_cited(reading)
        rec.grounded = rec.evidence_ok = reading.value != NA or None
        if reading.proof:
            rec.parsed = {"evidence_quote": reading.proof[0].statement.text, "p_yes": reading.proof[0].p_yes}

    def _read_boolean(self, question: str, query: str, route: Route, ranked: list[RetrievedPage],
                      rec: AnswerRecord) -> None:
        """Checked statements of the best pages, each judged by the model (``answer.boolean_reader``)."""
        pages = ranked[: self.cfg.statement_pages]
        reading = read_boolean(self.llm, question, query, pages, default_lexicon(), self.cfg.max_statements,
                               self.cfg.boolean_threshold, self._statement_year(route))
        rec.llm_calls += len(reading.statements)
        rec.candidates = [s.to_dict() for s in reading.statements]
        shown = {(s.sha1, s.page_index) for s in reading.statements}
        rec.pages_sent = [{"pdf_sha1": p.sha1, "page_index": p.page_index} for p in pages
                          if (p.sha1, p.page_index) in shown]
        rec.notes += reading.notes
        rec.value = reading.value
        rec.references = boolean_cited(reading)
        rec.grounded = rec.evidence_ok = reading.value or None
        if reading.proof:
            rec.parsed = {"evidence_quote": reading.proof[0].text, "p_yes": reading.proof[0].p_yes}

    def _context_pages(self, query: str, ranked: list[RetrievedPage]) -> list[RetrievedPage]:
        """What the model reads: the top_pages whole pages, or (context='passages') the best passage of each of
        the passage_pages best pages; checks and citations then hold to what was read."""
        if self.cfg.context != "passages":
            return ranked[: self.cfg.top_pages]
        kq = self.retriever.keywords(query)
        return [replace(p, text=best_passage(p.text, kq.own, kq.added, self.cfg.passage_chars))
                for p in ranked[: self.cfg.passage_pages]]

    def _read_number(self, question: str, query: str, route: Route, ranked: list[RetrievedPage],
                     rec: AnswerRecord) -> None:
        """Figure candidates from the best-ranked pages, the model's pick, Python's checks (number_reader)."""
        pages = ranked[: self.cfg.number_pages]
        for sha1 in route.sha1s:
            if sha1 not in self._dollars:
                self._dollars[sha1] = report_dollar(self.retriever.index(sha1).pages.values())
        reading = read_number(self.llm, question, query, pages,
                              default_lexicon(), self._dollars, self.cfg.max_candidates,
                              verify_min=self.cfg.number_verify_min, year=asked_period(question).target)
        rec.candidates = [c.to_dict() for c in reading.candidates]
        shown = {(c.sha1, c.page_index) for c in reading.candidates}
        rec.pages_sent = [{"pdf_sha1": p.sha1, "page_index": p.page_index} for p in pages
                          if (p.sha1, p.page_index) in shown]
        rec.notes += reading.notes
        if reading.result is not None:
            _add_call(rec, reading.result)
            value = reading.result.value
            rec.parsed = value.model_dump() if value is not None else None
        rec.error = reading.error
        rec.value = reading.value
        unit = asked_unit(question)
        if isinstance(rec.value, float) and unit.words != "full units":  # the scale and rounding asked
            before = rec.value
            rec.value = unit.rounded(rec.value) if reading.percent else unit.amount(rec.value)
            rec.notes.append(f"{before:g} written as asked ({unit.words}): {rec.value:g}")
        if reading.p_yes is not None:
            rec.notes.append(f"check p(yes)={reading.p_yes}")
        if reading.candidate is not None:
            c = reading.candidate
            rec.references = [{"pdf_sha1": c.sha1, "page_index": c.page_index}]
            rec.grounded = rec.evidence_ok = True

    def _check_evidence(self, question, query, kind, parsed, sent, rec) -> None:
        """Verify the evidence quote: in the context, on the question's topic, and (numbers) holding the value.
        Under ``na_if_ungrounded`` an answer without such evidence becomes 'N/A' (False for yes/no)."""
        if rec.value in (NA, False, []):
            return
        quote = getattr(parsed, "evidence_quote", "") or ""
        texts = [p.text for p in sent]
        lexicon = default_lexicon()
        ok = quote_in_context(quote, texts) and on_topic(quote, query, lexicon)
        if ok and kind == "number" and isinstance(rec.value, float):
            ok = grounded(rec.value, [quote])
        problem = None
        if ok and kind in ("boolean", "names"):
            problem = event_problem(question, quote, lexicon) or hedge_problem(quote, query, lexicon)
        if problem:
            rec.notes.append(problem)
            ok = False
        rec.evidence_ok = ok
        if not ok and self.cfg.grounding == "na_if_ungrounded":
            rec.notes.append(f"no verifiable evidence for {rec.value!r} (quote: {quote[:80]!r}); answered "
                             f"{'False' if kind == 'boolean' else 'N/A'}")
            rec.value = self._na_value(kind)
            rec.references = []

    def _ground_names(self, kind: str, sent: list[RetrievedPage], rec: AnswerRecord) -> None:
        """Names must be printed in the context the model saw (small models copy the one-shot example)."""
        haystack = _flat(" ".join(p.text for p in sent))

        def found(name: str) -> bool:
            return _flat(name) in haystack

        if kind == "names":
            kept = [n for n in rec.value if found(n)]
            dropped = [n for n in rec.value if not found(n)]
            if dropped:
                rec.notes.append(f"names not in the context dropped: {dropped}")
            rec.grounded = not dropped
            rec.value = kept or NA
        else:
            rec.grounded = found(rec.value)
            if not rec.grounded and self.cfg.grounding == "na_if_ungrounded":
                rec.notes.append(f"ungrounded name {rec.value!r} replaced by N/A")
                rec.value = NA

    def _final_value(self, kind: str, parsed):
        fa = parsed.final_answer
        if kind == "number":
            v = resolve_number(fa, getattr(parsed, "value_as_written", None), getattr(parsed, "scale", None))
            return v if v == NA else float(f"{v:.12g}")  # 2.043 x 1e9 is 2043000000, not ...0000002
        if kind == "boolean":
            return bool(fa)
        if kind == "names":
            if isinstance(fa, list):
                names = list(dict.fromkeys(x.strip() for x in fa if x and not is_na(x)))
                return names or NA
            return NA
        return NA if is_na(fa) else str(fa).strip()

    def _references(self, kind: str, value, parsed, sent: list[RetrievedPage], rec: AnswerRecord) -> list[dict]:
        """The pages that prove ``value``, matched on (report, page): cited pages that were in the context and
        (unless ``grounding='off'``) print the value, the name(s) or the evidence quote. If no cited page does,
        the best-ranked context page that does is cited; if none does, nothing is (noted; under
        ``na_if_ungrounded`` the answer becomes N/A). None for 'N/A' or False."""
        if value == NA or value is False or value == []:
            return []
        cited = [p for page in parsed.relevant_pages for p in sent if p.page_index == page]
        missing = [page for page in parsed.relevant_pages if not any(p.page_index == page for p in sent)]
        if missing:
            rec.notes.append(f"cited pages not in the context dropped: {missing}")
        if self.cfg.grounding == "off":
            cited = cited or sent[:1]
            return _refs(cited)
        quote = getattr(parsed, "evidence_quote", "") or ""
        proven = [p for p in cited if page_proves(kind, value, quote, p.text)]
        if len(proven) < len(cited):
            rec.notes.append(f"cited pages that do not show the answer dropped: "
                             f"{[p.page_index for p in cited if p not in proven]}")
        if not proven:
            proven = [p for p in sent if page_proves(kind, value, quote, p.text)][:1]
            if proven:
                rec.notes.append(f"page {proven[0].page_index} shows the answer and is cited instead")
        if kind == "number":
            rec.grounded = bool(proven)
        if not proven:
            rec.notes.append("no page in the context shows the answer: nothing cited")
            if self.cfg.grounding == "na_if_ungrounded":
                rec.notes.append(f"unproven answer {value!r} replaced by {'False' if kind == 'boolean' else 'N/A'}")
                rec.value = self._na_value(kind)
        return _refs(proven)

    def _comparative(self, question: str, kind: str, routes: list[Route], rec: AnswerRecord) -> None:
        template = load_prompt("comparative").extra["sub_question"]
        metric = comparative_metric(question)
        subs: list[AnswerRecord] = []
        for route in routes:
            sub_q = fill(template, {"metric": metric, "company": route.company})
            sub = AnswerRecord(question_text=sub_q, kind="number", config=self.cfg.name,
                               companies=[route.company], routed=list(route.sha1s))
            try:
                self._single(sub_q, "number", route, sub, query=metric)
            except Exception as exc:
                sub.value, sub.error = NA, f"{type(exc).__name__}: {exc}"
            subs.append(sub)
            rec.prompt_tokens += sub.prompt_tokens
            rec.completion_tokens += sub.completion_tokens
            rec.llm_calls += sub.llm_calls
        rec.sub_answers = [
            {"company": r.company, "value": s.value, "references": s.references, "error": s.error,
             "grounded": s.grounded, "pages_sent": s.pages_sent}
            for r, s in zip(routes, subs)
        ]
        failed = [(r.company, s.error) for r, s in zip(routes, subs) if s.error]
        if failed:
            rec.error = "; ".join(f"sub-question for {c} failed: {e}" for c, e in failed)
            return
        values = {r.company: s.value for r, s in zip(routes, subs) if isinstance(s.value, float)}
        direction = "min" if LOWEST_RE.search(question) else "max" if HIGHEST_RE.search(question) else None
        if not values:
            rec.value = NA
            rec.notes.append("no company has a value: N/A")
            return
        if direction:
            pick = min if direction == "min" else max
            best = pick(values, key=values.get)
            ties = [c for c, v in values.items() if close(v, values[best], 1e-9)]
            rec.value = best
            rec.notes.append(f"compared in code ({direction}) over {len(values)} value(s); ties: {len(ties)}")
        else:
            context = "\n".join(
                f"- {r.company}: {s.value} (pages {[x['page_index'] for x in s.references]})"
                for r, s in zip(routes, subs)
            )
            messages, schema = build_messages("comparative", context=context, question=question)
            res = structured_call(self.llm, messages, schema, max_tokens=self.cfg.max_output_tokens)
            rec.llm_calls += len(res.calls)
            rec.raw_output = res.raw
            if res.value is None:
                rec.value, rec.error = NA, res.error
                return
            rec.parsed = res.value.model_dump()
            rec.value = NA if is_na(res.value.final_answer) else res.value.final_answer.strip()
        rec.references = [ref for s in subs for ref in s.references]


__all__ = ["Answerer", "AnswerRecord", "build_context", "retrieval_query", "parse_number"]
