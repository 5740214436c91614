"""Answer a question set with one configuration: build the pipeline, write each answer as it is made
(JSONL, resumable), keep lineage in DuckDB, and write the challenge's submission JSON."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Callable

from rag_assets.core.answering import Answerer, AnswerRecord
from rag_assets.core.atomic import write_json
from rag_assets.core.config import RunConfig
from rag_assets.core.embedding import make_embedder
from rag_assets.core.questions import Question
from rag_assets.core.rerank import CrossEncoderReranker, LLMReranker, NoReranker
from rag_assets.core.retrieval import Retriever

log = logging.getLogger(__name__)


def build_llm(cfg: RunConfig, model: str | None = None):
    """The LLM client of ``cfg``: an OpenAI-compatible endpoint, or an embedded GGUF model. For the embedded
    route the backend is checked before any model is fetched (``BackendMissing`` says what to install)."""
    from rag_assets.core.llm import OpenAICompatibleLLM

    model = model or cfg.answer_model
    if cfg.llm == "openai":
        return OpenAICompatibleLLM(
            model=model,
            base_url=cfg.base_url or os.environ.get("OPENAI_BASE_URL") or None,
            concurrency=max(1, cfg.parallel_requests),
            tokens_per_minute=cfg.tokens_per_minute,
        )
    from rag_assets.core.llm_embedded import embedded_llm, resolve_backend
    from rag_assets.core.models import ensure_model

    backend = resolve_backend(cfg.llm_backend)
    return embedded_llm(str(ensure_model(model)), backend=backend, n_ctx=cfg.n_ctx)


def build_answerer(cfg: RunConfig, root: Path, reports: dict[str, str], llm=None, embedder=None) -> Answerer:
    """The pipeline of ``cfg`` over the reports under ``root`` (sha1 -> company name)."""
    if embedder is None and cfg.retrieval != "bm25":
        embedder = make_embedder(cfg.embedder, cfg.embedding_model or None)
    retriever = Retriever(root, embedder, cfg.retrieval, cfg.vector_k, cfg.bm25_k, cfg.rrf_k)
    llm = llm or build_llm(cfg)
    if cfg.rerank == "llm":
        rerank_llm = llm if not cfg.rerank_model or cfg.rerank_model == cfg.answer_model else build_llm(
            cfg, cfg.rerank_model
        )
        reranker = LLMReranker(rerank_llm, cfg.rerank_batch, cfg.rerank_llm_weight)
    elif cfg.rerank == "cross-encoder":
        reranker = CrossEncoderReranker(cfg.cross_encoder_path, cfg.rerank_llm_weight)
    else:
        reranker = NoReranker()
    return Answerer(cfg, reports, retriever, llm, reranker)


class AnswerLog:
    """Answers appended one JSON line at a time (flushed and fsynced), so an interrupted run loses nothing."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()

    def load(self) -> dict[str, dict]:
        done = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut by a crash
                done[rec["question_text"]] = rec
        return done

    def append(self, rec: AnswerRecord) -> None:
        line = json.dumps(rec.to_dict(), ensure_ascii=False, default=str)
        with self.lock, open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())


