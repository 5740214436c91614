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
