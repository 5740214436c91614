"""What an answering run leaves behind: answers appended as JSON lines (resumable), lineage rows in DuckDB
(answer -> chunks -> pages -> report) and the challenge's submission JSON."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from rag_assets.answer.readers.record import AnswerRecord
from rag_assets.storage.atomic import write_json

log = logging.getLogger(__name__)


class AnswerLog:
    """Answers appended one JSON line at a time (flushed and fsynced), so an interrupted run loses nothing. A
    last line a crash cut (no line end) is moved aside to ``<log>.damaged`` before the next answer is appended,
    so that answer is not written onto it."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self._tail_checked = False

    def _move_cut_tail(self) -> None:
        """Move a last line without its line end to ``<log>.damaged`` and cut the log after its last whole
        line (said in one line)."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with open(self.path, "rb+") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) == b"\n":
                return
            fh.seek(0)
            data = fh.read()
            keep = data.rfind(b"\n") + 1
            with open(self.path.with_name(self.path.name + ".damaged"), "ab") as aside:
                aside.write(data[keep:] + b"\n")
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())
        log.warning("%s: its last line was cut (%d bytes, an interrupted run): moved to %s.damaged", self.path,
                    len(data) - keep, self.path.name)

    def load(self, include_errors: bool = False) -> dict[tuple[str, str], dict]:
        """The last record per question (its text and kind: one text asked as two kinds is two questions);
        failed ones (``error`` set) only with ``include_errors``, so that a resumed run asks them again."""
        done = {}
        if self.path.exists():
            for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut by a crash
                if not isinstance(rec, dict) or not isinstance(rec.get("question_text"), str):
                    continue  # not an answer record
                if include_errors or not rec.get("error"):
                    done[(rec["question_text"], rec.get("kind", ""))] = rec
        return done

    def append(self, rec: AnswerRecord) -> None:
        line = json.dumps(rec.to_dict(), ensure_ascii=False, default=str)
        with self.lock:
            if not self._tail_checked:
                self._move_cut_tail()
                self._tail_checked = True
            self._write(line)

    def _write(self, line: str) -> None:
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())


class LineageBusy(RuntimeError):
    """Another process held the lineage database longer than the wait allowed (one line)."""


NOT_A_DATABASE = "not a valid DuckDB database file"


def damaged_db(path: Path) -> bool:
    """``path`` is there but is no DuckDB database (0 bytes after a full disk, overwritten)."""
    import duckdb

    if not Path(path).exists():
        return False
    try:
        duckdb.connect(str(path), read_only=True).close()
    except duckdb.IOException as exc:
        return NOT_A_DATABASE in str(exc)
    return False


def move_damaged_db(path: Path) -> Path:
    """Move a damaged lineage database to ``<name>.damaged`` (one warning) so that a new one is made; the
    answers themselves are in each run's progress log and submission."""
    aside = path.with_name(path.name + ".damaged")
    os.replace(path, aside)
    log.warning("%s is no DuckDB database (%d bytes: a full disk or an overwrite); moved to %s and started anew "
                "(the answers are in each run's progress log and submission)", path, aside.stat().st_size, aside.name)
    return aside


