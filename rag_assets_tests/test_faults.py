"""Faults injected on purpose (issue 10): a dead endpoint, kills at chosen points, bad input files. Each
test names the defect it guards; the README's fault table points here."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time

import dagster as dg
import pytest

from rag_assets.cli.ingest import ingest
from rag_assets.cli.main import main
from rag_assets.orchestration.answer_assets import answers, question_set
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ReportStore
from rag_assets.tools.soak import leftovers
from rag_assets_tests.conftest import BLUEBIRD, NORTHWIND

UNKNOWN_Q = {"text": "What was the revenue of Zenith Unknown Corp?", "kind": "number"}
BUYBACK_Q = {"text": f"Did {NORTHWIND.company} announce a share buyback plan?", "kind": "boolean"}


def dead_endpoint() -> str:
    """An OpenAI-compatible URL on 127.0.0.1 where nothing listens (connection refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.fixture()
def ingested(inbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    ingest(inbox, quiet=True)
    capsys.readouterr()
    return inbox.parent


def _questions(tmp_path, *qs) -> str:
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(list(qs)), encoding="utf-8")
    return str(path)


def test_failed_llm_call_is_an_error_and_a_rerun_retries_it(ingested, tmp_path, capsys):
    """Defect 1: with the endpoint down, the question is an error (not 'N/A'): left out of the submission,
    counted, exit 1; the next run retries it, and a working model then answers it."""
    q = _questions(tmp_path, BUYBACK_Q, UNKNOWN_Q)
    out = tmp_path / "answers.json"
    dead = ["--config", "hybrid-api", "--base-url", dead_endpoint(), "--set", "llm_retries=0"]
    assert main(["answer", q, "--out", str(out), *dead]) == 1
    err = capsys.readouterr().err
    assert "error: 1 of 2 question(s) failed and are not in the submission" in err and "Connection" in err
    submitted = json.loads(out.read_text())["answers"]
    assert [a["question_text"] for a in submitted] == [UNKNOWN_Q["text"]]
    progress = out.with_name(out.name + ".progress.jsonl")
    failed = [json.loads(line) for line in progress.read_text().splitlines() if json.loads(line)["error"]]
    assert len(failed) == 1 and failed[0]["question_text"] == BUYBACK_Q["text"]

    assert main(["answer", q, "--out", str(out), *dead]) == 1
    captured = capsys.readouterr()
    assert "resuming: 1 answer(s)" in captured.out and "1 of 2 question(s) failed" in captured.err
    assert sum(1 for line in progress.read_text().splitlines() if json.loads(line)["error"]) == 2, "retried"

    assert main(["ask", BUYBACK_Q["text"], *dead]) == 1
    captured = capsys.readouterr()
    assert "answer:" not in captured.out and "error: the question failed, no answer" in captured.err

    assert main(["answer", q, "--out", str(out), "--model", "qwen2.5-coder-0.5b"]) == 0
    submitted = {a["question_text"]: a for a in json.loads(out.read_text())["answers"]}
    assert set(submitted) == {BUYBACK_Q["text"], UNKNOWN_Q["text"]}
    assert isinstance(submitted[BUYBACK_Q["text"]]["value"], bool)


def test_failed_llm_call_fails_the_answers_asset(ingested, tmp_path):
    """Defect 1 in Dagster: the answers asset fails, names the error, and submits only what was answered."""
    store = ReportStore(questions=_questions(tmp_path, BUYBACK_Q, UNKNOWN_Q))
    resources = {"store": store, "embedder": EmbedderResource(),
                 "llm": LLMResource(route="openai", base_url=dead_endpoint(), retries=0)}
    with dg.instance_for_test() as instance:
        result = dg.materialize([question_set, answers], partition_key="hybrid-api", instance=instance,
                                resources=resources, raise_on_error=False, selection=[answers])
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    assert "1 of 2 question(s) failed and are not in the submission" in str(failure.step_failure_data.error)
    [folder] = (store.root / "answers").glob("hybrid-api+*")  # the preset with the resource's overrides
    submission = json.loads((folder / "submission.json").read_text())
    assert [a["question_text"] for a in submission["answers"]] == [UNKNOWN_Q["text"]]


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("args, says", [
    (["answer", "{q}", "--out", "{out}", "--config", "nosuch"], "unknown configuration 'nosuch'; presets: local"),
    (["answer", "{q}", "--out", "{out}", "--set", "top_pages=abc"], "--set top_pages=abc: Input should be a valid"),
    (["answer", "{q}", "--out", "{out}", "--set", "nosuch=1"], "unknown configuration field(s) ['nosuch']"),
    (["retrieve", "{q}", "--out", "{out}", "--gold", "{notjson}"], "not valid JSON: Expecting value at line 1"),
    (["evaluate", "--questions", "{q}", "--gold", "{notjson}"], "not valid JSON"),
    (["retrieve", "{q}", "--out", "{out}", "--gold", "{listjson}"], "expected a JSON object"),
    (["retrieve", "{q}", "--out", "{out}", "--top-k", "0"], "argument --top-k: 0 is not positive"),
    (["retrieve", "{q}", "--out", "{out}", "--top-k", "-3"], "argument --top-k: -3 is not positive"),
    (["answer", "{q}"], "the following arguments are required: --out"),
    (["ingest", "{inbox}", "--subset", "{missing}"], "subset file not found"),
])
def test_bad_input_is_one_line_and_exit_2(data_home, tmp_path, capsys, args, says):
    """Defect 6: each of these was a traceback; now one 'error:' line, exit code 2, nothing written."""
    (tmp_path / "notjson.json").write_text("this is not json", encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    (data_home / "pdfs").mkdir()
    names = {"q": _questions(tmp_path, BUYBACK_Q), "out": str(tmp_path / "out.json"), "inbox": str(data_home / "pdfs"),
             "notjson": str(tmp_path / "notjson.json"), "listjson": str(tmp_path / "list.json"),
             "missing": str(tmp_path / "nosuch.csv")}
    assert main([a.format(**names) for a in args]) == 2
    assert says in _one_error_line(capsys)
    assert not (tmp_path / "out.json").exists()


def test_questions_file_in_utf16_or_with_a_bom_reads_as_utf8(tmp_path):
    """Defect 6: a UTF-16 questions file (Windows editors) was a traceback; it now reads like UTF-8."""
    from rag_assets.answer.service.questions import load_questions

    qs = [{"text": "Did Société Générale announce a share buyback?", "kind": "boolean"}]
    text = json.dumps(qs, ensure_ascii=False)
    expected = load_questions(_write(tmp_path / "utf8.json", text.encode("utf-8")))
    for name, data in [("utf16.json", text.encode("utf-16")), ("utf16le.json", text.encode("utf-16-le")),
                       ("bom.json", text.encode("utf-8-sig"))]:
        assert load_questions(_write(tmp_path / name, data)) == expected, name


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


SUBSET_HEADER = "sha1,cur,company_name\n"


@pytest.fixture()
def two_pdfs(tmp_path, sample_pdfs):
    import shutil

    from rag_assets.storage.catalog import file_sha1

    folder = tmp_path / "inbox"
    folder.mkdir()
    for p in sample_pdfs:
        shutil.copy(p, folder / p.name)
    return folder, [file_sha1(folder / p.name) for p in sample_pdfs]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "latin-1", "cp1252", "utf-16"])
