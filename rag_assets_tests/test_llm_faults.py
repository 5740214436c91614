"""Servers that fail (issue 24, item 6): a transient 5xx is retried and never turns JSON mode off; only a
rejection that names the format steps down, and only for that request kind; a hung endpoint ends the question
as an error at its deadline. The HTTP client stands in for a paid API; the hung endpoint is a real socket."""

from __future__ import annotations

import socket
import threading
import time
from types import SimpleNamespace as NS

import pytest

from rag_assets.llm.clients import OpenAICompatibleLLM

from rag_assets.llm.deadlines import DeadlineExceeded, deadline

from rag_assets.llm.structured import structured_call
from rag_assets.llm.schemas import BooleanAnswer, NumberAnswer

BOOL_BODY = '{"step_by_step_analysis":"a","reasoning_summary":"b","relevant_pages":[],"final_answer":true}'


class HTTPError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status_code = status


class Server:
    """Answers with the scripted errors first, then a boolean answer; records every request."""

    def __init__(self, errors: list[tuple[int, str]] | None = None, reject=()):
        self.errors, self.reject, self.calls = list(errors or []), set(reject), []

    def create(self, **kw):
        self.calls.append(kw)
        fmt = (kw.get("response_format") or {}).get("type")
        if self.errors:
            raise HTTPError(*self.errors.pop(0))
        if fmt in self.reject:
            raise HTTPError(400, f"Invalid parameter: response_format of type '{fmt}' is not supported")
        return NS(choices=[NS(message=NS(content=BOOL_BODY))], usage=NS(prompt_tokens=3, completion_tokens=2))


def _client(server: Server, **kw) -> OpenAICompatibleLLM:
    llm = OpenAICompatibleLLM("gpt-x", client=NS(chat=NS(completions=server)), **kw)
    return llm


def test_transient_server_errors_are_retried_and_keep_json_mode(monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda s: None)
    server = Server(errors=[(500, "Internal Server Error")] * 3 + [(503, "overloaded")])
    llm = _client(server, max_retries=5)
    res = structured_call(llm, [{"role": "user", "content": "q"}], BooleanAnswer)
    assert res.value is not None and res.value.final_answer is True
    assert [c["response_format"]["type"] for c in server.calls] == ["json_schema"] * 5
    later = structured_call(llm, [{"role": "user", "content": "q"}], BooleanAnswer)
    assert later.value is not None and server.calls[-1]["response_format"]["type"] == "json_schema"


def test_a_format_rejection_steps_down_only_for_its_request_kind(monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda s: None)
    server = Server(errors=[(400, "response_format json_schema is not supported for this schema")])
    llm = _client(server)
    assert structured_call(llm, [{"role": "user", "content": "q"}], BooleanAnswer).value is not None
    assert [c["response_format"]["type"] for c in server.calls] == ["json_schema", "json_object"]
    assert llm.format_level(BooleanAnswer.model_json_schema()) == 1
    assert llm.format_level(NumberAnswer.model_json_schema()) == 0, "another request kind keeps json_schema"


def test_a_client_error_that_is_not_about_the_format_is_an_error():
    server = Server(errors=[(401, "Incorrect API key provided")])
    with pytest.raises(HTTPError):
        structured_call(_client(server), [{"role": "user", "content": "q"}], BooleanAnswer)
    assert len(server.calls) == 1


@pytest.fixture()
def hung_endpoint():
    """An HTTP endpoint on 127.0.0.1 that accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    held, stop = [], threading.Event()

    def accept():
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(sock.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    sock.close()


def test_a_hung_endpoint_ends_the_question_at_its_deadline(hung_endpoint):
    llm = OpenAICompatibleLLM("gpt-x", base_url=hung_endpoint, api_key="local", timeout=180, max_retries=5)
    t0 = time.monotonic()
    with deadline(3), pytest.raises(DeadlineExceeded):
        llm.chat([{"role": "user", "content": "q"}], BooleanAnswer.model_json_schema(), 50)
    assert time.monotonic() - t0 < 10, "not 6 x 180 s"
