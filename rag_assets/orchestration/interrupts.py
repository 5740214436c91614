"""Signals that must not get lost inside a run.

Dagster's step handler raises ``DagsterExecutionInterruptedError`` from the signal handler. When the signal
lands while Python runs a garbage-collection callback (SQLAlchemy's weakref finalizers do, during every
event write), Python prints "Exception ignored in ..." and drops the exception: the run went on to its end
and `rag-assets ingest` exited 0. A stage therefore latches each signal and raises it again at its next
progress step and when it ends.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

import dagster as dg

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class SignalLatch:
    """Remembers the signal received; ``check`` raises the run's interruption once one was."""

    def __init__(self):
        self.signo: int | None = None

    def check(self) -> None:
        if self.signo is not None:
            raise dg.DagsterExecutionInterruptedError()


@contextmanager
def latched_signals():
    """A ``SignalLatch`` fed by SIGINT and SIGTERM while the block runs; each signal still goes on to the
    handler in place (Dagster's, which raises at once where it can)."""
    latch = SignalLatch()
    if threading.current_thread() is not threading.main_thread():
        yield latch
        return
    previous = {s: signal.getsignal(s) for s in SIGNALS}

    def handler(signo, frame):
        latch.signo = signo
        before = previous[signo]
        if callable(before):
            before(signo, frame)
        elif before != signal.SIG_IGN:
            raise KeyboardInterrupt

    for s in SIGNALS:
        signal.signal(s, handler)
    try:
        yield latch
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
