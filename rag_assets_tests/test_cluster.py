"""A real Celery run: a Redis broker and Postgres on 127.0.0.1 (Debian's packages), two Celery worker processes,
three report partitions ingested with every step on a worker, both workers used, the runs and
materializations in Postgres, the data root shared. (Not yet covered: a worker killed mid-run. Measured: the
run's orchestrating process then waits for the lost task and ignores SIGINT and SIGTERM; see the closing
notes.)"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dagster as dg
import pytest

from rag_assets.storage.paths import PROJECT_ROOT
from rag_assets.tools import local_postgres, local_redis
from rag_assets.tools.celery_run import write_worker_config
from rag_assets.tools.samples import write_samples

pytest.importorskip("dagster_celery", reason="pip install -e '.[deploy]' for the cluster executor")
pytest.importorskip("redis", reason="pip install -e '.[deploy]' (redis-py) for the Redis broker")
if not (local_redis.available() and local_postgres.binaries_available()):
    pytest.skip("redis-server or PostgreSQL not installed (apt install redis-server postgresql; .ci/run does)",
                allow_module_level=True)


@pytest.fixture()
def cluster():
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
            yield {"base": base, "env": env, "broker": url, "keys": keys,
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


def _worker(c: dict, name: str) -> subprocess.Popen:
    return subprocess.Popen(["dagster-celery", "worker", "start", "-A", "dagster_celery.app", "-y", str(c["config"]),
                             "-n", name, "--", "--concurrency=1"], env=c["env"], start_new_session=True,
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


def _run(c: dict, *keys: str) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-m", "rag_assets.tools.celery_run", c["broker"], k], env=c["env"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for k in keys]


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
