"""Answer a question set with one configuration: build the pipeline, write each answer as it is made
(JSONL, resumable), keep lineage in DuckDB, and write the challenge's submission JSON."""

from __future__ import annotations

import logging
import queue
import threading
import time
from pathlib import Path
from typing import Callable

from rag_assets.answer.service.answerer import Answerer
from rag_assets.answer.routing.question_text import too_long
from rag_assets.answer.readers.record import AnswerRecord
from rag_assets.answer.service.fingerprint import answer_key, run_label, settings_fingerprint
from rag_assets.answer.service.lineage import AnswerDB, AnswerLog, write_submission
from rag_assets.storage.atomic import write_json
from rag_assets.config import RunConfig, SettingsError
from rag_assets.llm.factory import build_llm
from rag_assets.index.embedding import make_embedder
from rag_assets.answer.service.questions import Question, repeated
from rag_assets.retrieval.rerank import CrossEncoderReranker, LLMReranker, NoReranker, Reranker, YesNoReranker
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.search import Retriever

log = logging.getLogger(__name__)


def build_answerer(cfg: RunConfig, root: Path, reports: dict[str, str], llm=None, embedder=None,
                   filings: dict | None = None) -> Answerer:
    """The pipeline of ``cfg`` over the reports under ``root`` (sha1 -> company name; ``filings``: sha1 ->
    ``answer.filings.Filing`` as subset.csv describes them)."""
    if embedder is None and cfg.retrieval != "bm25":
        embedder = make_embedder(cfg.embedder, cfg.embedding_model or None)
    retriever = Retriever(root, embedder, cfg.retrieval, cfg.vector_k, cfg.bm25_k, cfg.rrf_k, page_bm25=cfg.page_bm25,
                          fusion=cfg.fusion, lexicon=default_lexicon() if cfg.query_expansion else None,
                          page_type_prior=cfg.page_type_prior, proximity_pages=cfg.proximity_pages,
                          proximity_chars=cfg.proximity_chars, embed_without_template=cfg.embed_without_template)
    llm = llm or build_llm(cfg)
    reranker = build_reranker(cfg, llm, retriever)
    return Answerer(cfg, reports, retriever, llm, reranker, filings)


def build_reranker(cfg: RunConfig, llm, retriever: Retriever) -> Reranker:
    """The configuration's page reranker. One that cannot be built here (no cross-encoder folder, a client
    without token probabilities for yes-no) is a ``SettingsError``: one line, before any question is asked."""
    same_model = not cfg.rerank_model or cfg.rerank_model == cfg.answer_model
    try:
        if cfg.rerank == "llm":
            return LLMReranker(llm if same_model else build_llm(cfg, cfg.rerank_model), cfg.rerank_batch,
                               cfg.rerank_llm_weight)
        if cfg.rerank == "yes-no":
            return YesNoReranker(llm if same_model else build_llm(cfg, cfg.rerank_model), retriever.keywords,
                                 cfg.rerank_llm_weight, cfg.rerank_passage_chars)
        if cfg.rerank == "cross-encoder":
            return CrossEncoderReranker(cfg.cross_encoder_path, cfg.rerank_llm_weight)
    except ValueError as exc:
        raise SettingsError(f"rerank={cfg.rerank}: {exc}") from None
    return NoReranker()


def question_key(answerer: Answerer, question: str, settings_fp: str) -> str:
    """The fingerprint an answer to ``question`` gets now (settings, every report it may read and their index
    versions: the routed filings and those read when they give no answer); '' when a report cannot be read (the
    question is answered again and fails clearly then)."""
    if too_long(answerer.cfg, question):
        return ""
    try:
        read = answerer.filing_routes.reports_read(question)
        return answer_key(settings_fp, {s: answerer.retriever.index(s).versions() for s in read})
    except Exception:  # noqa: BLE001 - a report that cannot be loaded is the answer's error, not the key's
        return ""


def reusable_answers(answerer: Answerer, questions: list[Question], answer_log: AnswerLog,
                     settings_fp: str) -> tuple[dict[tuple[str, str], dict], dict[tuple[str, str], str]]:
    """The logged answers that the same settings, model, prompts and indexes produced (by question: its text
    and kind), and the key of every question."""
    keys = {(q.text, q.kind): question_key(answerer, q.text, settings_fp) for q in questions}
    logged = answer_log.load()
    return {k: r for k, r in logged.items() if keys.get(k) and r.get("fingerprint") == keys[k]}, keys


def distinct(questions: list[Question]) -> list[Question]:
    """Each question (text and kind) once, in order; a repeated one is said in the log and answered once."""
    n = repeated(questions)
    if n:
        log.warning("%d question(s) repeat an earlier one (same text and kind): each is answered once", n)
    return [Question(text=t, kind=k) for t, k in dict.fromkeys((q.text, q.kind) for q in questions)]


def record_lineage(db: AnswerDB, rec: AnswerRecord) -> None:
    """Record ``rec`` in the lineage table; a write that fails (a full disk, a locked file) is said in one line
    and the run goes on: the answer is in its log, from which ``rag-assets doctor --repair`` records it."""
    try:
        db.insert(rec.run_id, rec)
    except Exception as exc:  # noqa: BLE001 - any failure of the lineage write is said, never fatal
        log.warning("lineage: the answer to %r was not recorded in %s (%s: %s); `rag-assets doctor --repair` "
                    "records it from the answer log", rec.question_text[:80], db.path, type(exc).__name__, exc)


