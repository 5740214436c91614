"""A scripted LLM for testing the pipeline's own logic at the model boundary (the real models are
exercised in test_llm_real.py)."""

from __future__ import annotations

import json

from rag_assets.llm.clients import LLMClient, LLMResponse


class NeverCalled:
    """A model that must not be asked: Python reads the figure alone."""

    def __getattr__(self, name):
        raise AssertionError(f"the model was asked ({name})")


class ScriptedLLM(LLMClient):
    """Returns the queued outputs in order (dicts become JSON) and records every request."""

    model = "scripted"

    def __init__(self, outputs: list):
        self.outputs = list(outputs)
        self.requests: list[dict] = []

    def chat(self, messages, schema=None, max_tokens=800) -> LLMResponse:
        self.requests.append({"messages": messages, "schema": schema})
        out = self.outputs.pop(0)
        text = json.dumps(out) if isinstance(out, dict) else str(out)
        return LLMResponse(text=text, model=self.model, prompt_tokens=100, completion_tokens=20, seconds=0.01)


def number_answer(value_as_written, scale, final, pages):
    return {"step_by_step_analysis": "found it", "reasoning_summary": "see page", "relevant_pages": pages,
            "value_as_written": value_as_written, "scale": scale, "final_answer": final}
