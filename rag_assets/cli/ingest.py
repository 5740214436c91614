"""`rag-assets ingest`: register the PDFs of a folder as report partitions and launch the code location's
`ingest_reports` job for every partition that has stale, missing or damaged assets."""

from __future__ import annotations

import logging
import os
import signal
import socket
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from rag_assets.orchestration.instance import ensure_dagster_home
from rag_assets.orchestration.interrupts import dropped_signal, signals_handled_by, signals_recorded
from rag_assets.storage.catalog import printable
from rag_assets.storage.paths import data_root

log = logging.getLogger(__name__)

# CLI options that are ingestion settings: set in the environment, where the code location reads them, so the
# CLI, the UI and the daemon compute the same code versions.


def _step_failures(result) -> list:
    return [ev.step_failure_data for ev in result.all_events
            if ev.event_type_value == "STEP_FAILURE" and ev.step_failure_data]


def _causes(err):
    """An error and the errors that caused it, outermost first."""
    while err is not None:
        yield err
        err = err.cause


def failure_message(result) -> str:
    """The first step failure of a run, in one line."""
    for failure in _step_failures(result):
        user = failure.user_failure_data
        if user is not None and user.description:
            return user.description
        causes = list(_causes(failure.error))
        return causes[-1].message.strip().splitlines()[0] if causes else "failed"
    return "failed"


def pin_root_settings(changes: dict, quiet: bool = False) -> None:
    """Record the data root's index settings at its first ingestion (the environment's, else the defaults) and
    apply the changes given on the command line (None: keep), each said: every process of the root uses them
    from now on (``orchestration.root_settings``)."""
    from rag_assets.orchestration.root_settings import record, recorded, root_of, settings_file
    from rag_assets.settings import ENV_OF, read_settings

    settings = read_settings()
    root = root_of(settings)
    changes = {k: v for k, v in changes.items() if v is not None}
    before = recorded(root)
    if before and not changes:
        return
    after = record(settings.model_copy(update=dict.fromkeys(changes)), root, changes)
    for name in changes:  # the command line's value wins over this process's environment
        os.environ.pop(ENV_OF[name], None)
    said = [f"{k}: {before.get(k)!r} -> {v!r}" for k, v in after.items() if before and before.get(k) != v]
    if not quiet and said:
        print(f"data root settings ({settings_file(root)}): {'; '.join(said)}")


def ingest(pdf_dir: Path, subset_csv: Path | None = None, force: bool = False, quiet: bool = False,
           table_serialization: bool | None = None, chunk_context: str | None = None,
           ingest_model: str | None = None, verbose: bool = False) -> list[dict]:
    """Register every PDF in ``pdf_dir`` as a report partition and run what is missing, stale or damaged.
    Ingestion settings left None come from the environment, as the code location reads them."""
    pdf_dir = Path(pdf_dir).resolve()
    ensure_dagster_home()
    from rag_assets.orchestration.definitions import default_resources

    pin_root_settings({"table_serialization": table_serialization, "chunk_context": chunk_context,
                       "ingest_model": ingest_model}, quiet)
    resources = default_resources(runs_at_once=1)  # one run at a time, in this process: every core
    store = resources["store"].model_copy(update={"inbox": str(pdf_dir),
                                                  "subset_csv": str(Path(subset_csv).resolve()) if subset_csv else ""})
    found = store.scan_inbox()
    if not found:
        print(f"no PDFs in {pdf_dir}")
        return []
    return materialize_reports(found, resources, store, force=force, quiet=quiet, verbose=verbose)


class _StderrToLog:
    """sys.stderr, except Dagster's own failure dumps (an event it could not store, with the SQL and its
    parameters): those go to this module's log at debug level; the run's event log keeps what it can."""

    DAGSTER_DUMPS = ("Exception while writing logger call to event log",)

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        if text.startswith(self.DAGSTER_DUMPS):
            log.debug("%s", text.rstrip())
            return len(text)
        return self.stream.write(text)

    def __getattr__(self, name):
        return getattr(self.stream, name)


@contextmanager
def dagster_stderr_to_log(active: bool = True):
    """Route Dagster's direct writes of failure dumps to stderr into the log while a job runs (``active``)."""
    if not active:
        yield
        return
    import sys

    saved = sys.stderr
    sys.stderr = _StderrToLog(saved)
    try:
        yield
    finally:
        sys.stderr = saved