def test_subset_csv_in_any_common_encoding_keeps_accented_names(two_pdfs, tmp_path, encoding):
    """Defect 5: Latin-1 and UTF-16 subset files were tracebacks; the names now come through intact."""
    from rag_assets.storage.catalog import Catalog

    folder, shas = two_pdfs
    body = SUBSET_HEADER + f"{shas[0]},EUR,Société Générale SA\n{shas[1]},USD,Nestlé Ltd\n"
    csv_path = _write(tmp_path / "subset.csv", body.encode(encoding))
    found = Catalog(tmp_path / "catalog.json").scan(folder, csv_path)
    assert {r.sha1: r.company_name for r in found} == {shas[0]: "Société Générale SA", shas[1]: "Nestlé Ltd"}


@pytest.mark.parametrize("body, says", [
    ("sha1,name\n{a},X\n", "line 1: missing column(s) ['company_name']; the header has ['sha1', 'name']"),
    (SUBSET_HEADER + "{a},USD,First\n{a},USD,Second\n", "line 3: sha1 {a} is already on line 2"),
    (SUBSET_HEADER + "{a},USD,First\nnot-a-sha,USD,Second\n", "line 3: sha1 'not-a-sha' is not a SHA-1"),
    (SUBSET_HEADER + "{a},USD,\n", "line 2: empty company_name"),
    (SUBSET_HEADER + '{a},USD,"Northwind, Widgets plc\n{b},USD,Bluebird Mining Ltd"\n',
     "line 3: company_name runs over several lines (an unclosed quote merged rows)"),
    (SUBSET_HEADER + '{a},USD,"Northwind\n{b},USD,Bluebird Mining Ltd\n', "not valid CSV (unexpected end of data)"),
    (SUBSET_HEADER + "{a},USD,Northwind, Widgets plc\n", "line 2: 4 fields where the header has 3"),
])
def test_bad_subset_csv_is_one_line_naming_file_and_line(two_pdfs, tmp_path, data_home, capsys, body, says):
    """Defect 5: a duplicate row silently won and a bad header was a traceback; each is now one line that
    names the file and the line, and nothing is ingested."""
    folder, shas = two_pdfs
    csv_path = _write(tmp_path / "bad.csv", body.format(a=shas[0], b=shas[1]).encode())
    assert main(["ingest", str(folder), "--subset", str(csv_path)]) == 2
    line = _one_error_line(capsys)
    assert str(csv_path) in line and says.format(a=shas[0]) in line
    assert not (data_home / "reports").exists()


