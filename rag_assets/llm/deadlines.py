"""The deadline of the question being answered: set by ``deadline`` (per thread of a parallel run), checked by
every LLM call before it starts; the OpenAI route also bounds each request and each retry by it."""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar

_DEADLINE: ContextVar[float | None] = ContextVar("llm_deadline", default=None)


class DeadlineExceeded(TimeoutError):
    """The question's time is up: it ends as an error."""


@contextmanager
def deadline(seconds: float | None):
    """Calls made inside must finish within ``seconds`` of now (None: no deadline)."""
    token = _DEADLINE.set(None if seconds is None else time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def time_left() -> float | None:
    """Seconds left before the deadline (None: no deadline); raises ``DeadlineExceeded`` when none are."""
    end = _DEADLINE.get()
    if end is None:
        return None
    left = end - time.monotonic()
    if left <= 0:
        raise DeadlineExceeded("the question's deadline passed (question_deadline_s)")
    return left
