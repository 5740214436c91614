"""The real LLM routes where they run here: llama.cpp in process, and its OpenAI-compatible server on
127.0.0.1 driven through the official openai client. Skipped with a reason where llama-cpp-python or the
model is absent. Structured output must validate whatever the (tiny) model thinks."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from rag_assets.core.llm import LlamaCppLLM, OpenAICompatibleLLM, structured_call
from rag_assets.core.models import MODELS
from rag_assets.core.prompts import build_messages
from rag_assets.core.schemas import BooleanAnswer, NumberAnswer
from rag_assets_tests.conftest import embedded_model

llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (optional; see README)")

CONTEXT = (
    "PAGE 3\nAll amounts in thousands of USD\n| | 2023 | 2022 |\n|---|---|---|\n"
    "| Cash flow from operating activities | 406,100 | 388,250 |\n| Total assets | 7,710,615 | 8,818,186 |"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server():
    """llama_cpp.server with SmolLM2-135M on 127.0.0.1, stopped by its PID afterwards."""
    model = embedded_model("smollm2-135m")
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "2048"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("llama_cpp.server exited at start")
                time.sleep(0.5)
        else:
            pytest.fail("llama_cpp.server did not listen within 120 s")
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def test_openai_client_against_local_llama_server(llama_server):
    llm = OpenAICompatibleLLM(model="smollm2", base_url=llama_server, api_key="local", timeout=120, max_retries=1)
    messages, schema = build_messages("number", context=CONTEXT, question="What was the cash flow from operations?")
    res = structured_call(llm, messages, schema, max_tokens=300)
    assert res.error is None and isinstance(res.value, NumberAnswer)
    assert res.calls[0].prompt_tokens > 100 and res.calls[0].completion_tokens > 0
    # the server answers HTTP 500 to json_schema; the client stepped down to json_object with the schema
    assert llm.format_level >= 1 and res.calls[-1].mode == "json_object_schema"
    messages, schema = build_messages("boolean", context=CONTEXT, question="Did the company report total assets?")
    res = structured_call(llm, messages, schema, max_tokens=200)
    assert isinstance(res.value, BooleanAnswer) and isinstance(res.value.final_answer, bool)


def test_in_process_llama_json_grammar():
    llm = LlamaCppLLM(embedded_model("smollm2-135m"), n_ctx=2048)
    messages, schema = build_messages("number", context=CONTEXT, question="What were total assets?")
    res = structured_call(llm, messages, schema, max_tokens=300, repair=False)
    assert res.error is None, res.raw
    assert res.calls[0].mode == "grammar" and set(res.value.model_dump()) >= {"final_answer", "relevant_pages"}


@pytest.mark.slow
def test_embedded_qwen_reads_a_table_with_units():
    """The default embedded model extracts a scaled number; our code applies the scale if it forgets."""
    from rag_assets.core.numbers import resolve_number

    llm = LlamaCppLLM(embedded_model("qwen2.5-coder-1.5b"), n_ctx=4096)
    messages, schema = build_messages(
        "number", context=CONTEXT, question="What was the cash flow from operations (in USD) in 2023?"
    )
    res = structured_call(llm, messages, schema, max_tokens=400)
    v = res.value
    assert resolve_number(v.final_answer, v.value_as_written, v.scale) == 406_100_000
    assert 3 in v.relevant_pages
