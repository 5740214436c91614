"""Signals that must not get lost inside a run.

Dagster's step handler raises ``DagsterExecutionInterruptedError`` from the signal handler, wherever Python
happens to be. When that is a garbage-collection callback (SQLAlchemy's weakref finalizers run during every
event write), Python prints "Exception ignored in ..." with a traceback and drops the exception: the run went
on to its end and `rag-assets ingest` exited 0. Inside a stage, SIGINT and SIGTERM are therefore only latched,
and the stage raises the interruption itself at its next progress step and when it ends; a second signal
goes to the handler in place at once.
"""

from __future__ import annotations

import os
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
def signals_handled_by(handler):
    """SIGINT and SIGTERM go to ``handler(signo, frame, previous)`` while the block runs (``previous``: the
    handler that was in place); they are restored after. Off the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in SIGNALS}
    for s in SIGNALS:
        signal.signal(s, lambda signo, frame: handler(signo, frame, previous[signo]))
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


_RECORDED: list[int] = []  # the read ends of the wakeup pipes of the ``signals_recorded`` blocks now running


@contextmanager
def signals_recorded():
    """While the block runs, every SIGINT and SIGTERM the process receives is recorded whatever handler runs
    for it, even when the exception that handler raised was dropped (a signal between two stages, raised inside
    a garbage-collection callback): ``dropped_signal`` then says so. Off the main thread, nothing is recorded."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.set_blocking(w, False)
    previous = signal.set_wakeup_fd(w)
    _RECORDED.append(r)
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        _RECORDED.remove(r)
        os.close(r)
        os.close(w)


def dropped_signal() -> bool:
    """Whether a SIGINT or SIGTERM arrived since the last look (read once; False outside ``signals_recorded``)."""
    got = False
    for r in _RECORDED:
        while True:
            try:
                data = os.read(r, 512)
            except BlockingIOError:
                break
            got = got or any(b in SIGNALS for b in data)
            if not data:
                break
    return got


@contextmanager
def latched_signals():
    """A ``SignalLatch`` fed by SIGINT and SIGTERM while the block runs; a second signal goes on to the
    handler in place (Dagster's, which raises at once). A signal recorded before the block (``signals_recorded``),
    whose interruption was dropped between two stages, interrupts the run here, before the stage starts."""
    if dropped_signal():
        raise dg.DagsterExecutionInterruptedError()
    latch = SignalLatch()

    def handler(signo, frame, before):
        if latch.signo is None:
            latch.signo = signo
        elif callable(before):
            before(signo, frame)
        elif before != signal.SIG_IGN:
            raise KeyboardInterrupt

    with signals_handled_by(handler):
        yield latch
