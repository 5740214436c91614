"""The prebuilt embedded backend (ik_llama.cpp through its shared library) with real small models:
schema grammars, the model's own chat template, KV-prefix reuse, the install check and clear failures."""

from __future__ import annotations

import json

import pytest

from rag_assets.llm import embedded as llm_embedded
from rag_assets.llm.gbnf import schema_to_gbnf
from rag_assets.llm.clients import grammar_schema
from rag_assets.llm.structured import structured_call
from rag_assets.llm.embedded import BackendMissing, IkLlamaLLM, resolve_backend, verify_ik_install
from rag_assets.llm.prompts import build_messages
from rag_assets.llm.schemas import (BooleanAnswer, ComparativeAnswer, NameAnswer, NamesAnswer, NumberAnswer,
                                     RerankResult, TableBlocks)
from rag_assets_tests.conftest import embedded_model

CONTEXT = ("PAGE 7\nFigures in millions of CHF\n| | 2021 | 2020 |\n|---|---|---|\n"
           "| Net sales | 1,482.3 | 1,377.0 |\n| Headcount | 5,120 | 4,980 |\n\n"
           "PAGE 8\nOn 3 March 2021 the Board appointed Lena Vogt as chief executive officer.")


@pytest.fixture(scope="module")
def smol() -> IkLlamaLLM:
    return IkLlamaLLM(embedded_model("smollm2-135m"), n_ctx=4096)


@pytest.mark.parametrize("schema", [NumberAnswer, BooleanAnswer, NameAnswer, NamesAnswer, ComparativeAnswer,
                                    RerankResult, TableBlocks])
def test_every_schema_becomes_a_grammar_that_forces_valid_output(smol, schema):
    """llama.cpp accepts the grammar, and even a 135M model then writes JSON that validates."""
    grammar = schema_to_gbnf(grammar_schema(schema.model_json_schema()))
    assert grammar.startswith("root ::= ")
    messages = [{"role": "system", "content": "Reply with JSON."},
                {"role": "user", "content": f"{CONTEXT}\n\nWhat are the net sales in 2021?"}]
    res = structured_call(smol, messages, schema, max_tokens=400, repair=False)
    assert res.calls[0].mode == "grammar"
    if res.error:  # only a cut-off at max_tokens may fail: the text is then a prefix of valid JSON
        assert res.calls[0].completion_tokens == 400, res.raw
    else:
        assert isinstance(res.value, schema)


def test_enum_and_const_are_kept_by_the_grammar():
    grammar = schema_to_gbnf(NumberAnswer.model_json_schema())
    assert '"\\"thousands\\""' in grammar and '"\\"step_by_step_analysis\\""' in grammar
    names = schema_to_gbnf(NamesAnswer.model_json_schema())
    assert '"\\"N/A\\""' in names


def test_chat_uses_the_models_own_template(smol):
    """The package's own create_chat_completion formats every chat as Gemma; ours uses the model's template."""
    text = smol.format_chat([{"role": "system", "content": "S"}, {"role": "user", "content": "U"}])
    assert "<|im_start|>system\nS<|im_end|>" in text and text.rstrip().endswith("<|im_start|>assistant")
    assert "<start_of_turn>" not in text


def _last_logits(llm: IkLlamaLLM):
    import numpy as np

    ptr = llm.C.llama_get_logits_ith(llm._ctx.ctx, -1)
    return np.ctypeslib.as_array(ptr, shape=(len(llm._candidates),)).copy()


def test_prefix_reuse_reads_only_the_new_tokens_and_changes_nothing(smol):
    """A reused prefix is exactly a prompt evaluated in two batches: same logits, bit for bit, as a fresh
    context that evaluates the same tokens split at the same place (a different split changes float rounding)."""
    messages, _ = build_messages("number", context=CONTEXT, question="What were net sales in 2021?")
    first = smol.chat(messages, max_tokens=20)
    again = smol.chat(messages, max_tokens=20)
    assert again.text == first.text
    assert again.cached_tokens == again.prompt_tokens - 1 and again.prompt_seconds < first.prompt_seconds
    other, _ = build_messages("number", context=CONTEXT, question="What was the headcount in 2021?")
    reused = smol.chat(other, max_tokens=1)
    assert 0 < reused.cached_tokens < reused.prompt_tokens
    tokens = smol._model.tokenize(smol.format_chat(other), add_bos=False, special=True)
    smol._evaluate(tokens)
    after_reuse = _last_logits(smol)
    fresh = IkLlamaLLM(embedded_model("smollm2-135m"), n_ctx=4096)
    fresh._evaluate(tokens[:reused.cached_tokens])
    fresh._decode(tokens[reused.cached_tokens:], reused.cached_tokens)
    assert (after_reuse == _last_logits(fresh)).all()


def test_a_prompt_longer_than_the_context_is_an_error_not_an_answer():
    llm = IkLlamaLLM(embedded_model("smollm2-135m"), n_ctx=512)
    with pytest.raises(ValueError, match="exceeds the context"):
        llm.chat([{"role": "user", "content": "word " * 2000}], max_tokens=50)


def test_install_check_passes_on_the_pinned_wheel_and_refuses_a_changed_file(tmp_path, monkeypatch):
    verify_ik_install()
    pins = json.loads(llm_embedded.PINS_FILE.read_text())
    for wheel in pins["wheels"].values():
        wheel["files"]["ik_llama_cpp/lib/libllama.so"] = "0" * 64
    bad = tmp_path / "pins.json"
    bad.write_text(json.dumps(pins))
    monkeypatch.setattr(llm_embedded, "PINS_FILE", bad)
    with pytest.raises(BackendMissing, match="refusing to load"):
        verify_ik_install()


def test_backend_choice_fails_with_what_to_install(monkeypatch):
    assert resolve_backend("auto") == "ik"
    with pytest.raises(BackendMissing, match="unknown LLM backend"):
        resolve_backend("vllm")
    monkeypatch.setattr(llm_embedded, "installed_backends", lambda: [])
    with pytest.raises(BackendMissing, match="pip install"):
        resolve_backend("auto")
    monkeypatch.setenv("RAG_ASSETS_LLM_BACKEND", "llama-cpp-python")
    with pytest.raises(BackendMissing, match="not installed"):
        resolve_backend("auto")


def test_an_untitled_schema_does_not_shadow_the_root_rule():
    grammar = schema_to_gbnf({"type": "object", "properties": {"a": {"type": "string"}}})
    rules = [line.split(" ::= ")[0] for line in grammar.splitlines()]
    assert rules.count("root") == 1 and "root ::= root\n" not in grammar