def _run_report(job, instance, src, todo: list[str], tags: dict, log_level: str) -> dict:
    """One report's ``ingest_reports`` run over the assets ``todo`` (none: up to date), as a summary row."""
    import dagster as dg

    row = {"sha1": src.sha1, "partition": src.partition, "company": src.company_name, "status": "up to date", "seconds": 0.0,
           "assets": len(todo), "interrupted": False}
    if todo:
        t0 = time.perf_counter()
        assets = {dg.AssetKey(k) for k in todo}  # and the job's checks of them (a subset would take all of them)
        checks = {c for c in job.asset_layer.asset_graph.asset_check_keys if c.asset_key in assets}
        result = job.get_subset(asset_selection=assets, asset_check_selection=checks).execute_in_process(
            instance=instance, partition_key=src.partition, raise_on_error=False, tags=tags,
            run_config={"loggers": {"console": {"config": {"log_level": log_level}}}},
        )
        row["seconds"] = round(time.perf_counter() - t0, 1)
        row["status"] = "ok" if result.success else f"FAILED: {failure_message(result)}"
        if was_interrupted(result):
            row["status"], row["interrupted"] = "FAILED: interrupted (run marked failed)", True
    return row


def materialize_reports(found: list, resources: dict, store, force: bool = False, quiet: bool = False,
                        verbose: bool = False) -> list[dict]:
    """Run the ``ingest_reports`` job for each report of ``found`` with stale, missing, damaged or
    inconsistent assets (all of them with ``force``); returns one summary row per report."""
    import dagster as dg
    from tqdm import tqdm

    from rag_assets.ingest.stages import STAGES
    from rag_assets.orchestration.definitions import build_definitions
    from rag_assets.orchestration.monitoring import report_up_to_date
    from rag_assets.orchestration.staleness import assets_to_rebuild

    defs = build_definitions(resources)
    job = defs.resolve_job_def("ingest_reports")
    instance = dg.DagsterInstance.get()
    found = _registered(instance, store, found)
    rows = []
    # the embedder may make other vectors than those indexed (an int8 graph refused, then accepted, here)
    vectors = resources["embedder"].get().model_name if "embedder" in resources else None
    tags = {SOURCE_TAG: "cli", PID_TAG: str(os.getpid()), HOST_TAG: socket.gethostname()}
    log_level = "INFO" if verbose else "CRITICAL"  # the run's own event log keeps every trace
    bar = tqdm(found, desc="reports", unit="report", disable=quiet)
    with stop_on_signals() as stop, live_progress(bar), dagster_stderr_to_log(not verbose):
        try:
            for src in bar:
                paths = store.paths(src.sha1)
                todo = list(STAGES) if force else assets_to_rebuild(instance, defs, paths, src.partition, vectors)
                row = _run_report(job, instance, src, todo, {**tags, "company": src.company_name}, log_level)
                if row.pop("interrupted") or dropped_signal():  # (a signal whose interruption was dropped)
                    stop["signal"] = stop["signal"] or INTERRUPT
                rows.append({**row, **partition_sizes(paths)})
                if stop["signal"]:
                    break
        except KeyboardInterrupt:  # a signal between runs (during a run, Dagster fails the run instead)
            stop["signal"] = stop["signal"] or INTERRUPT
    if any(r["status"] != "up to date" for r in rows):  # the up_to_date checks (not steps of the runs), as now
        report_up_to_date(instance, defs.resolve_asset_graph())
    if not quiet:
        print_summary(rows)
    if stop["signal"]:
        raise Interrupted(stop["signal"], len(found) - len(rows))
    return rows


def _registered(instance, store, found: list) -> list:
    """``found`` with every report a partition of the instance (runs a killed process left are marked failed)."""
    from rag_assets.orchestration.ingest_assets import reports_partitions
    from rag_assets.orchestration.partition_keys import migrate_partition_keys

    for line in mark_orphaned_runs(instance):
        print(line)
    if migrate_partition_keys(instance, store):  # an older instance's partitions: readable keys, not re-ingested
        keys = store.partition_keys()
        found = [replace(r, key=keys.get(r.sha1, r.key)) for r in found]  # scanned before the keys changed
    known = set(instance.get_dynamic_partitions(reports_partitions.name))
    new = [r.partition for r in found if r.partition not in known]
    if new:
        instance.add_dynamic_partitions(reports_partitions.name, new)
    return found


class _BarPostfix(logging.Handler):
    """Shows the latest step of the report in progress ('Acme: OCR pages 37/108') beside the reports bar."""

    def __init__(self, bar, every: float = 0.5):
        super().__init__(logging.DEBUG)
        self.bar, self.every, self.last = bar, every, 0.0

    def emit(self, record: logging.LogRecord) -> None:
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self.bar.set_postfix_str(record.getMessage()[-60:])


