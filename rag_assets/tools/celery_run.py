"""The ingestion job of report partitions run on Celery workers (the `cluster` deployment): this process
orchestrates each run, every step is a task on the broker that any worker takes. The workers and this process
share the Dagster instance (Postgres, ``DAGSTER_HOME``) and the data root (``RAG_ASSETS_HOME``):

    dagster-celery worker start -A dagster_celery.app -y celery.yaml -n w1 -- --concurrency=1   # per machine
    python -m rag_assets.tools.celery_run redis://127.0.0.1:6379/0 KEY [KEY ...]                # one run per key
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml


def celery_config(broker: str) -> dict:
    """The executor's run config (and the workers' ``-y`` file): broker and result backend, one task at a
    time per worker process, a task acknowledged when done (a killed worker's task is not lost)."""
    return {"execution": {"config": {"broker": broker, "backend": broker, "config_source": {
        "worker_prefetch_multiplier": 1, "task_acks_late": True}}}}


def write_worker_config(path: Path, broker: str) -> Path:
    Path(path).write_text(yaml.safe_dump(celery_config(broker)), encoding="utf-8")
    return Path(path)


def run_partition(key: str, broker: str) -> dict:
    """One ``ingest_reports`` run of partition ``key`` with its steps on the workers; its id and outcome."""
    import dagster as dg

    from rag_assets.orchestration.definitions import ingest_reports_job

    with dg.DagsterInstance.get() as instance:
        result = dg.execute_job(dg.reconstructable(ingest_reports_job), instance=instance,
                                run_config=celery_config(broker), tags={"dagster/partition": key},
                                raise_on_error=False)
        return {"partition": key, "run_id": result.run_id, "success": result.success}


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print("usage: python -m rag_assets.tools.celery_run BROKER_URL PARTITION_KEY [...]", file=sys.stderr)
        sys.exit(2)
    outcomes = [run_partition(key, sys.argv[1]) for key in sys.argv[2:]]
    for o in outcomes:
        print(json.dumps(o), flush=True)
    sys.exit(0 if all(o["success"] for o in outcomes) else 1)
