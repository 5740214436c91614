"""Faults injected on purpose (issue 10): a dead endpoint, kills at chosen points, bad input files. Each
test names the defect it guards; the README's fault table points here."""

from __future__ import annotations

import json
import socket

import dagster as dg
import pytest

from rag_assets.cli.ingest import ingest
from rag_assets.cli.main import main
from rag_assets.orchestration.answer_assets import answers, question_set
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ReportStore
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
    submission = json.loads((store.answers_dir("hybrid-api") / "submission.json").read_text())
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
    from rag_assets.answer.questions import load_questions

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
])
def test_bad_subset_csv_is_one_line_naming_file_and_line(two_pdfs, tmp_path, data_home, capsys, body, says):
    """Defect 5: a duplicate row silently won and a bad header was a traceback; each is now one line that
    names the file and the line, and nothing is ingested."""
    folder, shas = two_pdfs
    csv_path = _write(tmp_path / "bad.csv", body.format(a=shas[0]).encode())
    assert main(["ingest", str(folder), "--subset", str(csv_path)]) == 2
    line = _one_error_line(capsys)
    assert str(csv_path) in line and says.format(a=shas[0]) in line
    assert not (data_home / "reports").exists()
