"""Parallel answering against a served model (issue 29): the embedded Qwen2.5-Coder-0.5B served as an
OpenAI-compatible endpoint on 127.0.0.1 (``tools/llm_server.py``), the `answer` verb with 1, 2 and 4 requests
at once gives the same answers, and a server that answers every third request with a 503 is retried into the
same answers."""

from __future__ import annotations

import json
import threading
import time

import pytest

from rag_assets.cli.main import main
from rag_assets.tools.llm_server import serve
from rag_assets_tests.conftest import NORTHWIND, embedded_llm
from rag_assets_tests.test_faults import ingested  # noqa: F401 - the fixture

QUESTIONS = [
    {"text": f"Who was the chief executive officer of {NORTHWIND.company}?", "kind": "name"},
    {"text": f"What was the cash flow from operations (in USD) for {NORTHWIND.company}?", "kind": "number"},
    {"text": f"Did {NORTHWIND.company} announce a share buyback plan in the annual report?", "kind": "boolean"},
]


@pytest.fixture(scope="module")
def model():
    return embedded_llm("qwen2.5-coder-0.5b")


def _served(model, fail_every: int = 0):
    server, served = serve(model, "qwen2.5-coder-0.5b", 0, fail_every)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, served


def _answer(tmp_path, url: str, workers: int, name: str) -> tuple[list[tuple], float]:
    q = tmp_path / "q.json"
    q.write_text(json.dumps(QUESTIONS))
    out = tmp_path / f"{name}.json"
    t0 = time.perf_counter()
    assert main(["answer", str(q), "--out", str(out), "--config", "local-fast", "--base-url", url,
                 "--set", f"parallel_requests={workers}", "--set", "llm_retries=4"]) == 0
    seconds = time.perf_counter() - t0
    answers = json.loads(out.read_text())["answers"]
    return [(a["question_text"], json.dumps(a["value"]), json.dumps(a["references"])) for a in answers], seconds


def test_one_two_and_four_workers_give_the_same_answers(ingested, model, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    server, served = _served(model)
    try:
        url = f"http://127.0.0.1:{server.server_port}/v1"
        runs = {n: _answer(tmp_path, url, n, f"w{n}") for n in (1, 2, 4)}
    finally:
        server.shutdown()
    print("\n" + "; ".join(f"{n} worker(s): {s / len(QUESTIONS):.1f} s per question" for n, (_, s) in runs.items()))
    assert runs[1][0] == runs[2][0] == runs[4][0]
    assert any(v != json.dumps("N/A") for _, v, _ in runs[1][0])  # something was answered, not all N/A
    assert served.requests >= 3 * len(QUESTIONS) - 3  # the model was asked (questions without a call excepted)


def test_a_server_that_fails_every_third_request_is_retried_into_the_same_answers(ingested, model, tmp_path,  # noqa: F811
                                                                                  monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "local")
    monkeypatch.setattr(time, "sleep", lambda s: None)  # the client's back-off, not the model's time
    clean, _ = _served(model)
    flaky, served = _served(model, fail_every=3)
    try:
        want, _ = _answer(tmp_path, f"http://127.0.0.1:{clean.server_port}/v1", 1, "clean")
        got, _ = _answer(tmp_path, f"http://127.0.0.1:{flaky.server_port}/v1", 2, "flaky")
    finally:
        clean.shutdown()
        flaky.shutdown()
    assert got == want and served.requests >= 3


def _idle(served, quiet: float = 3.0, limit: float = 300.0) -> None:
    """Wait until the server has answered every request it holds and none came for ``quiet`` seconds."""
    last, since, give_up = served.requests, time.monotonic(), time.monotonic() + limit
    while time.monotonic() - since < quiet and time.monotonic() < give_up:
        with served.lock:  # a call in progress holds it
            pass
        if served.requests != last:
            last, since = served.requests, time.monotonic()
        time.sleep(0.2)


def test_ctrl_c_cancels_the_queued_questions_and_stops_within_two_seconds(ingested, model, tmp_path):  # noqa: F811
    """Issue 47 item 6: with parallel requests, Ctrl-C printed 'interrupted' and went on calling the API until
    every queued question was asked. Now the queued questions are cancelled, the process exits 130 within 2 s
    (a call in flight is abandoned), and the answers made are kept in the progress log."""
    import os
    import signal
    import subprocess
    import sys

    server, served = _served(model)
    questions = QUESTIONS + [{"text": f"Who chaired the board of {NORTHWIND.company}?", "kind": "name"},
                             {"text": f"Did {NORTHWIND.company} pay a dividend?", "kind": "boolean"},
                             {"text": f"Who was the auditor of {NORTHWIND.company}?", "kind": "name"},
                             {"text": f"Did {NORTHWIND.company} acquire another company?", "kind": "boolean"}]
    q, out = tmp_path / "q.json", tmp_path / "answers.json"
    q.write_text(json.dumps(questions))
    progress = out.with_name(out.name + ".progress.jsonl")
    env = {**os.environ, "RAG_ASSETS_HOME": str(ingested), "OPENAI_API_KEY": "local"}
    proc = subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "answer", str(q), "--out", str(out),
                             "--config", "local-fast", "--base-url", f"http://127.0.0.1:{server.server_port}/v1",
                             "--set", "parallel_requests=2"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,  # Ctrl-C as at a terminal: a suite run in the
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # background ignores it
    try:
        deadline = time.monotonic() + 600
        while not (progress.exists() and progress.read_text().count("\n") >= 1) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=60)
        took = time.monotonic() - t0
        asked = served.requests
        _idle(served)  # the calls the process sent before it stopped are served before the model is freed
    finally:
        proc.kill()
        server.shutdown()
        server.server_close()
    made = progress.read_text().splitlines()
    assert rc == 130 and took <= 2.0, (rc, took, proc.stderr.read()[-2000:])
    assert 1 <= len(made) < len(questions)  # the answers made are kept, the queued ones were never asked
    assert served.requests <= asked + 2  # nothing was asked after it stopped but the two calls already sent