def test_a_subset_row_without_its_pdf_is_named_in_a_warning(two_pdfs, tmp_path, caplog):
    """A row whose PDF is not in the folder (a wrong sha1, a file not copied) is said, not silently unused."""
    from rag_assets.storage.catalog import Catalog

    folder, shas = two_pdfs
    stray = "f" * 40
    body = SUBSET_HEADER + f"{shas[0]},USD,Northwind plc\n{stray},USD,Bluebird Mining Ltd\n"
    with caplog.at_level("WARNING"):
        Catalog(tmp_path / "catalog.json").scan(folder, _write(tmp_path / "subset.csv", body.encode()))
    said = [r.getMessage() for r in caplog.records if "not used" in r.getMessage()]
    assert said == [f"subset row of {stray[:12]} (Bluebird Mining Ltd) not used: no PDF in {folder} has that content"]


# -- index swaps, leftovers and consistency (defects 2 and 3) ------------------------------------------

def _cli(args, env_extra=None, timeout=300):
    """``rag-assets ARGS`` in a child process (to be killed at a fault point); returns the CompletedProcess."""
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "rag_assets.cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


def _store_report(data_home, company):
    from rag_assets.storage.catalog import Catalog

    cat = Catalog(data_home / "catalog.json")
    sha = next(s for s, src in cat.current().items() if src.company_name == company)
    from rag_assets.storage.paths import ReportPaths

    return ReportPaths(data_home, sha)


@pytest.mark.parametrize("point", ["version-written", "before-swap"])
def test_kill_during_an_index_swap_keeps_an_index_and_the_next_run_repairs(ingested, tmp_path, point):
    """Defect 2: a --force re-ingest killed (SIGKILL) between the renames of the BM25 swap. The old index
    stays in place the whole time; the next run clears the leftovers, marks the killed run failed, and every
    report is consistent again."""
    import os

    from rag_assets.ingest.verify import verify_report

    data_home = ingested
    paths = _store_report(data_home, NORTHWIND.company)
    killed = _cli(["ingest", str(data_home / "pdfs"), "--force"], {"RAG_ASSETS_FAULT": f"{point}:bm25"})
    assert killed.returncode == -9, killed.stderr[-2000:]
    assert (paths.bm25_dir / "chunk_ids.json").exists(), "the old index is still in place"
    assert leftovers(data_home), "the kill left a version folder or link behind"
    rerun = _cli(["ingest", str(data_home / "pdfs")])
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert "was left running by a process that is gone" in rerun.stdout
    assert leftovers(data_home) == []
    for company in (NORTHWIND.company, BLUEBIRD.company):
        assert verify_report(_store_report(data_home, company)) == {}
    import dagster as dg

    with dg.DagsterInstance.from_config(os.environ["DAGSTER_HOME"]) as instance:
        statuses = {r.status for r in instance.get_runs()}
    assert dg.DagsterRunStatus.STARTED not in statuses and dg.DagsterRunStatus.FAILURE in statuses


def test_a_folder_swapped_by_older_code_is_restored_if_the_swap_was_cut(tmp_path):
    """Defect 2 (migration): the first swap of an index folder written before versioned swaps moves the
    folder aside; killed right there, the next run puts it back."""
    from rag_assets.storage.atomic import recover_leftovers

    target = tmp_path / "bm25"
    target.mkdir()
    (target / "chunk_ids.json").write_text("old")
    code = ("import sys; from pathlib import Path; from rag_assets.storage.atomic import atomic_dir\n"
            f"with atomic_dir(Path({str(target)!r})) as tmp: (tmp / 'chunk_ids.json').write_text('new')\n")
    import os
    import subprocess
    import sys

    env = {**os.environ, "RAG_ASSETS_FAULT": "before-swap:bm25"}
    assert subprocess.run([sys.executable, "-c", code], env=env).returncode == -9
    assert not target.exists() and any(p.name.startswith(".bm25.old.") for p in tmp_path.iterdir())
    done = recover_leftovers(tmp_path)
    assert any("restored" in line for line in done)
    assert (target / "chunk_ids.json").read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["bm25"]
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
    assert target.is_symlink() and (target / "chunk_ids.json").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".bm25.v")) == ["bm25"]


def test_index_ids_that_disagree_with_the_chunk_table_are_rebuilt(ingested, capsys):
    """Defect 2: an index whose ids differ from the chunk table while the manifest says current (written by
    hand, restored from a backup) is found by `doctor` and rebuilt by `ingest`."""
    from rag_assets.index.bm25 import BM25Index
    from rag_assets.ingest.verify import verify_report
    from rag_assets.storage.artifacts import chunks_for_indexing
    from rag_assets.storage.manifest import files_hash, record_output
    from rag_assets.storage.atomic import read_json

    paths = _store_report(ingested, BLUEBIRD.company)
    df, texts = chunks_for_indexing(paths)
    BM25Index.build(texts[:-1], df["chunk_id"].tolist()[:-1]).save(paths.bm25_dir)
    recorded = read_json(paths.manifest)["bm25_index"]
    record_output(paths, "bm25_index", recorded["code_version"], files_hash([paths.bm25_dir]))
    assert "bm25_index" in verify_report(paths)
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "bm25_index: the BM25 index holds" in out and "1 missing" in out and "1 broken" in out
    assert main(["ingest", str(ingested / "pdfs")]) == 0
    assert verify_report(paths) == {}
    assert main(["doctor"]) == 0 and "2 ok, 0 broken" in capsys.readouterr().out


