"""A full or read-only disk is one `error:` line naming the folder and what to do, never a traceback
(issue 24, item 4). Real processes on a real small tmpfs; skipped where mounting one is not allowed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rag_assets_tests.test_faults import UNKNOWN_Q


def _mount(target: Path, size: str, *options: str) -> None:
    target.mkdir(parents=True, exist_ok=True)
    opts = ",".join([f"size={size}", *options])
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()[:120]}): needs root")


@pytest.fixture()
def small_disk(tmp_path):
    mounted = []

    def make(name: str, size: str = "600k", *options: str) -> Path:
        target = tmp_path / name
        _mount(target, size, *options)
        mounted.append(target)
        return target

    yield make
    for target in reversed(mounted):
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


def _cli(*args: str, home: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "RAG_ASSETS_HOME": str(home), "DAGSTER_HOME": str(home / "dagster")}
    return subprocess.run([sys.executable, "-m", "rag_assets.cli.main", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def _fill(folder: Path) -> None:
    """Fill the disk of ``folder`` to its last byte."""
    try:
        with open(folder / "filler", "wb") as fh:
            while True:
                fh.write(b"x" * 4096)
                fh.flush()
    except OSError:
        pass


def _one_error(done: subprocess.CompletedProcess) -> str:
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode == 1 and len(errors) == 1, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "Exception while writing" not in done.stderr, done.stderr[-3000:]
    assert "[SQL:" not in done.stderr
    return errors[0]


def test_ingest_and_doctor_on_a_full_disk_say_one_line(small_disk, sample_pdfs, tmp_path):
    home = small_disk("full")
    said = _one_error(_cli("ingest", str(sample_pdfs[0].parent), home=home, cwd=tmp_path))
    assert f"no space left on the disk: {home}" in said and "free some space and run again" in said
    _fill(home)  # what the failed write left free (a few pages of the tmpfs): full when doctor runs
    said = _one_error(_cli("doctor", home=home, cwd=tmp_path))
    assert "no space left on the disk" in said


def test_answer_to_a_full_disk_says_one_line_and_leaves_nothing_half_written(small_disk, sample_pdfs, tmp_path):
    home = tmp_path / "data"
    assert _cli("ingest", str(sample_pdfs[0].parent), home=home, cwd=tmp_path).returncode == 0
    out_dir = small_disk("out", "64k")
    (out_dir / "filler").write_bytes(b"x" * (60 << 10))
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps([UNKNOWN_Q]))
    said = _one_error(_cli("answer", str(questions), "--out", str(out_dir / "answers.json"), home=home, cwd=tmp_path))
    assert "no space left on the disk" in said and str(out_dir) in said
    assert not (out_dir / "answers.json").exists() and not list(out_dir.glob(".*tmp")), "nothing half-written"


def test_a_read_only_data_root_says_one_line(small_disk, sample_pdfs, tmp_path):
    home = small_disk("readonly", "4m", "ro")
    said = _one_error(_cli("ingest", str(sample_pdfs[0].parent), home=home, cwd=tmp_path))
    assert "read-only" in said and str(home) in said


def test_an_answer_after_a_cut_progress_line_is_read_back(tmp_path, caplog):
    """Issue 40 item 3: after a crash cut the last line of the progress log, the next answer was appended onto
    it, could not be read back and was answered again on every run. The cut tail is moved aside first."""
    import json

    from rag_assets.answer.readers.record import AnswerRecord
    from rag_assets.answer.service.lineage import AnswerLog

    path = tmp_path / "answers.jsonl.progress.jsonl"
    first = AnswerRecord(question_text="What was revenue in 2022?", kind="number", value=12.5)
    cut = json.dumps(AnswerRecord(question_text="Did it pay dividends?", kind="boolean").to_dict())[:40]
    path.write_text(json.dumps(first.to_dict()) + "\n" + cut, encoding="utf-8")
    log = AnswerLog(path)
    with caplog.at_level("WARNING"):
        log.append(AnswerRecord(question_text="Did it pay dividends?", kind="boolean", value=True))
    assert {q: r["value"] for (q, _), r in AnswerLog(path).load().items()} == {"What was revenue in 2022?": 12.5,
                                                                               "Did it pay dividends?": True}
    assert (tmp_path / (path.name + ".damaged")).read_text(encoding="utf-8") == cut + "\n"
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: its last line was cut (40 bytes, an interrupted run): moved to {path.name}.damaged"]
    path.write_text(path.read_text(encoding="utf-8") + "[1, 2]\n\"a string\"\n", encoding="utf-8")
    assert len(AnswerLog(path).load()) == 2, "lines that are not answer records are skipped, not a traceback"


def test_a_run_created_but_never_started_by_a_killed_process_is_named_and_canceled():
    """Issue 40 item 6: a kill -9 between creating a run and launching it left a NOT_STARTED run that neither
    `doctor` nor `ingest` mentioned. It is now said, and canceled on repair; a live process's run is left be."""
    import os
    import socket
    import subprocess

    import dagster as dg

    from rag_assets.cli.ingest import HOST_TAG, PID_TAG, SOURCE_TAG, mark_orphaned_runs

    @dg.op
    def step():
        return 1

    @dg.job
    def ingest_reports():
        step()

    gone = subprocess.Popen(["true"])  # a process that has ended: its pid is no live process
    gone.wait()
    with dg.DagsterInstance.ephemeral() as instance:
        tags = {SOURCE_TAG: "cli", HOST_TAG: socket.gethostname(), "company": "Northwind plc"}
        dead = instance.create_run_for_job(ingest_reports, tags={**tags, PID_TAG: str(gone.pid)})
        alive = instance.create_run_for_job(ingest_reports, tags={**tags, PID_TAG: str(os.getpid())})
        said = mark_orphaned_runs(instance, apply=False)
        assert said == [f"run {dead.run_id[:8]} (Northwind plc) was created but never started by a process that is "
                        f"gone (pid {gone.pid}: killed, or stopped by an error it could not record, such as a full "
                        f"disk): doctor --repair marks it canceled"]
        assert instance.get_run_by_id(dead.run_id).status == dg.DagsterRunStatus.NOT_STARTED
        assert mark_orphaned_runs(instance)[0].endswith("marked canceled")
        assert instance.get_run_by_id(dead.run_id).status == dg.DagsterRunStatus.CANCELED
        assert instance.get_run_by_id(alive.run_id).status == dg.DagsterRunStatus.NOT_STARTED
        assert mark_orphaned_runs(instance) == []