@contextmanager
def live_progress(bar):
    """While ingesting, page-level progress (parse, OCR, embedding) appears on the reports bar."""
    from rag_assets.orchestration.ingest_assets import PROGRESS_LOG

    handler, level, propagate = _BarPostfix(bar), PROGRESS_LOG.level, PROGRESS_LOG.propagate
    PROGRESS_LOG.addHandler(handler)
    PROGRESS_LOG.setLevel(logging.DEBUG)
    PROGRESS_LOG.propagate = False
    try:
        yield
    finally:
        PROGRESS_LOG.removeHandler(handler)
        PROGRESS_LOG.setLevel(level)
        PROGRESS_LOG.propagate = propagate


SOURCE_TAG, PID_TAG, HOST_TAG = "rag_assets/source", "rag_assets/pid", "rag_assets/host"
INTERRUPT = -1  # a signal Dagster caught during a run (it handles SIGINT and SIGTERM alike)


class Interrupted(Exception):
    """Ingestion stopped by SIGINT or SIGTERM: the run in progress failed, the reports after it were left."""

    def __init__(self, signo: int, left: int):
        by = signal.Signals(signo).name if signo != INTERRUPT else "SIGINT or SIGTERM"
        super().__init__(f"interrupted by {by}: the report in progress failed (its run is marked failed, nothing "
                         f"half-written), {left} report(s) not started; run again to finish")
        self.signo = signal.SIGINT if signo == INTERRUPT else signo


@contextmanager
def stop_on_signals():
    """SIGINT and SIGTERM raise KeyboardInterrupt (Dagster turns them into a failed run while one runs) and
    are remembered, so the loop stops instead of going on to the next report."""
    state = {"signal": None}

    def handler(signo, frame, previous):
        state["signal"] = signo
        raise KeyboardInterrupt

    with signals_handled_by(handler), signals_recorded():
        yield state


def was_interrupted(result) -> bool:
    """Whether a run failed because a signal interrupted it."""
    return any(err.cls_name in ("DagsterExecutionInterruptedError", "KeyboardInterrupt")
               for failure in _step_failures(result) for err in _causes(failure.error))


def mark_orphaned_runs(instance, apply: bool = True) -> list[str]:
    """Runs this machine's CLI left behind when it was killed (its process is gone): a run left STARTED is
    marked failed, a run created but never started (NOT_STARTED: killed between creating and launching it) is
    marked canceled (``apply=False``: only said)."""
    import dagster as dg

    from rag_assets.storage.atomic import pid_alive

    out = []
    never = dg.DagsterRunStatus.NOT_STARTED
    left = instance.get_runs(filters=dg.RunsFilter(
        statuses=[dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.STARTING, never], tags={SOURCE_TAG: "cli"}))
    for run in left:
        pid = int(run.tags.get(PID_TAG) or 0)
        if not pid or run.tags.get(HOST_TAG) != socket.gethostname() or pid_alive(pid):
            continue
        what, done = ("created but never started", "canceled") if run.status == never else ("left running", "failed")
        if apply and run.status == never:
            instance.report_run_canceled(run, message=f"its process (pid {pid}) is gone: killed before it started")
        elif apply:
            instance.report_run_failed(run, message=f"its process (pid {pid}) is gone: killed while it ran")
        out.append(f"run {run.run_id[:8]} ({run.tags.get('company', '?')}) was {what} by a process that is gone "
                   f"(pid {pid}: killed, or stopped by an error it could not record, such as a full disk): "
                   f"{'marked ' + done if apply else 'doctor --repair marks it ' + done}")
    return out


def partition_sizes(paths) -> dict:
    import pyarrow.parquet as pq

    out = {}
    if paths.chunks.exists():
        out["chunks"] = pq.read_metadata(paths.chunks).num_rows
    if paths.pages.exists():
        out["pages"] = pq.read_metadata(paths.pages).num_rows
    return out


def print_summary(rows: list[dict]) -> None:
    print()
    print(f"{'report':24} {'partition key':40} {'pages':>6} {'chunks':>7} {'sec':>7}  status")
    for r in rows:
        name = f"{printable(r['company'])[:24]:24} {printable(r.get('partition') or r['sha1'])[:40]:40}"
        print(f"{name:65} {r.get('pages', ''):>6} {r.get('chunks', ''):>7} {r['seconds']:>7}  {printable(r['status'])}")
    failed = sum(1 for r in rows if r["status"].startswith("FAILED"))
    print(f"\n{len(rows)} report(s), {failed} failed. Data: {data_root() / 'reports'}")
