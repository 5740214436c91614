"""One LLM call per item, through the ingestion cache: the loop that table statements and chunk contexts
share. A cached result (an empty one too: the same model and prompt would repeat it) is reused and not paid."""

from __future__ import annotations

from typing import Callable, TypeVar

from rag_assets.llm.cache import LLMCache, LLMCost, messages_key

T = TypeVar("T")


def cached_map(
    items: list[T],
    messages_for: Callable[[T], list[dict]],
    ask: Callable[[T, list[dict], LLMCost], object],
    llm,
    cache: LLMCache | None,
    task: str,
    version: str,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list, LLMCost]:
    """For each item, the cached result of its messages, else ``ask(item, messages, cost)`` (which counts its
    calls and failures in ``cost``; ``None``: failed, not cached). Results in item order, with the cost."""
    cost = LLMCost(model=llm.model, prompt_version=version)
    out = []
    for i, item in enumerate(items):
        messages = messages_for(item)
        key = messages_key(task, llm.model, version, messages)
        cost.items += 1
        result = cache.get(key) if cache is not None else None
        if result is not None:
            cost.cache_hits += 1
        else:
            result = ask(item, messages, cost)
            if result is not None and cache is not None:
                cache.put(key, result, task, llm.model, version)
        out.append(result)
        if progress:
            progress(i + 1, len(items))
    return out, cost
