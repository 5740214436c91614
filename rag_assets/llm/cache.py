"""A persistent cache of LLM results used in ingestion, and the cost counter every ingestion LLM call goes
through.

A result is keyed by (task, model, prompt version, input text): re-ingesting a report, or a second report
with the same table, pays nothing. The cache is one SQLite file (``<data_root>/cache/llm_cache.sqlite``):
safe for several processes, every write a transaction, nothing half-written on a crash.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path


def cache_key(task: str, model: str, prompt_version: str, text: str) -> str:
    blob = json.dumps([task, model, prompt_version, text], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def messages_key(task: str, model: str, prompt_version: str, messages: list[dict]) -> str:
    """The key of one request: every message it sends (so the company named in the instruction counts too)."""
    return cache_key(task, model, prompt_version, "\n".join(m["content"] for m in messages))


class LLMCache:
    """Key -> JSON value, in SQLite."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS llm_cache (key TEXT PRIMARY KEY, task TEXT, model TEXT, "
            "prompt_version TEXT, value TEXT NOT NULL, created REAL)"
        )
        self._conn.commit()

    def get(self, key: str):
        with self._lock:
            row = self._conn.execute("SELECT value FROM llm_cache WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value, task: str = "", model: str = "", prompt_version: str = "") -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO llm_cache VALUES (?, ?, ?, ?, ?, ?)",
                (key, task, model, prompt_version, json.dumps(value, ensure_ascii=False), time.time()),
            )
            self._conn.commit()

    def count(self, task: str | None = None) -> int:
        with self._lock:
            if task is None:
                return self._conn.execute("SELECT COUNT(*) FROM llm_cache").fetchone()[0]
            return self._conn.execute("SELECT COUNT(*) FROM llm_cache WHERE task = ?", (task,)).fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._conn.close()


@dataclass
class LLMCost:
    """What one ingestion step spent on the LLM. ``cache_hits`` are items answered from the cache, unpaid."""

    model: str = ""
    prompt_version: str = ""
    items: int = 0
    cache_hits: int = 0
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_seconds: float = 0.0
    failures: int = 0
    salvaged: int = 0  # items whose reply was cut off but kept its complete parts

    def add_calls(self, calls) -> None:
        """Count LLMResponse objects (each one a request to the model)."""
        for c in calls:
            self.calls += 1
            self.prompt_tokens += c.prompt_tokens
            self.completion_tokens += c.completion_tokens
            self.llm_seconds += c.seconds

    def as_metadata(self, prefix: str = "llm_") -> dict:
        out = {}
        for k, v in asdict(self).items():
            name = k if k.startswith("llm_") else prefix + k
            out[name] = round(v, 2) if isinstance(v, float) else v
        return out