def test_a_report_with_a_missing_index_fails_only_its_own_questions(ingested, tmp_path, capsys):
    """Defect 3: one report's BM25 index gone; its question gets a clear error, the other report's question
    is answered as usual (retrieve exits 1 and says how many failed)."""
    from rag_assets.storage.atomic import remove_index

    remove_index(_store_report(ingested, BLUEBIRD.company).bm25_dir)
    q = _questions(tmp_path, {"text": f"What were the total assets of {BLUEBIRD.company}?", "kind": "number"},
                   {"text": f"What were the total assets of {NORTHWIND.company}?", "kind": "number"})
    out = tmp_path / "ranked.jsonl"
    assert main(["retrieve", q, "--out", str(out)]) == 1
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert "its indexes cannot be read" in lines[0]["error"] and lines[0]["pages"] == []
    assert lines[1]["pages"] and "error" not in lines[1]
    assert "1 ranked page lists" in captured.out and "1 failed" in captured.out
    assert "rag-assets doctor" in captured.err


# -- a changed PDF (defect 4) ---------------------------------------------------------------------------

def test_a_changed_pdf_supersedes_its_report(ingested, capsys):
    """Defect 4: bytes appended to a PDF. The catalog keeps one current report for the path (the new one,
    with the company's name), routes to it only, and the old partition refuses to parse the new file."""
    from rag_assets.orchestration.definitions import ingestion_graph
    from rag_assets.orchestration.resources import ParserResource
    from rag_assets.storage.catalog import Catalog

    old = _store_report(ingested, BLUEBIRD.company).sha1
    pdf = ingested / "pdfs" / BLUEBIRD.file_name
    with open(pdf, "ab") as fh:
        fh.write(b"\n% an incremental update\n")
    assert main(["ingest", str(ingested / "pdfs")]) == 0
    cat = Catalog(ingested / "catalog.json")
    at_path = [src for src in cat.reports.values() if src.path == str(pdf.resolve())]
    current = [src for src in at_path if not src.superseded_by]
    assert len(at_path) == 2 and len(current) == 1 and current[0].sha1 != old
    assert cat.reports[old].superseded_by == current[0].sha1 and current[0].company_name == BLUEBIRD.company
    assert ReportStore().indexed_reports().get(current[0].sha1) == BLUEBIRD.company
    assert old not in ReportStore().indexed_reports()
    resources = {"store": ReportStore(), "parser": ParserResource(route="weight_free"),
                 "embedder": EmbedderResource(), "llm": LLMResource()}
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("reports", [old])
        result = dg.materialize(ingestion_graph(resources), partition_key=old, instance=instance,
                                resources=resources, raise_on_error=False, selection=["parsed_report"])
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    assert "changed since it was registered as report" in failure.step_failure_data.user_failure_data.description


# -- stopping (defect 7) ---------------------------------------------------------------------------------

@pytest.mark.parametrize("signo", ["SIGINT", "SIGTERM"])
def test_a_signal_stops_ingest_within_seconds_and_fails_its_run(erc, data_home, tmp_path, signo):
    """Defect 7: SIGINT or SIGTERM while a real report is being ingested: the process stops within seconds,
    exits non-zero with one line, leaves no temp file, does not start the next report, and its Dagster run
    is FAILURE (not STARTED)."""
    import os
    import shutil
    import signal
    import subprocess
    import sys
    import time

    import dagster as dg

    inbox = tmp_path / "pdfs"
    inbox.mkdir()
    smallest = sorted((erc / "pdfs").glob("*.pdf"), key=lambda p: p.stat().st_size)[:2]
    for p in smallest:
        shutil.copy(p, inbox / p.name)
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path / "dagster_home")}
    proc = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "ingest", str(inbox)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list((data_home / "reports").glob("*/parsed.docling.json")):  # a run is under way
        assert proc.poll() is None and time.monotonic() < deadline, "ingestion did not start"
        time.sleep(0.2)
    t0 = time.monotonic()
    proc.send_signal(getattr(signal, signo))
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - t0 < 15, "stopped within seconds"
    assert proc.returncode == 130, err[-2000:]
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "interrupted" in errors[0] and "1 report(s) not started" in errors[0]
    assert "Traceback" not in err and "Stack Trace" not in err
    assert len(list((data_home / "reports").iterdir())) == 1, "the next report was not started"
    assert leftovers(data_home) == []
    with dg.DagsterInstance.from_config(env["DAGSTER_HOME"]) as instance:
        assert [r.status for r in instance.get_runs()] == [dg.DagsterRunStatus.FAILURE]