def unrecorded(db_path: Path, logs: list[Path]) -> list[dict]:
    """The answers of ``logs`` (each answers folder's log) that carry a run but are missing from the lineage
    table at ``db_path``: a lineage write failed after the answer was logged."""
    import duckdb

    records = [r for p in logs for r in AnswerLog(p).load(include_errors=True).values() if r.get("run_id")]
    if not records:
        return []
    if not Path(db_path).exists():
        return records
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        seen = set(con.execute("SELECT run_id, question_text, kind FROM answers").fetchall())
    finally:
        con.close()
    return [r for r in records if (r["run_id"], r["question_text"], r["kind"]) not in seen]


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
        # a computed metric's formula and operands (value, period, page of each); added to older databases
        "ALTER TABLE answers ADD COLUMN IF NOT EXISTS computation JSON",
        # the question's plan (period, unit, formula or criterion, its source and checks); added likewise
        "ALTER TABLE answers ADD COLUMN IF NOT EXISTS plan JSON",
        # one text asked as two kinds is two answers; added likewise (older rows: NULL, any kind)
        "ALTER TABLE answer_chunks ADD COLUMN IF NOT EXISTS kind VARCHAR",
    ]

    def __init__(self, path: Path, lock_wait_s: float = 60.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock_wait_s = lock_wait_s
        self.lock = threading.Lock()
        with self.lock, self._transaction() as con:
            for stmt in self.SCHEMA:
                con.execute(stmt)

    @contextmanager
    def _transaction(self):
        """One short transaction on a connection of its own: DuckDB lets one process at a time open the file,
        so every write opens, commits and closes, and another process's run (CLI or Dagster) waits its turn
        for up to ``lock_wait_s`` seconds before ``LineageBusy``."""
        import duckdb

        give_up, wait = time.monotonic() + self.lock_wait_s, 0.05
        while True:
            try:
                con = duckdb.connect(str(self.path))
                break
            except duckdb.IOException as exc:
                if NOT_A_DATABASE in str(exc):
                    move_damaged_db(self.path)
                    continue
                if "lock" not in str(exc).lower():
                    raise
                if time.monotonic() > give_up:
                    raise LineageBusy(f"{self.path} has been held by another process for {self.lock_wait_s:.0f} s; "
                                      "run again when it is done (the answers are kept)") from None
                time.sleep(wait)
                wait = min(wait * 2, 1.0)
        try:
            con.execute("BEGIN TRANSACTION")
            yield con
            con.execute("COMMIT")
        finally:
            con.close()

    def insert(self, run_id: str, rec: AnswerRecord) -> None:
        d = rec.to_dict()
        j = lambda v: json.dumps(v, default=str, ensure_ascii=False)  # noqa: E731
        sent = {(p["pdf_sha1"], p["page_index"]) for p in rec.pages_sent}
        with self.lock, self._transaction() as con:
            key = [run_id, rec.question_text, rec.kind]
            con.execute("DELETE FROM answers WHERE run_id = ? AND question_text = ? AND kind = ?", key)
            con.execute("DELETE FROM answer_chunks WHERE run_id = ? AND question_text = ? AND "
                        "(kind = ? OR kind IS NULL)", key)
            con.execute(
                'INSERT INTO answers (run_id, config, question_text, kind, value, "references", companies, routed, '
                "pages_sent, raw_output, parsed, grounded, error, notes, prompt_tokens, completion_tokens, "
                "llm_calls, seconds, index_versions, sub_answers, computation, plan) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [run_id, rec.config, rec.question_text, rec.kind, j(rec.value), j(rec.references), j(rec.companies),
                 j(rec.routed), j(rec.pages_sent), rec.raw_output, j(d["parsed"]), rec.grounded, rec.error,
                 j(rec.notes), rec.prompt_tokens, rec.completion_tokens, rec.llm_calls, rec.seconds,
                 j(rec.index_versions), j(rec.sub_answers), j(rec.computation), j(rec.plan)],
            )
            rows = [
                [run_id, rec.config, rec.question_text, rec.kind, c["chunk_id"], c["pdf_sha1"], c["page_index"],
                 c["score"], i + 1, (c["pdf_sha1"], c["page_index"]) in sent]
                for i, c in enumerate(rec.retrieved_chunks)
            ]
            if rows:
                con.executemany("INSERT INTO answer_chunks (run_id, config, question_text, kind, chunk_id, pdf_sha1, "
                                "page_index, score, rank, sent_to_llm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def close(self) -> None:
        """Nothing is held between writes."""


def write_submission(records: list[dict], target: Path, config: str) -> None:
    """The challenge's submission JSON of the answered questions; failed ones (``error`` set) are left out."""
    records = [r if isinstance(r, AnswerRecord) else AnswerRecord(**r) for r in records]
    answers = [r.submission() for r in records if not r.error]
    write_json(
        target,
        {
            "answers": answers,
            "team_email": "",
            "submission_name": f"rag_assets-{config}",
            "details": f"rag_assets configuration {config}",
        },
    )
