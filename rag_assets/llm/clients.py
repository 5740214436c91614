"""LLM clients: any OpenAI-compatible endpoint (format ladder, retries, rate limit, the question's deadline), or
a GGUF model in process. Structured output over them is ``llm.structured``."""

from __future__ import annotations

import json
import logging
import os
import random
import re
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass

from rag_assets.llm.deadlines import DeadlineExceeded, time_left
from rag_assets.settings import read_settings

log = logging.getLogger(__name__)

@dataclass
class LLMResponse:
    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    mode: str = ""
    prompt_seconds: float = 0.0  # of ``seconds``, the time spent reading the prompt (embedded backends)
    cached_tokens: int = 0  # prompt tokens reused from the previous call's KV cache (embedded backends)
    truncated: bool = False  # generation stopped at max_tokens: the text is cut, never to be parsed as whole


def grammar_schema(schema: dict, max_items: int = 10) -> dict:
    """A copy of ``schema`` that llama.cpp's grammar builder can handle: it expands ``maxLength`` (and large
    ``maxItems``) into nested optional rules and crashes on a few hundred; output length is bounded by
    ``max_tokens`` instead, and the lengths are still enforced when the answer is validated. A small
    ``minLength`` is kept (it is how a required string is made non-empty)."""
    if isinstance(schema, dict):
        out = {}
        for k, v in schema.items():
            if k == "maxLength" or (k == "minLength" and isinstance(v, int) and v > 8):
                continue
            if k == "maxItems" and isinstance(v, int) and v > max_items:
                continue
            out[k] = grammar_schema(v, max_items)
        return out
    if isinstance(schema, list):
        return [grammar_schema(x, max_items) for x in schema]
    return schema


def default_threads() -> int:
    """Threads of an embedded model: ``$RAG_ASSETS_LLM_THREADS``, else every core."""
    return read_settings().llm_threads or os.cpu_count() or 1


class LLMClient(ABC):
    model: str

    @abstractmethod
    def chat(self, messages: list[dict], schema: dict | None = None, max_tokens: int = 800) -> LLMResponse:
        """One chat completion; ``schema`` (a JSON schema) asks for JSON output where the backend can."""


class TokenBudget:
    """A tokens-per-minute bucket shared by threads: ``acquire(n)`` waits until n tokens are available."""

    def __init__(self, tokens_per_minute: int):
        self.capacity = float(tokens_per_minute)
        self.tokens = float(tokens_per_minute)
        self.rate = tokens_per_minute / 60.0
        self.stamp = time.monotonic()
        self.lock = threading.Lock()

    def acquire(self, n: int) -> float:
        n = min(float(n), self.capacity)
        waited = 0.0
        while True:
            with self.lock:
                now = time.monotonic()
                self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
                self.stamp = now
                if self.tokens >= n:
                    self.tokens -= n
                    return waited
                need = (n - self.tokens) / self.rate
            time.sleep(min(need, 5.0))
            waited += min(need, 5.0)


FORMAT_LADDER = ("json_schema", "json_object_schema", "json_object", "text")


