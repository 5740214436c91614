"""The real LLM routes where they run here: the embedded backends in process (the prebuilt ik_llama.cpp
wheel always; llama-cpp-python where it is installed), and llama.cpp's OpenAI-compatible server on
127.0.0.1 driven through the official openai client (needs llama-cpp-python[server]). Models come from
their pinned wheels. Structured output must validate whatever the (tiny) model thinks."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from rag_assets.llm.clients import OpenAICompatibleLLM

from rag_assets.llm.structured import structured_call
from rag_assets.llm.embedded import BackendMissing, embedded_llm, installed_backends
from rag_assets.llm.prompts import build_messages
from rag_assets.llm.schemas import BooleanAnswer, NumberAnswer
from rag_assets_tests.conftest import embedded_model, free_port, run_in_fresh_process, stop_process_group

BACKENDS = [
    "ik",
    pytest.param("llama-cpp-python", marks=pytest.mark.skipif(
        "llama-cpp-python" not in installed_backends(), reason="llama-cpp-python not installed (optional; README)")),
]

CONTEXT = (
    "PAGE 3\nAll amounts in thousands of USD\n| | 2023 | 2022 |\n|---|---|---|\n"
    "| Cash flow from operating activities | 406,100 | 388,250 |\n| Total assets | 7,710,615 | 8,818,186 |"
)


@pytest.fixture(scope="module")
def llama_server():
    """llama_cpp.server with SmolLM2-135M on 127.0.0.1, stopped by its PID afterwards."""
    if "llama-cpp-python" not in installed_backends():  # find_spec only: importing it here would load its library
        pytest.skip("llama-cpp-python[server] not installed (optional; README)")
    model = embedded_model("smollm2-135m")
    port = free_port()
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
        stop_process_group(proc)


def test_openai_client_against_local_llama_server(llama_server):
    llm = OpenAICompatibleLLM(model="smollm2", base_url=llama_server, api_key="local", timeout=120, max_retries=1)
    messages, schema = build_messages("number", context=CONTEXT, question="What was the cash flow from operations?")
    res = structured_call(llm, messages, schema, max_tokens=300)
    assert res.error is None and isinstance(res.value, NumberAnswer)
    assert res.calls[0].prompt_tokens > 100 and res.calls[0].completion_tokens > 0
    # the server answers HTTP 500 to json_schema; the client stepped down to json_object with the schema
    assert llm.format_level(schema.model_json_schema()) >= 1 and res.calls[-1].mode == "json_object_schema"
    messages, schema = build_messages("boolean", context=CONTEXT, question="Did the company report total assets?")
    res = structured_call(llm, messages, schema, max_tokens=200)
    assert isinstance(res.value, BooleanAnswer) and isinstance(res.value.final_answer, bool)


def _grammar_case(backend: str) -> None:
    llm = embedded_llm(embedded_model("smollm2-135m"), backend=backend, n_ctx=2048)
    messages, schema = build_messages("number", context=CONTEXT, question="What were total assets?")
    res = structured_call(llm, messages, schema, max_tokens=300, repair=False)
    assert res.calls[0].mode == "grammar"
    if res.error:  # the grammar keeps JSON valid; a 135M model may still loop inside a string until the cap
        assert res.calls[0].completion_tokens == 300 and res.raw.lstrip().startswith("{"), res.raw
    else:
        assert set(res.value.model_dump()) >= {"final_answer", "relevant_pages"}


def _qwen_case(backend: str) -> None:
    from rag_assets.answer.evidence.numbers import resolve_number

    llm = embedded_llm(embedded_model("qwen2.5-coder-1.5b"), backend=backend, n_ctx=4096)
    messages, schema = build_messages(
        "number", context=CONTEXT, question="What was the cash flow from operations (in USD) in 2023?"
    )
    res = structured_call(llm, messages, schema, max_tokens=400)
    v = res.value
    assert resolve_number(v.final_answer, v.value_as_written, v.scale) == 406_100_000
    assert 3 in v.relevant_pages


def _run(case, backend: str) -> None:
    """ik runs here; llama-cpp-python in a fresh process (two llama.cpp libraries in one process crash)."""
    if backend == "ik":
        case(backend)
    else:
        run_in_fresh_process(case, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_in_process_llama_json_grammar(backend):
    _run(_grammar_case, backend)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_embedded_qwen_reads_a_table_with_units(backend):
    """The default embedded model extracts a scaled number; our code applies the scale if it forgets."""
    _run(_qwen_case, backend)


def test_a_second_llama_library_in_one_process_is_refused_not_a_crash():
    embedded_llm(embedded_model("smollm2-135m"), backend="ik", n_ctx=512)
    if "llama-cpp-python" not in installed_backends():
        pytest.skip("llama-cpp-python not installed (optional; README)")
    with pytest.raises(BackendMissing, match="one embedded backend per process"):
        embedded_llm(embedded_model("smollm2-135m"), backend="llama-cpp-python", n_ctx=512)
