"""A real Celery run: a Redis broker and Postgres on 127.0.0.1 (Debian's packages), Celery worker processes
that import the project from a wheel installed into their own virtualenv (as a worker image would), report
partitions ingested with every step on a worker, both workers used, the runs and materializations in
Postgres, the data root shared; and a worker killed mid-step: its run fails in one line and a re-run
completes on another worker."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

import dagster as dg
import pytest

from rag_assets.storage.paths import PROJECT_ROOT
from rag_assets.tools import local_postgres, local_redis
from rag_assets.tools.celery_run import write_worker_config
from rag_assets.tools.samples import write_samples
from rag_assets_tests.conftest import fresh_clone

pytest.importorskip("dagster_celery", reason="pip install -e '.[deploy]' for the cluster executor")
pytest.importorskip("redis", reason="pip install -e '.[deploy]' (redis-py) for the Redis broker")
if not (local_redis.available() and local_postgres.binaries_available()):
    pytest.skip("redis-server or PostgreSQL not installed (apt install redis-server postgresql; .ci/run does)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def worker_env(tmp_path_factory) -> Path:
    """A virtualenv with the project's wheel (built from a fresh clone of the working tree) and its deploy
    extra: the workers' image. Its ``bin`` holds ``dagster-celery`` and ``celery``."""
    base = tmp_path_factory.mktemp("worker_image")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "wheels"),
                    str(fresh_clone(base / "clone"))], check=True, capture_output=True, timeout=300)
    wheel = next((base / "wheels").glob("rag_assets-*.whl"))
    venv.create(base / "venv", with_pip=True)
    done = subprocess.run([str(base / "venv" / "bin" / "python"), "-m", "pip", "install", "-q",
                           "--disable-pip-version-check", f"{wheel}[deploy]"], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    os.chmod(base, 0o755)
    return base / "venv" / "bin"


@pytest.fixture()
def cluster(worker_env):
    """Postgres, Redis, an instance and a data root with three reports registered as partitions."""
    base = Path(tempfile.mkdtemp(prefix="rag_assets_cluster_"))  # outside pytest's root-only folders
    os.chmod(base, 0o755)
    try:
        with local_postgres.local_postgres(base / "pg") as pg, local_redis.local_redis(base / "redis") as url:
            home, pdfs = base / "dagster", base / "data" / "pdfs"
            home.mkdir()
            pdfs.mkdir(parents=True)
            shutil.copy(PROJECT_ROOT / "deploy" / "dagster.postgres.yaml", home / "dagster.yaml")
            first = write_samples(pdfs)[0]
            (pdfs / "northwind_2023.pdf").write_bytes(first.read_bytes() + b"\n% the next year's report\n")
            env = {**os.environ, **pg, "DAGSTER_HOME": str(home), "RAG_ASSETS_HOME": str(base / "data"),
                   "RAG_ASSETS_DEPLOYMENT": "cluster"}
            subprocess.run(["dagster", "instance", "migrate"], env=env, check=True, capture_output=True)
            keys = json.loads(subprocess.run([sys.executable, "-c", REGISTER], env=env, check=True,
                                             capture_output=True, text=True).stdout.splitlines()[-1])
            yield {"base": base, "env": env, "broker": url, "keys": keys, "bin": worker_env,
                   "config": write_worker_config(base / "celery.yaml", url)}
    finally:
        shutil.rmtree(base, ignore_errors=True)


REGISTER = """
import dagster as dg, json
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.orchestration.resources import ReportStore
found = ReportStore().scan_inbox()
with dg.DagsterInstance.get() as instance:
    instance.add_dynamic_partitions(reports_partitions.name, [r.partition for r in found])
print(json.dumps(sorted(r.partition for r in found)))
"""


def _worker_env(c: dict) -> dict:
    """The workers' environment: the image's ``bin`` first, nothing that points into the checkout."""
    env = {k: v for k, v in c["env"].items() if k != "PYTHONPATH"}
    return {**env, "PATH": f"{c['bin']}{os.pathsep}{env.get('PATH', '')}"}


def _worker(c: dict, name: str) -> subprocess.Popen:
    """A worker from the image, started outside the checkout, one step at a time."""
    return subprocess.Popen([str(c["bin"] / "dagster-celery"), "worker", "start", "-A", "dagster_celery.app", "-y",
                             str(c["config"]), "-n", name, "--", "--concurrency=1"], env=_worker_env(c),
                            cwd=c["base"], start_new_session=True,
                            stdout=open(c["base"] / f"{name}.log", "w"), stderr=subprocess.STDOUT)


def _descendants(pid: int) -> set[int]:
    """``pid`` and every process under it (from /proc)."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = {pid}, [pid]
    while frontier:
        kids = [p for p, parent in parents.items() if parent in frontier and p not in found]
        found |= set(kids)
        frontier = kids
    return found


def _run(c: dict, *keys: str, lost_after: float | None = None) -> list[subprocess.Popen]:
    extra = ["--lost-after", str(lost_after)] if lost_after is not None else []
    return [subprocess.Popen([sys.executable, "-m", "rag_assets.tools.celery_run", c["broker"], k, *extra],
                             env=c["env"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            for k in keys]


def _outcome(proc: subprocess.Popen) -> dict:
    out, _ = proc.communicate(timeout=900)
    return json.loads(out.strip().splitlines()[-1])


def _stop(workers: list[subprocess.Popen]) -> None:
    for w in workers:
        if w.poll() is None:
            os.killpg(w.pid, signal.SIGTERM)
    for w in workers:
        w.wait(timeout=60)


def test_three_partitions_run_their_steps_on_two_celery_workers(cluster, monkeypatch):
    c = cluster
    for k in ("DAGSTER_HOME", "DAGSTER_PG_URL"):
        monkeypatch.setenv(k, c["env"][k])
    where = subprocess.run([str(c["bin"] / "python"), "-c", "import rag_assets; print(rag_assets.__file__)"],
                           env=_worker_env(c), cwd=c["base"], capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(c["bin"].parent)), where  # the workers run the wheel, not the checkout
    workers = [_worker(c, "w1"), _worker(c, "w2")]
    try:
        time.sleep(3)
        t0 = time.perf_counter()
        outcomes = [_outcome(p) for p in _run(c, *c["keys"])]
        seconds = time.perf_counter() - t0
        pools = {name: _descendants(w.pid) for name, w in zip(("w1", "w2"), workers)}
    finally:
        _stop(workers)
    assert [o["success"] for o in outcomes] == [True, True, True], outcomes
    with dg.DagsterInstance.get() as instance:  # Postgres: the runs, their steps, the materializations
        steps = [(e.step_key, e.dagster_event.pid) for o in outcomes
                 for e in instance.all_logs(o["run_id"], of_type=dg.DagsterEventType.STEP_START)]
        materialized = set(instance.get_materialized_partitions(dg.AssetKey("bm25_index")))
    ran_on = {name: sorted(step for step, pid in steps if pid in pids) for name, pids in pools.items()}
    print(f"\n{len(steps)} steps of 3 runs in {seconds:.1f} s: " + "; ".join(f"{n}: {len(s)} steps" for n, s in
                                                                         ran_on.items()))
    assert len(steps) == 3 * 10 and all(ran_on.values()), ran_on  # 7 assets + 3 checks per run, both workers
    assert sum(len(s) for s in ran_on.values()) == len(steps)  # every step on a worker, none in the driver
    assert materialized == set(c["keys"])
    reports = c["base"] / "data" / "reports"
    assert len([d for d in reports.iterdir() if (d / "chunks.parquet").exists()]) == 3  # one shared data root


def _step_events(instance, run_id: str) -> dict[str, list[str]]:
    """Step key -> the kinds of step event the run recorded for it, in order."""
    kinds = (dg.DagsterEventType.STEP_START, dg.DagsterEventType.STEP_SUCCESS, dg.DagsterEventType.STEP_FAILURE)
    found: dict[str, list[str]] = {}
    for e in instance.all_logs(run_id, of_type=set(kinds)):
        found.setdefault(e.step_key, []).append(e.dagster_event.event_type_value)
    return found


def _first_running_step(instance, seconds: float = 300) -> tuple[str, str]:
    """Wait for the first run to start a step and return (run id, step key) while it is still running."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for record in instance.get_run_records(limit=1):
            running = [k for k, kinds in _step_events(instance, record.dagster_run.run_id).items()
                       if kinds == ["STEP_START"]]
            if running:
                return record.dagster_run.run_id, running[0]
        time.sleep(0.1)
    raise AssertionError("no step started")


def test_a_worker_killed_mid_step_fails_its_run_in_one_line_and_a_rerun_completes(cluster, monkeypatch):
    c = cluster
    for k in ("DAGSTER_HOME", "DAGSTER_PG_URL"):
        monkeypatch.setenv(k, c["env"][k])
    key = c["keys"][0]
    doomed = _worker(c, "doomed")
    survivor = None
    try:
        time.sleep(3)
        (driver,) = _run(c, key, lost_after=5)
        with dg.DagsterInstance.get() as instance:
            run_id, step = _first_running_step(instance)
            os.killpg(doomed.pid, signal.SIGKILL)  # the worker and its pool, mid-step, as an OOM kill would
            t0 = time.perf_counter()
            outcome = _outcome(driver)
            ended_after = time.perf_counter() - t0
            run = instance.get_run_by_id(run_id)
            failure = next(iter(instance.all_logs(run_id, of_type=dg.DagsterEventType.RUN_FAILURE)))
            killed = _step_events(instance, run_id)[step]
        print(f"\nworker killed during {step}; the run failed {ended_after:.1f} s later")
        assert outcome == {"partition": key, "run_id": run_id, "success": False}
        assert run.status == dg.DagsterRunStatus.FAILURE and ended_after < 60
        assert killed == ["STEP_START"], killed  # it was killed mid-step, not between steps
        reason = str(failure.dagster_event.event_specific_data)
        print(reason.splitlines()[0][:300])
        assert f"[{step}]: rag_assets.orchestration.celery_watch.WorkerLost: worker doomed@" in reason, reason

        survivor = _worker(c, "survivor")
        time.sleep(3)
        (rerun,) = _run(c, key)
        again = _outcome(rerun)
    finally:
        _stop([w for w in (doomed, survivor) if w is not None])
    assert again["success"], again
    with dg.DagsterInstance.get() as instance:
        assert key in instance.get_materialized_partitions(dg.AssetKey("bm25_index"))
