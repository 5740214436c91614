"""The ingestion job of report partitions run on Celery workers (the `cluster` deployment): this process
orchestrates each run, every step is a task on the broker that any worker takes. The workers and this process
share the Dagster instance (Postgres, ``DAGSTER_HOME``) and the data root (``RAG_ASSETS_HOME``):

    dagster-celery worker start -A dagster_celery.app -y celery.yaml -n w1 -- --concurrency=1   # per machine
    python -m rag_assets.tools.celery_run redis://127.0.0.1:6379/0 KEY [KEY ...]                # one run per key

A step whose worker is lost (killed, its machine gone) fails its run after ``--lost-after`` seconds of silence
(``orchestration/celery_watch.py``); re-running the key takes the step again on a live worker.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml


def celery_config(broker: str, lost_worker_seconds: float | None = None) -> dict:
    """The executor's run config (and the workers' ``-y`` file): broker and result backend, one task at a
    time per worker process, a task acknowledged when done; ``lost_worker_seconds`` overrides how long a
    silent worker may hold a step before the run fails."""
    config = {"broker": broker, "backend": broker, "config_source": {
        "worker_prefetch_multiplier": 1, "task_acks_late": True}}
    if lost_worker_seconds is not None:
        config["lost_worker_seconds"] = lost_worker_seconds
    return {"execution": {"config": config}}


def write_worker_config(path: Path, broker: str) -> Path:
    Path(path).write_text(yaml.safe_dump(celery_config(broker)), encoding="utf-8")
    return Path(path)


def run_partition(key: str, broker: str, lost_worker_seconds: float | None = None) -> dict:
    """One ``ingest_reports`` run of partition ``key`` with its steps on the workers; its id and outcome."""
    import dagster as dg

    from rag_assets.orchestration.definitions import ingest_reports_job

    with dg.DagsterInstance.get() as instance:
        result = dg.execute_job(dg.reconstructable(ingest_reports_job), instance=instance,
                                run_config=celery_config(broker, lost_worker_seconds), tags={"dagster/partition": key},
                                raise_on_error=False)
        return {"partition": key, "run_id": result.run_id, "success": result.success}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rag_assets.tools.celery_run",
                                     description="Ingest report partitions with every step on Celery workers.")
    parser.add_argument("broker", help="the broker's URL, e.g. redis://127.0.0.1:6379/0")
    parser.add_argument("keys", nargs="+", metavar="PARTITION_KEY")
    parser.add_argument("--lost-after", type=float, default=None, metavar="SECONDS",
                        help="fail the run when a step's worker has not answered for this long (default 120)")
    args = parser.parse_args(argv)
    outcomes = [run_partition(key, args.broker, args.lost_after) for key in args.keys]
    for o in outcomes:
        print(json.dumps(o), flush=True)
    return 0 if all(o["success"] for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