def test_a_failed_pdf_is_one_summary_line_not_a_flood(inbox, tmp_path, monkeypatch, capfd):
    """Defect 10: a bad PDF printed hundreds of lines of Dagster traces; the reason is in the summary and
    the traces stay in the run's event log unless -v is given."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    (inbox / "broken.pdf").write_bytes(b"%PDF-1.7\nthis is not a PDF body")
    assert main(["ingest", str(inbox)]) == 1
    out, err = capfd.readouterr()
    assert "FAILED" in out and "broken" in out
    assert "Stack Trace" not in err and "Traceback" not in err
    assert len([line for line in err.replace("\r", "\n").splitlines() if line.strip() and
                not line.startswith("reports:")]) <= 3, err


@pytest.mark.parametrize("umask, file_mode, dir_mode", [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700)])
def test_outputs_follow_the_umask(tmp_path, umask, file_mode, dir_mode):
    """Defect 10: files were 0600 and index folders 0700 whatever the umask."""
    import os

    from rag_assets.storage.atomic import atomic_dir, write_text

    old = os.umask(umask)
    try:
        write_text(tmp_path / "a.json", "{}")
        with atomic_dir(tmp_path / "index") as tmp:
            (tmp / "x").write_text("1")
    finally:
        os.umask(old)
    assert (tmp_path / "a.json").stat().st_mode & 0o777 == file_mode
    assert (tmp_path / "index").stat().st_mode & 0o777 == dir_mode  # the version folder, through the link


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")  # nothing raised in the callback
def test_a_signal_in_a_stage_is_latched_and_raised_at_the_next_check():
    """Defect 7, the flaky half: Dagster's handler raised from wherever Python was; inside a garbage-collection
    callback (SQLAlchemy's weakref finalizers) Python printed a traceback and dropped the exception, and the
    run went on (`ingest` exited 0). In a stage the first signal is only latched, even when it lands in such a
    callback, and raised at the stage's next check; a second signal goes to the handler in place."""
    import signal
    import weakref

    import dagster as dg

    from rag_assets.orchestration.interrupts import latched_signals

    class Thing:
        pass

    def finalizer(_ref):
        signal.raise_signal(signal.SIGINT)
        for _ in range(1000):  # the handler runs here, inside the callback
            pass

    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # an earlier test may have left another
    try:
        with latched_signals() as latch:
            latch.check()  # nothing received yet
            thing = Thing()
            ref = weakref.ref(thing, finalizer)
            del thing
            assert ref() is None and latch.signo == signal.SIGINT
            with pytest.raises(dg.DagsterExecutionInterruptedError):
                latch.check()
            with pytest.raises(KeyboardInterrupt):  # the second signal: the handler in place, at once
                signal.raise_signal(signal.SIGINT)
                time.sleep(5)  # interrupted by the handler: a busy loop could end before it ran (seen once)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "the handler in place is restored"
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_huge_question_is_refused_alone_and_the_run_goes_on(ingested, tmp_path, capsys):
    """Issue 24, item 5: a 10 MB question cost minutes and gigabytes; now it is an error of its own at once."""
    huge = {"text": "What was the revenue of Northwind Widgets plc? " * 220_000, "kind": "number"}
    q = _questions(tmp_path, huge, UNKNOWN_Q)
    out = tmp_path / "answers.json"
    t0 = time.monotonic()
    assert main(["answer", q, "--out", str(out), "--config", "local-fast"]) == 1
    assert time.monotonic() - t0 < 60
    err = capsys.readouterr().err
    assert "1 of 2 question(s) failed" in err and "the limit is 4,000 (max_question_chars)" in err
    assert [a["question_text"] for a in json.loads(out.read_text())["answers"]] == [UNKNOWN_Q["text"]]
    assert main(["ask", "x" * 5000, "--config", "local-fast"]) == 1
    assert "the limit is 4,000" in capsys.readouterr().err


def _tree(folder) -> dict:
    return {str(p.relative_to(folder)): (p.is_symlink(), p.lstat().st_mtime_ns) for p in sorted(folder.rglob("*"))}


def test_doctor_without_repair_only_reads(ingested, capsys):
    """Issue 24, item 8: `doctor` restored a missing index link and removed leftovers by itself; now it says
    what `--repair` would do and changes nothing."""
    paths = _store_report(ingested, NORTHWIND.company)
    dead = 2 ** 22 + 7  # above pid_max: a writer that is gone
    (paths.dir / f".chunks.parquet.{dead}.abc.tmp").write_bytes(b"half")  # a killed writer's temp file
    version = re.sub(r"\.v\d+-", f".v{dead}-", os.readlink(paths.bm25_dir))  # a killed writer's index version
    os.rename(paths.dir / os.readlink(paths.bm25_dir), paths.dir / version)
    paths.bm25_dir.unlink()  # its swap was cut between the two renames: the version is there, its link is not
    before = _tree(ingested)
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "would remove leftover" in out and f"would restore {paths.bm25_dir} -> {version}" in out
    assert _tree(ingested) == before, "doctor without --repair changed files"
    assert main(["doctor", "--repair"]) == 0
    assert os.readlink(paths.bm25_dir) == version and not list(paths.dir.glob(".chunks.parquet.*.tmp"))


def test_two_answer_runs_on_one_data_root_both_complete(ingested, tmp_path):
    """Issue 24, item 3: the lineage database was held for a whole run, so a second run died at start with
    DuckDB's lock error. Two `answer` processes at once now take turns for each short write."""
    q = _questions(tmp_path, BUYBACK_Q, UNKNOWN_Q, {"text": f"Who is the CEO of {NORTHWIND.company}?", "kind": "name"})
    env = {"RAG_ASSETS_HOME": str(ingested), "DAGSTER_HOME": str(tmp_path / "dagster_home")}
    procs = [subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "answer", q, "--out",
                               str(tmp_path / f"answers{i}.json"), "--config", "local-fast"],
                              env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(2)]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err[-2000:]
    import duckdb

    con = duckdb.connect(str(ingested / "answers.duckdb"), read_only=True)
    runs = con.execute("SELECT run_id, count(*) FROM answers GROUP BY run_id ORDER BY run_id").fetchall()
    assert runs == [("local-fast:answers0.json", 3), ("local-fast:answers1.json", 3)]


