"""Embedded GGUF models in process: the prebuilt ik_llama.cpp library (default) or llama-cpp-python.

``ik-llama-cpp-python`` ships a manylinux CPU wheel, so it installs in seconds where llama-cpp-python
compiles for ~17 minutes. Its own ``IkLlama.create_chat_completion`` cannot serve the answer path: it
formats every chat with Gemma's template, has no grammar or JSON mode, clears the KV cache on every call
and samples in a Python loop over the whole vocabulary. ``IkLlamaLLM`` therefore drives the package's
shared library directly (ctypes):

- the chat template is the model's own (``llama_chat_apply_template``);
- JSON output is constrained by a GBNF grammar built from the schema (``core/gbnf.py``), checked only when
  the greedy token breaks it (so grammar costs little);
- the KV cache keeps the previous prompt, and a new prompt only evaluates what follows the shared prefix;
- greedy sampling is a numpy argmax over the logits.

The installed package's files are checked against SHA-256 values recorded in ``ik_llama_pins.json``
before the library is loaded.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import json
import logging
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

from rag_assets.llm.clients import LLMClient, LLMResponse, default_threads
from rag_assets.settings import read_settings

log = logging.getLogger(__name__)

BACKENDS = ("ik", "llama-cpp-python")
PINS_FILE = Path(__file__).with_name("ik_llama_pins.json")
INSTALL_HINT = (
    "pip install -e . (installs the pinned prebuilt ik-llama-cpp-python wheel), or see the README "
    "'Embedded LLM' for llama-cpp-python"
)


class BackendMissing(RuntimeError):
    """No usable embedded LLM backend: the message says what to install."""


def installed_backends() -> list[str]:
    found = []
    if importlib.util.find_spec("ik_llama_cpp") is not None:
        found.append("ik")
    if importlib.util.find_spec("llama_cpp") is not None:
        found.append("llama-cpp-python")
    return found


def resolve_backend(name: str = "auto") -> str:
    """The backend to use: ``name``, or ``$RAG_ASSETS_LLM_BACKEND``, or the first installed one."""
    name = name if name != "auto" else read_settings().llm_backend
    found = installed_backends()
    if name == "auto":
        if not found:
            raise BackendMissing(f"no embedded LLM backend is installed: {INSTALL_HINT}")
        return found[0]
    if name not in BACKENDS:
        raise BackendMissing(f"unknown LLM backend {name!r}; choose one of {', '.join(BACKENDS)}")
    if name not in found:
        raise BackendMissing(f"the LLM backend {name!r} is not installed: {INSTALL_HINT}")
    return name


def _installed_tag(dist) -> str:
    wheel = dist.read_text("WHEEL") or ""
    return next((line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")), "")


def verify_ik_install() -> None:
    """Check the installed ik-llama-cpp-python files against the recorded SHA-256 values, before loading."""
    from importlib.metadata import PackageNotFoundError, distribution

    pins = json.loads(PINS_FILE.read_text(encoding="utf-8"))
    try:
        dist = distribution(pins["package"])
    except PackageNotFoundError:
        raise BackendMissing(f"{pins['package']} is not installed: {INSTALL_HINT}") from None
    if dist.version != pins["version"]:
        raise BackendMissing(f"{pins['package']} {dist.version} is installed; the project pins {pins['version']}: "
                             f"{INSTALL_HINT}")
    tag = _installed_tag(dist)
    wheel = pins["wheels"].get(tag)
    if wheel is None:
        raise BackendMissing(f"no recorded SHA-256 for the {pins['package']} wheel {tag!r}; known: "
                             f"{', '.join(pins['wheels'])}")
    base = Path(dist.locate_file(""))
    for rel, expected in wheel["files"].items():
        digest = hashlib.sha256((base / rel).read_bytes()).hexdigest()
        if digest != expected:
            raise BackendMissing(f"{base / rel} has SHA-256 {digest}, expected {expected} (wheel {tag}); "
                                 "refusing to load it: reinstall the pinned wheel")


class _TokenData(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int32), ("logit", ctypes.c_float), ("p", ctypes.c_float)]


class _TokenDataArray(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(_TokenData)), ("size", ctypes.c_size_t), ("selected", ctypes.c_int64),
                ("sorted", ctypes.c_bool)]


class _ChatMessage(ctypes.Structure):
    _fields_ = [("role", ctypes.c_char_p), ("content", ctypes.c_char_p)]


_LOG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
_SILENT = _LOG_CALLBACK(lambda level, text, data: None)


def _bind(lib) -> None:
    """Declare the C functions the ik package does not wrap."""
    sigs = {
        "llama_model_chat_template": ([ctypes.c_void_p, ctypes.c_char_p], ctypes.c_char_p),
        "llama_chat_apply_template": ([ctypes.c_char_p, ctypes.POINTER(_ChatMessage), ctypes.c_size_t,
                                       ctypes.c_bool, ctypes.c_char_p, ctypes.c_int32], ctypes.c_int32),
        "llama_kv_cache_seq_rm": ([ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32], ctypes.c_bool),
        "llama_sampler_init_grammar": ([ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p], ctypes.c_void_p),
        "llama_grammar_sample": ([ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(_TokenDataArray)], None),
        "llama_grammar_accept_token": ([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32], None),
        "llama_grammar_free": ([ctypes.c_void_p], None),
        "llama_log_set": ([_LOG_CALLBACK, ctypes.c_void_p], None),
    }
    for name, (args, res) in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, res


def _has_avx_vnni() -> bool:
    try:
        return "avx_vnni" in Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


class IkLlamaLLM(LLMClient):
    """A GGUF model in process through the prebuilt ik_llama.cpp library (see the module note)."""

    grammar_slows = False  # the grammar is consulted only when the greedy token breaks it

    def __init__(self, model_path: str, n_ctx: int = 8192, n_threads: int | None = None, grammar: bool = True):
        verify_ik_install()
        from ik_llama_cpp import _ctypes_api as C
        from ik_llama_cpp._internals import IkContext, IkModel

        self.C, self.lib = C, C._lib
        _bind(self.lib)
        self.lib.llama_log_set(_SILENT, None)  # the library's load log would flood the terminal
        self.model = os.path.basename(model_path)
        self.n_ctx = n_ctx
        self.use_grammar = grammar
        self._model = IkModel(str(model_path))
        self._ctx = IkContext(self._model, n_ctx=n_ctx, n_threads=n_threads or default_threads(),
                              flash_attn=_has_avx_vnni())
        self._template = self.lib.llama_model_chat_template(self._model.model, None)
        n_vocab = self._model.n_vocab
        self._candidates = np.zeros(n_vocab, dtype=[("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])
        self._candidates["id"] = np.arange(n_vocab, dtype=np.int32)
        self._cached: list[int] = []  # tokens whose keys/values are in the KV cache, in order
        self.lock = threading.Lock()  # one context: one call at a time

    def format_chat(self, messages: list[dict]) -> str:
        """The prompt text for ``messages`` in the model's own chat template."""
        chat = (_ChatMessage * len(messages))(
            *[_ChatMessage(m["role"].encode(), m["content"].encode()) for m in messages])
        size = 2 * sum(len(m["content"].encode()) for m in messages) + 4096
        for _ in range(2):
            buf = ctypes.create_string_buffer(size)
            n = self.lib.llama_chat_apply_template(self._template, chat, len(messages), True, buf, size)
            if n < 0:
                raise RuntimeError(f"{self.model}: its chat template is not supported by llama.cpp")
            if n <= size:
                return buf.raw[:n].decode("utf-8")
            size = n + 1
        raise RuntimeError("chat template output did not fit")

    def _evaluate(self, tokens: list[int]) -> int:
        """Bring the KV cache to ``tokens`` (reusing the shared prefix); returns how many were reused."""
        keep = 0
        for a, b in zip(self._cached, tokens[:-1]):
            if a != b:
                break
            keep += 1
        self.lib.llama_kv_cache_seq_rm(self._ctx.ctx, 0, keep, -1)
        self._cached = tokens[:keep]
        step = self._ctx._n_ubatch
        for start in range(keep, len(tokens), step):
            self._decode(tokens[start:start + step], start, logits_last=start + step >= len(tokens))
        return keep

    def _decode(self, chunk: list[int], pos: int, logits_last: bool = True) -> None:
        from ik_llama_cpp._internals import make_batch_range

        batch = make_batch_range(chunk, pos_start=pos, logits_last=logits_last)
        try:
            if self._ctx.decode(batch) != 0:
                self._cached = []
                raise RuntimeError(f"llama_decode failed at position {pos}")
        finally:
            self.C.llama_batch_free(batch)
        self._cached.extend(chunk)

    def _last_logits(self) -> np.ndarray:
        """The logits after the last evaluated token (a view into llama.cpp's buffer)."""
        return np.ctypeslib.as_array(self.C.llama_get_logits_ith(self._ctx.ctx, -1), shape=(len(self._candidates),))

    def _pick(self, grammar) -> int:
        logits = self._last_logits()
        token = int(np.argmax(logits))
        if not grammar:
            return token
        one = (_TokenData * 1)(_TokenData(token, float(logits[token]), 0.0))
        self.lib.llama_grammar_sample(grammar, self._ctx.ctx, ctypes.byref(_TokenDataArray(one, 1, -1, False)))
        if np.isfinite(one[0].logit):
            return token
        cand = self._candidates
        cand["logit"] = logits
        cand["p"] = 0.0
        arr = _TokenDataArray(cand.ctypes.data_as(ctypes.POINTER(_TokenData)), len(cand), -1, False)
        self.lib.llama_grammar_sample(grammar, self._ctx.ctx, ctypes.byref(arr))
        return int(np.argmax(cand["logit"]))

    def _grammar(self, schema: dict | None):
        if schema is None or not self.use_grammar:
            return None
        from rag_assets.llm.gbnf import schema_to_gbnf
        from rag_assets.llm.clients import grammar_schema

        grammar = self.lib.llama_sampler_init_grammar(self._model.vocab, schema_to_gbnf(grammar_schema(schema)).encode(),
                                                      b"root")
        if not grammar:
            raise RuntimeError("llama.cpp rejected the grammar built from the schema")
        return grammar

    def chat(self, messages: list[dict], schema: dict | None = None, max_tokens: int = 800) -> LLMResponse:
        with self.lock:
            t0 = time.perf_counter()
            tokens = self._model.tokenize(self.format_chat(messages), add_bos=False, special=True)
            if len(tokens) + max_tokens > self.n_ctx:
                raise ValueError(f"prompt of {len(tokens)} tokens + {max_tokens} to write exceeds the context "
                                 f"of {self.n_ctx} tokens")
            reused = self._evaluate(tokens)
            t1 = time.perf_counter()
            grammar = self._grammar(schema)
            out: list[int] = []
            ended = False
            try:
                for _ in range(max_tokens):
                    token = self._pick(grammar)
                    if self.C.llama_token_is_eog(self._model.model, token):
                        ended = True
                        break
                    if grammar:
                        self.lib.llama_grammar_accept_token(grammar, self._ctx.ctx, token)
                    out.append(token)
                    self._decode([token], len(self._cached))
            finally:
                if grammar:
                    self.lib.llama_grammar_free(grammar)
            t2 = time.perf_counter()
        return LLMResponse(text=self._model.detokenize(out).strip(), model=self.model, prompt_tokens=len(tokens),
                           completion_tokens=len(out), seconds=t2 - t0, mode="grammar" if grammar else "text",
                           prompt_seconds=t1 - t0, cached_tokens=reused, truncated=not ended)

    def choice_logprobs(self, messages: list[dict], choices: list[str]) -> dict[str, float]:
        """Log-probability of each choice's first token as the answer's first token (one forward pass over the
        prompt, whose shared prefix with the previous call is reused from the KV cache; nothing is generated)."""
        with self.lock:
            tokens = self._model.tokenize(self.format_chat(messages), add_bos=False, special=True)
            if len(tokens) + 1 > self.n_ctx:
                raise ValueError(f"prompt of {len(tokens)} tokens exceeds the context of {self.n_ctx} tokens")
            self._evaluate(tokens)
            logits = self._last_logits().astype(np.float64)
        top = logits.max()
        log_z = top + np.log(np.exp(logits - top).sum())
        out = {}
        for choice in choices:
            first = self._model.tokenize(choice, add_bos=False, special=False)[:1]
            out[choice] = float(logits[first[0]] - log_z) if first else float("-inf")
        return out


def embedded_llm(model_path: str, backend: str = "auto", n_ctx: int = 8192, n_threads: int | None = None):
    """An in-process LLM for a GGUF file on the chosen (or first installed) backend."""
    backend = resolve_backend(backend)
    other = {"ik": "llama_cpp", "llama-cpp-python": "ik_llama_cpp"}[backend]
    if other in sys.modules:  # two llama.cpp libraries in one process crash (measured: a segfault)
        raise BackendMissing(f"the {backend} backend cannot load in a process that already loaded {other}: "
                             "use one embedded backend per process")
    if backend == "ik":
        return IkLlamaLLM(model_path, n_ctx=n_ctx, n_threads=n_threads)
    from rag_assets.llm.clients import LlamaCppLLM

    return LlamaCppLLM(model_path, n_ctx=n_ctx, n_threads=n_threads)
