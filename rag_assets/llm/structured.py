"""Structured output: ``structured_call`` asks an LLM for JSON matching a Pydantic schema, validates it, keeps
the complete items of an output cut at the token limit, and on failure sends the bad output once to a
schema-repair prompt (the ERC2 winner's "SO reparser") before giving up with an error."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field

from pydantic import BaseModel, ValidationError

from rag_assets.llm.clients import LLMClient, LLMResponse

log = logging.getLogger(__name__)

FENCE_RE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


@dataclass
class StructuredResult:
    value: BaseModel | None
    raw: str
    calls: list[LLMResponse] = field(default_factory=list)
    error: str | None = None
    repaired: bool = False
    cut: bool = False  # the output was cut at the token limit; only its complete items were kept

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def completion_tokens(self) -> int:
        return sum(c.completion_tokens for c in self.calls)

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.calls)


def parse_json_loose(text: str) -> dict:
    """The first JSON object in ``text``: code fences stripped, raw control characters inside strings allowed
    (llama.cpp's grammar lets raw newlines into strings)."""
    if not text:
        raise ValueError("empty output")
    m = FENCE_RE.search(text)
    if m:
        text = m.group(1)
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON object in output")
    decoder = json.JSONDecoder(strict=False)
    obj, _ = decoder.raw_decode(text[start:])
    if not isinstance(obj, dict):
        raise ValueError("output is not a JSON object")
    return obj


def _keep_complete(resp: LLMResponse, schema: type[BaseModel], result: StructuredResult) -> bool:
    """Keep the complete part of a cut output in ``result`` if its ``final_answer`` was written whole before
    the cut and is valid (free-text fields the cut left out are empty); say whether it was kept. An answer cut
    inside (a names list cut after its 27th name) is incomplete and never kept."""
    from rag_assets.llm.salvage import salvage, value_end

    end = value_end(resp.text, "final_answer")
    if end is None:
        return False

    def accept(obj: dict):
        if "final_answer" not in obj:
            raise ValueError("no answer before the cut")
        blanks = {name: [] if "list" in str(field.annotation) else ""
                  for name, field in schema.model_fields.items() if field.is_required() and name != "final_answer"}
        return schema.model_validate({**blanks, **obj})

    kept = salvage(resp.text[:end] + ",", accept)  # the comma: a cut after the answer, whatever followed
    if kept is None:
        return False
    result.value, result.raw, result.cut = kept[0], kept[1], True
    return True


def answer_first(json_schema: dict | None) -> dict | None:
    """``json_schema`` with ``final_answer`` as its first property: a grammar writes properties in order, so the
    answer is written before any free text that could use up the room."""
    if not json_schema or "final_answer" not in json_schema.get("properties", {}):
        return json_schema
    props = json_schema["properties"]
    return {**json_schema, "properties": {"final_answer": props["final_answer"],
                                          **{k: v for k, v in props.items() if k != "final_answer"}}}


def _from_cut_output(llm: LLMClient, messages: list[dict], schema: type[BaseModel], json_schema: dict | None,
                     max_tokens: int, result: StructuredResult) -> StructuredResult:
    """An output cut at the token limit: kept if its answer was written whole before the cut; else one more
    call with twice the room, asking for brief free text and (where a grammar holds the output) writing
    ``final_answer`` first, kept the same way; else (an answer cut twice) an error, never a part of it."""
    from rag_assets.llm.prompts import load_shared

    if _keep_complete(result.calls[-1], schema, result):
        return result
    brief = [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + "\n\n"
                              + load_shared()["brief_rule"].strip()}]
    again = llm.chat(brief, schema=answer_first(json_schema), max_tokens=2 * max_tokens)
    result.calls.append(again)
    result.raw = again.text
    if again.truncated:
        if not _keep_complete(again, schema, result):
            result.error = (f"the answer was cut at the token limit twice ({max_tokens}, then {2 * max_tokens} "
                            "tokens) before it was complete")
        return result
    try:
        result.value = schema.model_validate(parse_json_loose(again.text))
    except (ValueError, TypeError, ValidationError) as exc:
        result.error = f"unparseable after a cut: {type(exc).__name__}: {str(exc)[:300]}"
    return result


def structured_call(
    llm: LLMClient,
    messages: list[dict],
    schema: type[BaseModel],
    max_tokens: int = 800,
    repair: bool = True,
    constrained: bool = True,
) -> StructuredResult:
    """Ask for ``schema``; validate; repair once through the 'repair' prompt; else return the error.
    ``constrained=False`` leaves the output format to the prompt (the schema is in it) and only validates."""
    from rag_assets.llm.prompts import build_messages, schema_text

    json_schema = schema.model_json_schema()
    resp = llm.chat(messages, schema=json_schema if constrained else None, max_tokens=max_tokens)
    result = StructuredResult(value=None, raw=resp.text, calls=[resp])
    if resp.truncated:
        return _from_cut_output(llm, messages, schema, json_schema if constrained else None, max_tokens, result)
    try:
        result.value = schema.model_validate(parse_json_loose(resp.text))
        return result
    except (ValueError, TypeError, ValidationError) as exc:
        error = f"{type(exc).__name__}: {str(exc)[:500]}"
    if not repair:
        result.error = error
        return result
    repair_messages, _ = build_messages(
        "repair", schema=schema_text(schema), bad_output=resp.text[:6000], error=error
    )
    fix = llm.chat(repair_messages, schema=json_schema, max_tokens=max_tokens)
    result.calls.append(fix)
    if fix.truncated and _keep_complete(fix, schema, result):
        result.repaired = True
        return result
    try:
        result.value = schema.model_validate(parse_json_loose(fix.text))
        result.repaired = True
        result.raw = fix.text
    except (ValueError, TypeError, ValidationError) as exc:
        result.error = f"unparseable after repair: {error} / {type(exc).__name__}: {str(exc)[:300]}"
    return result