WORKER = "answer-worker"


def abandoned_workers() -> int:
    """How many answering threads are still running a call (abandoned by a Ctrl-C)."""
    return sum(t.is_alive() for t in threading.enumerate() if t.name == WORKER)


def in_parallel(work: Callable, items: list, workers: int):
    """``work`` of each of ``items`` on ``workers`` threads, each result yielded as it is made (a failure raised
    in the caller). The threads are daemons and take the next item only while the caller waits: on Ctrl-C the
    queued items are cancelled and the caller returns at once; a call in flight is abandoned (its answer was not
    logged) instead of keeping the process alive until it ends."""
    todo: queue.Queue = queue.Queue()
    for item in items:
        todo.put(item)
    results: queue.Queue = queue.Queue()
    stop = threading.Event()

    def worker() -> None:
        while not stop.is_set():
            try:
                item = todo.get_nowait()
            except queue.Empty:
                return
            try:
                results.put((work(item), None))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller, who raises it
                results.put((None, exc))

    for _ in range(min(workers, len(items))):
        threading.Thread(target=worker, daemon=True, name=WORKER).start()
    try:
        for _ in items:
            result, exc = results.get()
            if exc is not None:
                raise exc
            yield result
    finally:
        stop.set()


def answer_all(
    answerer: Answerer,
    questions: list[Question],
    answer_log: AnswerLog,
    db: AnswerDB | None = None,
    run_id: str = "",
    parallel: int = 1,
    progress: Callable[[AnswerRecord, int, int], None] | None = None,
) -> list[dict]:
    """Answer every question whose answer in ``answer_log`` is missing, failed or was produced otherwise (see
    ``reusable_answers``); returns all records in question order."""
    unique = distinct(questions)
    done, keys = reusable_answers(answerer, unique, answer_log, settings_fingerprint(answerer.cfg))
    todo = [q for q in unique if (q.text, q.kind) not in done]
    total = len(unique)
    count = [total - len(todo)]
    log.info("%d answer(s) reused (same settings, model and indexes), %d to answer", count[0], len(todo))

    def one(q: Question) -> AnswerRecord:
        rec = answerer.answer(q.text, q.kind)
        rec.fingerprint, rec.run_id = keys[(q.text, q.kind)], run_id or answerer.cfg.name
        answer_log.append(rec)  # the answer is kept first: a lineage write that fails loses nothing
        if db is not None:
            record_lineage(db, rec)
        return rec

    t0 = time.perf_counter()
    if parallel <= 1:
        for q in todo:
            rec = one(q)
            done[(q.text, q.kind)] = rec.to_dict()
            count[0] += 1
            if progress:
                progress(rec, count[0], total)
    else:
        for rec in in_parallel(one, todo, parallel):
            done[(rec.question_text, rec.kind)] = rec.to_dict()
            count[0] += 1
            if progress:
                progress(rec, count[0], total)
    log.info("answered %d question(s) in %.1fs", len(todo), time.perf_counter() - t0)
    return [done[(q.text, q.kind)] for q in questions if (q.text, q.kind) in done]


def ranked_pages(answerer: Answerer, question: str, top_k: int = 10) -> list:
    """The pages retrieval ranks for a question (every routed report's first ``top_k``), best first."""
    routes = answerer.routes(question)
    pages = []
    for route in routes:
        ranked, _, _ = answerer.rank_pages(question, route)
        pages.extend(ranked[:top_k])
    if len(routes) > 1:
        pages = sorted(pages, key=lambda p: -p.score)
    return pages


class NoLLM:
    """Stands in where retrieval needs no LLM (no reranker); calling it is a bug."""

    model = "none"

    def chat(self, *a, **k):  # pragma: no cover
        raise RuntimeError("this configuration does not use an LLM for retrieval")


def answer_questions(answerer: Answerer, questions: list[Question], log_path: Path, submission_path: Path,
                     db_path: Path, run_id: str = "",
                     progress: Callable[[AnswerRecord, int, int], None] | None = None) -> list[dict]:
    """Answer ``questions`` (resuming from the answers already in ``log_path``), keep lineage in ``db_path``
    under ``run_id`` (default: the configuration's name) and write the submission; returns the records in
    question order."""
    cfg = answerer.cfg
    db = AnswerDB(db_path)
    try:
        records = answer_all(answerer, questions, AnswerLog(log_path), db, run_id=run_id or cfg.name,
                             parallel=cfg.parallel_requests, progress=progress)
    finally:
        db.close()
    write_submission(records, submission_path, run_label(cfg))
    return records


def score_answers(records: list[dict], gold: dict, out_dir: Path, label: str = "") -> tuple[dict, list[dict], str]:
    """Score ``records`` against ``gold`` and write ``out_dir/evaluation.json``: (summary, scored rows, tables:
    accuracy per kind, the none/value confusion table, retrieval vs reading misses, in markdown)."""
    from rag_assets.answer.service.scoring import evaluate

    ev = evaluate(records, gold)
    summary = ev.summary()
    summary["seconds_per_question"] = round(sum(r["seconds"] for r in records) / max(1, len(records)), 1)
    if label:
        summary["configuration"] = label  # as it ran: the preset and every override (run_label)
    tables = ev.tables()
    write_json(out_dir / "evaluation.json", {"summary": summary, "tables": tables, "rows": ev.rows})
    return summary, ev.rows, tables