def test_a_lineage_write_that_fails_is_said_and_doctor_records_the_answer_from_its_log(tmp_path, caplog, capsys):
    """Issue 47 item 2: a lineage write that failed (here: another process holds the database past the wait)
    lost the answer from answers.duckdb without a word, and doctor did not notice. The answer is logged first,
    the failure is said, and doctor finds the answer missing and records it on repair."""
    from rag_assets.answer.readers.record import AnswerRecord
    from rag_assets.answer.service.lineage import AnswerDB, AnswerLog, unrecorded
    from rag_assets.answer.service.run import record_lineage
    from rag_assets.cli.doctor import check_recorded

    db_path, log_path = tmp_path / "answers.duckdb", tmp_path / "answers" / "local" / "answers.jsonl"
    db = AnswerDB(db_path, lock_wait_s=0.5)
    rec = AnswerRecord(question_text="What was revenue in 2022?", kind="number", value=12.5, run_id="local")
    AnswerLog(log_path).append(rec)
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
                               "print('held', flush=True); time.sleep(60)", str(db_path)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with caplog.at_level("WARNING"):
            record_lineage(db, rec)  # no exception: the run goes on
        assert "was not recorded" in caplog.text and "doctor --repair" in caplog.text
    finally:
        holder.kill()
        holder.wait()
    assert [r["question_text"] for r in unrecorded(db_path, [log_path])] == [rec.question_text]
    assert check_recorded(db_path, [log_path], repair=False) is False
    assert "1 answer(s) in the answers folders are missing" in capsys.readouterr().out
    assert check_recorded(db_path, [log_path], repair=True) is True
    assert unrecorded(db_path, [log_path]) == []


def test_doctor_on_an_ingested_data_root_mounted_read_only_says_one_line(small_disk, sample_pdfs, tmp_path):
    """Issue 47, item 8: `doctor` on a data root mounted read-only after ingesting printed a 94-line SQLite
    traceback (SQLite says 'unable to open database file', no errno)."""
    home = small_disk("ingested", "200m")
    assert _cli("ingest", str(sample_pdfs[0].parent), home=home, cwd=tmp_path).returncode == 0
    done = subprocess.run(["mount", "-o", "remount,ro", str(home)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    said = _one_error(_cli("doctor", home=home, cwd=tmp_path))
    assert "read-only" in said and str(home) in said