def test_a_report_whose_files_were_edited_is_not_answered_from(ingested, capsys):
    """Issue 24, item 7: `doctor` called a hand-edited pages.parquet broken, but `ask` answered from it."""
    import pyarrow.parquet as pq

    paths = _store_report(ingested, NORTHWIND.company)
    table = pq.read_table(paths.pages).to_pandas()
    table.loc[0, "text"] = "Northwind Widgets plc bought back every share it had."
    table.to_parquet(paths.pages, index=False)
    assert main(["doctor"]) == 1
    assert main(["ask", BUYBACK_Q["text"], "--config", "local-fast"]) == 1
    captured = capsys.readouterr()
    assert "answer:" not in captured.out
    assert "the files of report_pages changed since they were written; run `rag-assets doctor --repair`" in captured.err
    assert main(["doctor", "--repair"]) == 0
    assert main(["ask", BUYBACK_Q["text"], "--config", "local-fast"]) == 0


def test_odd_inbox_entries_are_named_and_listed(tmp_path, sample_pdfs, data_home, monkeypatch, capsys, caplog):
    """Issue 24, item 8: a newline in a PDF's name broke the progress table, a link loop was skipped without a
    word, and two reports under one company name were merged silently."""
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    northwind, bluebird = sample_pdfs
    (inbox / "Odd\nName.pdf").write_bytes(northwind.read_bytes())
    (inbox / "loop.pdf").symlink_to(inbox / "loop.pdf")
    (inbox / "Acme.pdf").write_bytes(bluebird.read_bytes())
    (inbox / "acme.PDF").write_bytes(bluebird.read_bytes() + b"\n% another year\n")
    with caplog.at_level("WARNING"):
        assert main(["ingest", str(inbox)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("Odd", "Acme", "acme"))]
    assert len(rows) == 3 and any(r.startswith("Odd Name ") for r in rows), out
    said = caplog.text
    assert "skipped" in said and "loop.pdf" in said and "link loop" in said
    assert "2 reports are named 'Acme'" in said and "a question naming it searches all of them" in said


def test_doctor_lists_the_stale_partitions_and_ingest_rebuilds_exactly_those(ingested, monkeypatch, capsys):
    """Issue 28: Dagster shows a partition's stale markers only in its own view; `doctor` lists them for every
    report, by partition key, and `ingest` rebuilds what it listed."""
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "stale:" not in out and "2 ok, 0 broken" in out and "Northwind Widgets plc 2023 " in out
    monkeypatch.setenv("RAG_ASSETS_CHUNK_CONTEXT", "deterministic")  # the environment disagrees with the root's
    assert main(["doctor"]) == 2
    err = capsys.readouterr().err.strip()
    assert "disagrees with the data root's chunk_context='none'" in err and "\n" not in err
    monkeypatch.delenv("RAG_ASSETS_CHUNK_CONTEXT")
    assert main(["settings", "--set", "chunk_context=deterministic"]) == 0  # a new setting, for every process
    assert "chunk_context: 'none' -> 'deterministic'" in capsys.readouterr().out
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    stale_lines = [line for line in out.splitlines() if line.strip().startswith("stale:")]
    assert len(stale_lines) == 2 and all("report_chunks" in line and "parsed_report" not in line
                                         for line in stale_lines)  # the chunks' settings changed, not parsing
    assert "2 with stale assets" in out
    assert main(["ingest", str(ingested / "pdfs")]) == 0
    capsys.readouterr()
    assert main(["doctor"]) == 0
    assert "stale:" not in capsys.readouterr().out