class OpenAICompatibleLLM(LLMClient):
    """The official ``openai`` client against any compatible endpoint.

    Structured output steps down a ladder when the server says it does not support a format (an HTTP error
    whose message names the format: ``response_format``, ``json_schema``...): ``json_schema`` (OpenAI's strict
    schema mode), ``json_object`` with the schema attached (llama.cpp's server), plain ``json_object``, then
    free text; the schema is always in the prompt too. The step is kept per request kind (per schema), so one
    kind's rejection does not change another's. Any other error is retried with exponential backoff on
    429/5xx and connection errors, within the question's deadline (``deadline``); a semaphore bounds
    concurrent requests and an optional token budget bounds tokens per minute.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 180.0,
        max_retries: int = 5,
        concurrency: int = 8,
        tokens_per_minute: int = 0,
        start_format: str = "json_schema",
        client=None,
    ):
        if client is None:
            from openai import OpenAI

            key = api_key or read_settings().openai_api_key or ("local" if base_url else None)
            if not key:
                raise RuntimeError("the OpenAI route needs OPENAI_API_KEY (or a base_url of a local server)")
            client = OpenAI(api_key=key, base_url=base_url or None, timeout=timeout, max_retries=0)
        self.client = client
        self.model = model
        self.max_retries = max_retries
        self.semaphore = threading.Semaphore(max(1, concurrency))
        self.budget = TokenBudget(tokens_per_minute) if tokens_per_minute else None
        self.start_level = FORMAT_LADDER.index(start_format)
        self.format_levels: dict[str, int] = {}  # request kind (schema title) -> its step on the ladder
        self.timeout = timeout
        self._lock = threading.Lock()

    @staticmethod
    def _kind(schema: dict | None) -> str:
        return str((schema or {}).get("title") or json.dumps(schema, sort_keys=True)[:200])

    def format_level(self, schema: dict | None) -> int:
        return self.format_levels.get(self._kind(schema), self.start_level)

    def _response_format(self, schema: dict | None) -> dict | None:
        if schema is None:
            return None
        fmt = FORMAT_LADDER[self.format_level(schema)]
        if fmt == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
        if fmt == "json_object_schema":
            return {"type": "json_object", "schema": grammar_schema(schema)}
        if fmt == "json_object":
            return {"type": "json_object"}
        return None

    def _step_down(self, schema: dict, exc: Exception, level: int) -> bool:
        """One step down the ladder for this request kind (once, however many calls saw the rejection)."""
        kind = self._kind(schema)
        with self._lock:
            if self.format_level(schema) == level and level < len(FORMAT_LADDER) - 1:
                self.format_levels[kind] = level + 1
                log.warning("%s rejected %s output for %s (%s); using %s", self.model, FORMAT_LADDER[level], kind,
                            exc, FORMAT_LADDER[level + 1])
            return self.format_level(schema) > level

    def chat(self, messages: list[dict], schema: dict | None = None, max_tokens: int = 800) -> LLMResponse:
        reasoning_model = bool(re.match(r"^(o\d|gpt-5)", self.model))
        est = sum(len(m["content"]) for m in messages) // 4 + max_tokens
        delay = 1.0
        attempt = 0
        with self.semaphore:
            if self.budget:
                self.budget.acquire(est)
            while True:
                level = self.format_level(schema)
                left = time_left()
                kwargs = {"model": self.model, "messages": messages,
                          "timeout": self.timeout if left is None else min(self.timeout, left)}
                if reasoning_model:
                    kwargs["max_completion_tokens"] = max_tokens * 4
                else:
                    kwargs["max_tokens"] = max_tokens
                    kwargs["temperature"] = 0
                rf = self._response_format(schema)
                if rf is not None:
                    kwargs["response_format"] = rf
                t0 = time.perf_counter()
                try:
                    resp = self.client.chat.completions.create(**kwargs)
                except Exception as exc:
                    status = getattr(exc, "status_code", None)
                    if schema is not None and rejects_format(exc, rf) and self._step_down(schema, exc, level):
                        continue
                    retryable = status is None or status == 429 or status >= 500
                    if not retryable or attempt >= self.max_retries:
                        raise
                    attempt += 1
                    wait = delay * (1 + random.random() * 0.25)
                    left = time_left()
                    if left is not None and left <= wait:
                        raise DeadlineExceeded(f"the question's deadline passed after {exc}") from exc
                    log.warning("LLM call failed (%s); retry %d in %.1fs", exc, attempt, wait)
                    time.sleep(wait)
                    delay = min(delay * 2, 60)
                    continue
                usage = getattr(resp, "usage", None)
                return LLMResponse(
                    text=resp.choices[0].message.content or "",
                    model=self.model,
                    prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
                    completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
                    seconds=time.perf_counter() - t0,
                    mode=FORMAT_LADDER[level],
                    truncated=getattr(resp.choices[0], "finish_reason", None) == "length",
                )


FORMAT_WORDS = re.compile(r"response_format|json_schema|json_object|grammar|structured output", re.I)


def rejects_format(exc: Exception, response_format: dict | None) -> bool:
    """The server refused the output format it was asked for: an HTTP error (4xx, or a 5xx from servers such as
    llama.cpp's that answer 500 to an unsupported format) whose message names the format. Anything else is
    an error to retry or to report, never a reason to drop JSON mode."""
    status = getattr(exc, "status_code", None)
    if response_format is None or status is None or not (400 <= status < 600) or status == 429:
        return False
    return bool(FORMAT_WORDS.search(str(exc)))


class LlamaCppLLM(LLMClient):
    """A GGUF model in process through llama-cpp-python, JSON constrained by a grammar built from the schema."""

    # grammar-constrained sampling about halves llama-cpp-python's decoding speed on 2 cores (measured)
    grammar_slows = True

    def __init__(self, model_path: str, n_ctx: int = 8192, n_threads: int | None = None, seed: int = 0):
        try:
            from llama_cpp import Llama
        except ImportError as exc:  # pragma: no cover - depends on optional install
            raise RuntimeError(
                "the embedded LLM needs llama-cpp-python: pip install -e '.[llm]' (compiles ~15 min on 2 cores; "
                "see README), or use an OpenAI-compatible endpoint"
            ) from exc
        self.model = os.path.basename(model_path)
        self.llm = Llama(
            model_path=model_path,
            n_ctx=n_ctx,
            n_threads=n_threads or default_threads(),
            seed=seed,
            verbose=False,
        )
        self.lock = threading.Lock()  # a Llama object is not thread-safe

    def chat(self, messages: list[dict], schema: dict | None = None, max_tokens: int = 800) -> LLMResponse:
        rf = {"type": "json_object", "schema": grammar_schema(schema)} if schema is not None else None
        with self.lock:
            self._perf(reset=True)
            t0 = time.perf_counter()
            out = self.llm.create_chat_completion(
                messages=messages, response_format=rf, temperature=0.0, max_tokens=max_tokens
            )
            dt = time.perf_counter() - t0
            prompt_ms, evaluated = self._perf()
        usage = out.get("usage", {})
        prompt_tokens = usage.get("prompt_tokens", 0)
        return LLMResponse(
            text=out["choices"][0]["message"]["content"] or "",
            model=self.model,
            prompt_tokens=prompt_tokens,
            completion_tokens=usage.get("completion_tokens", 0),
            seconds=dt,
            mode="grammar" if rf else "text",
            prompt_seconds=prompt_ms / 1000,
            cached_tokens=max(0, prompt_tokens - evaluated) if evaluated else 0,
            truncated=out["choices"][0].get("finish_reason") == "length",
        )

    def _perf(self, reset: bool = False) -> tuple[float, int]:
        """llama.cpp's own timing of the prompt (ms, tokens evaluated), where the binding exposes it."""
        try:
            import llama_cpp

            ctx = self.llm._ctx.ctx
            if reset:
                llama_cpp.llama_perf_context_reset(ctx)
                return 0.0, 0
            data = llama_cpp.llama_perf_context(ctx)
            return float(data.t_p_eval_ms), int(data.n_p_eval)
        except (AttributeError, ImportError):  # pragma: no cover - older bindings
            return 0.0, 0


