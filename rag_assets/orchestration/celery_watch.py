"""The Celery executor with a watchdog for lost workers.

dagster-celery's run waits for each step's task result; a worker killed mid-step (OOM, a lost machine) never
writes one, so the run waited forever and, waiting, ignored SIGINT and SIGTERM (measured). The watchdog learns
which worker took each step (from the worker's own "Executing steps ... in celery worker" event in the run's
log, and from asking the workers every few seconds which tasks they run); a task whose worker has stopped
answering for
``lost_worker_seconds`` is recorded as failed in the result backend (and revoked, so a redelivery is dropped by
the workers that heard it). The run then fails with one line naming the step and the worker, and a re-run
takes the step again on a live worker."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import dagster as dg
from dagster._core.execution.retries import RetryMode
from dagster_celery.core_execution_loop import core_celery_execution_loop
from dagster_celery.executor import CELERY_CONFIG, CeleryExecutor, _submit_task
from dagster_celery.make_app import make_app

POLL_SECONDS = 2.0


class WorkerLost(RuntimeError):
    """A step's worker stopped answering while it ran the step."""


class Watchdog:
    """Which worker runs which submitted task, and which tasks lost their worker."""

    def __init__(self, app, lost_after: float, poll: float = POLL_SECONDS, workers_by_step=lambda: {}):
        self.app, self.lost_after, self.poll = app, lost_after, poll
        self.workers_by_step = workers_by_step  # step key -> the worker that said it took the step
        self._pending: dict[str, object] = {}  # task id -> AsyncResult
        self._step: dict[str, str] = {}  # task id -> step key
        self._worker: dict[str, str] = {}  # task id -> the worker seen running it
        self._silent_since: dict[str, float] = {}  # worker -> when it first failed to answer
        self._lock, self._stop = threading.Lock(), threading.Event()

    def add(self, result, step_key: str) -> None:
        with self._lock:
            self._pending[result.id] = result
            self._step[result.id] = step_key

    def check(self, now: float) -> list[str]:
        """One look at the workers; the task ids declared lost by it."""
        with self._lock:
            pending = {tid: r for tid, r in self._pending.items() if not r.ready()}
            self._pending = pending
        if not pending:
            return []
        active = self.app.control.inspect(timeout=1.0).active() or {}
        if any(tid not in self._worker for tid in pending):
            said = self.workers_by_step()
            self._worker.update({tid: said[self._step[tid]] for tid in pending if self._step[tid] in said})
        for worker, tasks in active.items():
            self._silent_since.pop(worker, None)
            for task in tasks:
                if task.get("id") in pending:
                    self._worker[task["id"]] = worker
        lost = []
        for tid in pending:
            worker = self._worker.get(tid)
            if worker is None or worker in active:
                continue
            since = self._silent_since.setdefault(worker, now)
            if now - since >= self.lost_after:
                lost.append(tid)
                self._fail(tid, worker, now - since)
        return lost

    def _fail(self, tid: str, worker: str, silent: float) -> None:
        self.app.backend.mark_as_failure(
            tid, WorkerLost(f"worker {worker} stopped answering while running this step "
                            f"(silent for {silent:.0f} s; re-run the run to take the step again)"))
        self.app.control.revoke(tid)
        with self._lock:
            self._pending.pop(tid, None)

    def _loop(self) -> None:
        while not self._stop.wait(self.poll):
            try:
                self.check(time.monotonic())
            except Exception:  # noqa: BLE001 - a broker hiccup must not end the watch; the next poll retries
                continue

    @contextmanager
    def running(self):
        thread = threading.Thread(target=self._loop, name="celery-watchdog", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            thread.join(timeout=self.poll + 5)


def workers_by_step(instance, run_id: str) -> dict[str, str]:
    """Step key -> the Celery worker that last reported taking it (dagster-celery's task writes an engine
    event with the worker's name before it runs the step)."""
    found = {}
    for record in instance.all_logs(run_id, of_type=dg.DagsterEventType.ENGINE_EVENT):
        metadata = record.dagster_event.engine_event_data.metadata or {}
        worker = metadata.get("Celery worker")
        if worker is not None and record.step_key:
            found[record.step_key] = getattr(worker, "value", worker)
    return found


class WatchedCeleryExecutor(CeleryExecutor):
    def __init__(self, lost_worker_seconds: float, **kwargs):
        super().__init__(**kwargs)
        self.lost_worker_seconds = lost_worker_seconds

    def execute(self, plan_context, execution_plan):
        instance, run_id = plan_context.instance, plan_context.dagster_run.run_id
        watchdog = Watchdog(make_app(self.app_args()), self.lost_worker_seconds,
                            workers_by_step=lambda: workers_by_step(instance, run_id))

        def submit(app, context, step, *args):
            result = _submit_task(app, context, step, *args)
            watchdog.add(result, step.key)
            return result

        with watchdog.running():
            yield from core_celery_execution_loop(plan_context, execution_plan, step_execution_fn=submit)


def watched_celery_executor(broker: str | None = None) -> dg.ExecutorDefinition:
    """dagster-celery's executor (same run config, same workers) with a watchdog for lost workers; ``broker``
    (also the result backend) is the run config's default where one is given."""
    schema = {**CELERY_CONFIG, "lost_worker_seconds": dg.Field(
        float, default_value=120.0, is_required=False,
        description="A step whose worker has not answered for this long fails the run (the worker was lost).")}
    if broker:
        for field in ("broker", "backend"):
            schema[field] = dg.Field(dg.Noneable(dg.StringSource), is_required=False, default_value=broker,
                                     description=CELERY_CONFIG[field].description)

    @dg.executor(name="celery", config_schema=schema, requirements=dg.multiple_process_executor_requirements())
    def celery_executor(init_context):
        cfg = init_context.executor_config
        return WatchedCeleryExecutor(
            lost_worker_seconds=cfg["lost_worker_seconds"], broker=cfg.get("broker"), backend=cfg.get("backend"),
            config_source=cfg.get("config_source"), include=cfg.get("include"),
            retries=RetryMode.from_config(cfg["retries"]))

    return celery_executor