@pytest.mark.parametrize("garbage", [b'{"reports": {"3f1a', b"\x00\xff garbage", b"[1, 2, 3]"])
def test_a_damaged_catalog_is_moved_aside_and_ingest_registers_the_reports_again(ingested, capsys, caplog, garbage):
    """Issue 40 item 5: a truncated or garbage catalog.json made every verb end in a JSONDecodeError traceback.
    It is moved aside with one line saying so; `doctor` runs; `ingest` registers the same reports under the
    same keys from the PDFs, and their files are reused."""
    from rag_assets.storage.catalog import Catalog

    catalog = ingested / "catalog.json"
    before = {sha: src.key for sha, src in Catalog(catalog).current().items()}
    catalog.write_bytes(garbage)
    assert main(["doctor"]) == 1  # without --repair it only reads: the file stays, named as damaged
    assert f"catalog:  {catalog} is damaged (" in capsys.readouterr().out and catalog.read_bytes() == garbage
    with caplog.at_level("WARNING"):
        main(["doctor", "--repair"])
    out = capsys.readouterr().out
    assert "orphan folder" in out, out  # the reports' folders are still there and named
    said = [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()]
    assert said and said[0].startswith(f"{catalog} is damaged: ") and "moved to catalog.json.damaged" in said[0]
    assert (ingested / "catalog.json.damaged").read_bytes() == garbage
    assert main(["ingest", str(ingested / "pdfs")]) == 0
    assert {sha: src.key for sha, src in Catalog(catalog).current().items()} == before


def test_one_damaged_manifest_breaks_only_its_report_and_repair_rebuilds_it(ingested, capsys):
    """Issue 40 item 5: one garbage manifest.json blocked every report with a traceback; now only its report is
    broken, and `doctor --repair` rebuilds it."""
    paths = _store_report(ingested, NORTHWIND.company)
    paths.manifest.write_text("{not json", encoding="utf-8")
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert f"its manifest {paths.manifest} is damaged (not valid JSON" in out
    assert paths.manifest.read_text(encoding="utf-8") == "{not json", "doctor without --repair only reads"
    lines = {line.split()[0]: line for line in out.splitlines() if line.endswith(("ok", "broken"))}
    assert lines[NORTHWIND.company.split()[0]].endswith("broken") and lines[BLUEBIRD.company.split()[0]].endswith("ok")
    assert main(["doctor", "--repair"]) == 0
    assert json.loads(paths.manifest.read_text(encoding="utf-8"))


def test_a_zero_byte_lineage_database_is_found_by_doctor_and_moved_aside(ingested, capsys, caplog):
    """Issue 40 item 4: a full disk at a data root's first answer left a 0-byte answers.duckdb; every later
    answer ended in a traceback while doctor said all was well. Doctor now names it and --repair moves it
    aside; answering moves it aside by itself and writes its lineage to a new database."""
    from rag_assets.answer.readers.record import AnswerRecord
    from rag_assets.answer.service.lineage import AnswerDB

    db = ingested / "answers.duckdb"
    db.write_bytes(b"")
    assert main(["doctor"]) == 1
    assert f"lineage:  {db} is no DuckDB database" in capsys.readouterr().out
    assert main(["doctor", "--repair"]) == 0
    assert "moved to answers.duckdb.damaged" in capsys.readouterr().out and not db.exists()
    db.write_bytes(b"\x00" * 4096)
    with caplog.at_level("WARNING"):
        AnswerDB(db).insert("run", AnswerRecord(question_text="What was revenue?", kind="number", value=1.0))
    assert any("is no DuckDB database (4096 bytes" in r.getMessage() for r in caplog.records)
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT question_text FROM answers").fetchall() == [("What was revenue?",)]


def test_a_key_in_the_base_url_is_in_no_file_a_run_writes_nor_in_its_logs(ingested, tmp_path, capsys, caplog):
    """Issue 40 item 13: a user name and key inside the base URL were written into the submission's name, the
    lineage database and the -v logs. A run that answers one question and fails one (the endpoint refuses)
    leaves them in no file under the data root or beside the submission, nor in what it printed or logged."""
    q = _questions(tmp_path, BUYBACK_Q, UNKNOWN_Q)
    out = tmp_path / "answers.json"
    url = dead_endpoint().replace("http://", "http://analyst:sk-SECRET-123@")
    with caplog.at_level("DEBUG"):
        assert main(["-v", "answer", q, "--out", str(out), "--config", "hybrid-api", "--base-url", url,
                     "--set", "llm_retries=0"]) == 1
    printed = capsys.readouterr()
    written = [p for root in (ingested, tmp_path) for p in root.rglob("*") if p.is_file() and p.stat().st_size]
    assert out.exists() and (ingested / "answers.duckdb").exists()
    leaks = [str(p) for p in written if b"sk-SECRET-123" in p.read_bytes() or b"analyst:" in p.read_bytes()]
    assert leaks == []
    said = printed.out + printed.err + "\n".join(r.getMessage() for r in caplog.records)
    assert "sk-SECRET-123" not in said and "analyst:" not in said


