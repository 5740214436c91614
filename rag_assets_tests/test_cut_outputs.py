"""Outputs cut at the token limit (issue 24, item 2; issue 40, item 2): never parsed as if whole; an answer
written whole before the cut is kept; an answer cut inside (a names list cut after its 27th name) asks once more
for brief free text with the answer first, and cut again it is an error, never the names it got to."""

from __future__ import annotations

import json

import pytest

from rag_assets.llm.clients import LLMResponse

from rag_assets.llm.structured import structured_call
from rag_assets.llm.prompts import build_messages
from rag_assets.llm.salvage import complete_prefixes, salvage
from rag_assets.llm.schemas import NamesAnswer
from rag_assets_tests.conftest import embedded_llm

PRODUCTS = [f"Model {chr(65 + i % 26)}{i:02d} {w}" for i, w in
            enumerate(["Falcon", "Heron", "Kestrel", "Osprey", "Plover"] * 9)]  # 45 product names
HEAD = '{"step_by_step_analysis": "The page lists the launches.", "reasoning_summary": "Launched products.", ' \
       '"relevant_pages": [4], "evidence_quote": "launched \\"Falcon\\" and others", "final_answer": ['


def test_a_cut_list_keeps_its_complete_items_only():
    whole = HEAD + ", ".join(json.dumps(p) for p in PRODUCTS) + "]}"
    assert complete_prefixes(whole) == [whole]
    cut = whole[: whole.index(PRODUCTS[31]) + 5]  # in the middle of the 32nd name
    value, _ = salvage(cut, NamesAnswer.model_validate)
    assert value.final_answer == PRODUCTS[:31]
    assert salvage(HEAD[:60], NamesAnswer.model_validate) is None, "cut before the answer: nothing to keep"
    assert salvage(HEAD + '"Model A', NamesAnswer.model_validate) is None, "no complete name: not an empty answer"


def test_a_long_list_is_kept_whole():
    value = NamesAnswer.model_validate(json.loads(HEAD + ", ".join(json.dumps(p) for p in PRODUCTS) + "]}"))
    assert value.final_answer == PRODUCTS


class Cut:
    """An LLM endpoint that stops at ``max_tokens`` characters of a scripted output (finish_reason 'length')."""

    def __init__(self, *outputs: str):
        self.outputs, self.calls = list(outputs), []

    def chat(self, messages, schema=None, max_tokens=800):
        self.calls.append({"messages": messages, "max_tokens": max_tokens, "schema": schema})
        text = self.outputs.pop(0)
        return LLMResponse(text=text[:max_tokens], model="cut", truncated=len(text) > max_tokens)


def test_a_cut_before_the_answer_asks_once_more_answer_first():
    long_analysis = '{"step_by_step_analysis": "' + ", ".join(PRODUCTS) + '", "reasoning_summary": "x", '
    brief = HEAD + ", ".join(json.dumps(p) for p in PRODUCTS) + "]}"
    llm = Cut(long_analysis + '"final_answer": []}', brief)
    res = structured_call(llm, [{"role": "user", "content": "q"}], NamesAnswer, max_tokens=800)
    assert res.error is None and res.value.final_answer == PRODUCTS
    assert llm.calls[1]["max_tokens"] == 1600 and "cut off at the length limit" in llm.calls[1]["messages"][-1]["content"]
    assert list(llm.calls[1]["schema"]["properties"])[0] == "final_answer"
    llm = Cut(long_analysis * 3, long_analysis * 3)
    res = structured_call(llm, [{"role": "user", "content": "q"}], NamesAnswer, max_tokens=800)
    assert res.value is None and "cut at the token limit twice" in res.error


def test_a_names_list_cut_twice_is_an_error_not_the_names_it_got_to():
    whole = HEAD + ", ".join(json.dumps(p) for p in PRODUCTS) + "]}"
    cut_at_27 = len(whole[: whole.index(PRODUCTS[27]) + 3])
    retry = ('{"final_answer": ' + json.dumps(PRODUCTS) + ', "step_by_step_analysis": "Launches.", '
             '"reasoning_summary": "Launched products.", "relevant_pages": [4], "evidence_quote": "launched"}')
    llm = Cut(whole, retry)
    res = structured_call(llm, [{"role": "user", "content": "q"}], NamesAnswer, max_tokens=cut_at_27 // 2)
    assert len(llm.calls) == 2, "a list cut inside is not an answer: asked once more"
    assert res.value is None and "cut at the token limit twice" in res.error and not res.cut
    llm = Cut(whole, retry)
    res = structured_call(llm, [{"role": "user", "content": "q"}], NamesAnswer, max_tokens=cut_at_27)
    assert res.error is None and res.value.final_answer == PRODUCTS, "the retry had room for the whole list"


def test_an_answer_written_whole_before_the_cut_is_kept():
    answer_first = '{"final_answer": ' + json.dumps(PRODUCTS[:3]) + ', "step_by_step_analysis": "' + "x" * 900
    llm = Cut(answer_first)
    res = structured_call(llm, [{"role": "user", "content": "q"}], NamesAnswer, max_tokens=400)
    assert len(llm.calls) == 1 and res.cut and res.value.final_answer == PRODUCTS[:3]


@pytest.mark.slow
def test_the_real_model_on_a_page_of_45_products_keeps_complete_names():
    page = ("Page 4\nProduct launches. During the year the company launched the following new products: "
            + "; ".join(PRODUCTS) + ".")
    messages, schema = build_messages("names", context=f"--- page_index 4 ---\n{page}",
                                      question="What are the names of the new products launched by the company?")
    llm = embedded_llm("qwen2.5-coder-1.5b")  # the default model, which wrote every name twice and was cut
    res = structured_call(llm, messages, schema, max_tokens=200)  # far too little room for 45 names
    assert res.calls[0].truncated
    assert res.error is None, res.error
    names = res.value.final_answer
    assert isinstance(names, list) and all(n in PRODUCTS for n in names), (names, res.raw[-300:])
    assert len(names) >= 40, f"{len(names)} of 45 names kept: the retry writes the answer first"
    assert res.calls[1].text.startswith('{"final_answer"')