class AnswerDB:
    """Lineage in DuckDB: one row per answer, one per (answer, chunk) it retrieved, one per page it was sent."""

    SCHEMA = [
        """CREATE TABLE IF NOT EXISTS answers (
            run_id VARCHAR, config VARCHAR, question_text VARCHAR, kind VARCHAR, value JSON, "references" JSON,
            companies JSON, routed JSON, pages_sent JSON, raw_output VARCHAR, parsed JSON, grounded BOOLEAN,
            error VARCHAR, notes JSON, prompt_tokens INTEGER, completion_tokens INTEGER, llm_calls INTEGER,
            seconds DOUBLE, index_versions JSON, sub_answers JSON, created_at TIMESTAMP DEFAULT current_timestamp)""",
        """CREATE TABLE IF NOT EXISTS answer_chunks (
            run_id VARCHAR, config VARCHAR, question_text VARCHAR, chunk_id VARCHAR, pdf_sha1 VARCHAR,
            page_index INTEGER, score DOUBLE, rank INTEGER, sent_to_llm BOOLEAN)""",
    ]

    def __init__(self, path: Path):
        import duckdb

        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.con = duckdb.connect(str(self.path))
        for stmt in self.SCHEMA:
            self.con.execute(stmt)
        self.lock = threading.Lock()

    def insert(self, run_id: str, rec: AnswerRecord) -> None:
        d = rec.to_dict()
        j = lambda v: json.dumps(v, default=str, ensure_ascii=False)  # noqa: E731
        sent = {(p["pdf_sha1"], p["page_index"]) for p in rec.pages_sent}
        with self.lock:
            self.con.execute(
                "DELETE FROM answers WHERE run_id = ? AND question_text = ?", [run_id, rec.question_text]
            )
            self.con.execute(
                "DELETE FROM answer_chunks WHERE run_id = ? AND question_text = ?", [run_id, rec.question_text]
            )
            self.con.execute(
                'INSERT INTO answers (run_id, config, question_text, kind, value, "references", companies, routed, '
                "pages_sent, raw_output, parsed, grounded, error, notes, prompt_tokens, completion_tokens, "
                "llm_calls, seconds, index_versions, sub_answers) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [run_id, rec.config, rec.question_text, rec.kind, j(rec.value), j(rec.references), j(rec.companies),
                 j(rec.routed), j(rec.pages_sent), rec.raw_output, j(d["parsed"]), rec.grounded, rec.error,
                 j(rec.notes), rec.prompt_tokens, rec.completion_tokens, rec.llm_calls, rec.seconds,
                 j(rec.index_versions), j(rec.sub_answers)],
            )
            rows = [
                [run_id, rec.config, rec.question_text, c["chunk_id"], c["pdf_sha1"], c["page_index"], c["score"],
                 i + 1, (c["pdf_sha1"], c["page_index"]) in sent]
                for i, c in enumerate(rec.retrieved_chunks)
            ]
            if rows:
                self.con.executemany("INSERT INTO answer_chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def close(self) -> None:
        self.con.close()


def write_submission(records: list[dict], target: Path, config: str) -> None:
    answers = [AnswerRecord(**r).submission() if isinstance(r, dict) else r.submission() for r in records]
    write_json(
        target,
        {
            "answers": answers,
            "team_email": "",
            "submission_name": f"rag_assets-{config}",
            "details": f"rag_assets configuration {config}",
        },
    )


def answer_all(
    answerer: Answerer,
    questions: list[Question],
    answer_log: AnswerLog,
    db: AnswerDB | None = None,
    run_id: str = "",
    parallel: int = 1,
    progress: Callable[[AnswerRecord, int, int], None] | None = None,
) -> list[dict]:
    """Answer every question not already in ``answer_log``; returns all records in question order."""
    done = answer_log.load()
    todo = [q for q in questions if q.text not in done]
    total = len(questions)
    count = [len(questions) - len(todo)]

    def one(q: Question) -> AnswerRecord:
        rec = answerer.answer(q.text, q.kind)
        answer_log.append(rec)
        if db is not None:
            db.insert(run_id or answerer.cfg.name, rec)
        return rec

    t0 = time.perf_counter()
    if parallel <= 1:
        for q in todo:
            rec = one(q)
            done[q.text] = rec.to_dict()
            count[0] += 1
            if progress:
                progress(rec, count[0], total)
    else:
        with ThreadPoolExecutor(max_workers=parallel) as pool:
            futures = {pool.submit(one, q): q for q in todo}
            for fut in as_completed(futures):
                rec = fut.result()
                done[rec.question_text] = rec.to_dict()
                count[0] += 1
                if progress:
                    progress(rec, count[0], total)
    log.info("answered %d question(s) in %.1fs", len(todo), time.perf_counter() - t0)
    return [done[q.text] for q in questions if q.text in done]


def ranked_pages(answerer: Answerer, question: str, top_k: int = 10) -> list:
    """The pages retrieval ranks for a question (every routed report's first ``top_k``), best first."""
    routes = answerer.router.route(question)
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


def evaluate_run(answerer: Answerer, questions: list[Question], gold: dict, out_dir: Path, db_path: Path,
                 progress: Callable[[AnswerRecord, int, int], None] | None = None) -> tuple[list[dict], dict, list]:
    """Answer ``questions`` (resuming from ``out_dir/answers.jsonl``), write the submission and
    ``evaluation.json`` into ``out_dir``, and score against ``gold``: (records, summary, scored rows)."""
    from rag_assets.core.scoring import evaluate

    cfg = answerer.cfg
    db = AnswerDB(db_path)
    try:
        records = answer_all(answerer, questions, AnswerLog(out_dir / "answers.jsonl"), db, run_id=cfg.name,
                             parallel=cfg.parallel_requests, progress=progress)
    finally:
        db.close()
    write_submission(records, out_dir / "submission.json", cfg.name)
    ev = evaluate(records, gold)
    summary = ev.summary()
    summary["seconds_per_question"] = round(sum(r["seconds"] for r in records) / max(1, len(records)), 1)
    write_json(out_dir / "evaluation.json", {"summary": summary, "rows": ev.rows})
    return records, summary, ev.rows