def test_one_stray_byte_in_a_utf8_questions_file_is_one_line_naming_its_offset(tmp_path):
    """Issue 47, item 5: one stray byte made the whole file decode as Windows-1252, silently ("‘N/A’" became
    "â€˜N/Aâ€™"); a JSON file is UTF-8 (or has a byte-order mark), else one line names the byte."""
    from rag_assets.answer.service.questions import load_questions
    from rag_assets.storage.textfiles import InputFileError

    text = json.dumps([{"text": "Did Acme say ‘N/A’ anywhere?", "kind": "boolean"}], ensure_ascii=False)
    data = text.encode("utf-8")
    at = data.index(b"anywhere")
    path = _write(tmp_path / "q.json", data[:at] + b"\xff" + data[at:])
    with pytest.raises(InputFileError, match=rf"not UTF-8: invalid start byte at byte offset {at}"):
        load_questions(path)
    assert load_questions(_write(tmp_path / "ok.json", data))[0].text == "Did Acme say ‘N/A’ anywhere?"


def test_a_questions_file_nested_too_deeply_is_one_line(tmp_path, capsys):
    """Issue 47, item 8: a questions file nested 100,000 deep ended in a RecursionError traceback."""
    path = _write(tmp_path / "deep.json", b"[" * 100_000 + b"]" * 100_000)
    assert main(["answer", str(path), "--out", str(tmp_path / "a.json")]) == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and "Traceback" not in err and str(path) in err


def test_a_file_name_holding_a_newline_forges_no_output_line(data_home, sample_pdfs, tmp_path, monkeypatch,
                                                             capsys):
    """Issue 47, item 8: a PDF named 'bad\\nerror: forged line.pdf' printed a line of its own ('error: forged
    line.pdf: ...') in ingest's summary. Control characters are escaped in the summary and in log lines."""
    import shutil

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    folder = tmp_path / "pdfs"
    folder.mkdir()
    (folder / "bad\nerror: forged line.pdf").write_bytes(b"not a pdf")
    shutil.copy(sample_pdfs[0], folder)
    assert main(["ingest", str(folder)]) == 1  # the bad file fails, the other is ingested
    said = capsys.readouterr()
    lines = (said.out + said.err).splitlines()
    assert any("bad\\nerror: forged line.pdf" in line for line in lines)
    assert not any(line.startswith("error: forged") for line in lines)


def test_a_signal_whose_interruption_was_dropped_interrupts_the_next_stage():
    """A SIGTERM raised by Dagster's handler inside a garbage-collection callback is dropped by Python, and the
    run went on to its end (1 run in about 14 of the signal test above). Every signal is recorded whatever its
    handler did: the next stage refuses to start, and the CLI's loop sees it once."""
    import os
    import signal
    import time

    import dagster as dg

    from rag_assets.orchestration.interrupts import (dropped_signal, latched_signals, signals_handled_by,
                                                     signals_recorded)

    assert not dropped_signal()  # nothing recorded outside the block
    with signals_recorded():
        with signals_handled_by(lambda signo, frame, previous: None):  # a handler whose effect is lost
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.1)
            assert dropped_signal() and not dropped_signal()  # read once
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)
        with pytest.raises(dg.DagsterExecutionInterruptedError):
            with latched_signals():
                pass
        with latched_signals() as latch:  # nothing left: the next stage runs
            assert latch.signo is None


def test_an_index_of_other_vectors_is_rebuilt_by_ingest(inbox, tmp_path, monkeypatch, capsys, caplog):
    """Issue 46: reports indexed while this machine refused the int8 graph (fp32 vectors) stayed 'up to date'
    to ingest once the graph was accepted, and their questions found no index of the int8 vectors. Ingest now
    rebuilds the index of the vectors this machine's embedder makes, and only that stage."""
    from rag_assets.index import onnx_graph
    from rag_assets.index.embedding import MiniLMOnnxEmbedder

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(tmp_path / "models"))
    monkeypatch.setattr(onnx_graph, "INT8_MIN_COSINE", 1.01)  # refused here: fp32 vectors
    ingest(inbox, quiet=True)
    paths = _store_report(inbox.parent, NORTHWIND.company)
    assert paths.faiss_dir_for(MiniLMOnnxEmbedder.FP32_NAME).is_dir()
    monkeypatch.setattr(onnx_graph, "INT8_MIN_COSINE", 0.97)
    for refused in (tmp_path / "models").rglob("*.refused"):
        refused.unlink()  # accepted now (as a newer check accepts it)
    with caplog.at_level("WARNING"):
        rows = ingest(inbox, quiet=True)
    assert {r["status"] for r in rows} == {"ok"}
    assert paths.faiss_dir_for(MiniLMOnnxEmbedder.INT8_NAME).is_dir()
    assert "no index of the vectors the embedder makes here" in caplog.text
    assert all(r["status"] == "up to date" for r in ingest(inbox, quiet=True))
