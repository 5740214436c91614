"""UI-vs-CLI time for one report partition: the same PDF ingested by `rag-assets ingest` (the job run in
the CLI's process) and by `dagster dev` (the inbox sensor's run, queued and launched in its own process by
the daemon, as a click on "Materialize" in the UI is). Prints both wall times.

Usage: python -m rag_assets.tools.bench_ui PDF [--timeout 900]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _env(root: Path) -> dict:
    return {**os.environ, "RAG_ASSETS_HOME": str(root / "data"), "DAGSTER_HOME": str(root / "dagster")}


def _inbox(root: Path, pdf: Path) -> Path:
    inbox = root / "data" / "pdfs"
    inbox.mkdir(parents=True)
    shutil.copy(pdf, inbox / pdf.name)
    return inbox


def cli_seconds(pdf: Path) -> float:
    root = Path(tempfile.mkdtemp(prefix="bench_cli_"))
    inbox = _inbox(root, pdf)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rag_assets.cli.main", "ingest", str(inbox)], env=_env(root), check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def ui_seconds(pdf: Path, timeout: float) -> tuple[float, float]:
    """(seconds from `dagster dev` start to the run's end, the run's own start-to-end seconds)."""
    import dagster as dg

    from rag_assets.orchestration.instance import ensure_dagster_home

    root = Path(tempfile.mkdtemp(prefix="bench_ui_"))
    _inbox(root, pdf)
    env = _env(root)
    os.environ.update({k: env[k] for k in ("RAG_ASSETS_HOME", "DAGSTER_HOME")})
    ensure_dagster_home()
    repo = Path(__file__).resolve().parents[2]
    t0 = time.perf_counter()
    dev = subprocess.Popen(["dagster", "dev", "-p", "3999"], cwd=repo, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        with dg.DagsterInstance.get() as instance:
            while time.perf_counter() - t0 < timeout:
                records = instance.get_run_records(dg.RunsFilter(job_name="ingest_reports"))
                done = [r for r in records if r.dagster_run.is_finished]
                if done:
                    r = done[0]
                    assert r.dagster_run.is_success, f"run {r.dagster_run.run_id} failed"
                    return time.perf_counter() - t0, r.end_time - r.start_time
                time.sleep(1)
        raise TimeoutError(f"no finished ingest_reports run after {timeout}s")
    finally:
        os.killpg(dev.pid, signal.SIGTERM)
        dev.wait(60)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("pdf", type=Path)
    ap.add_argument("--timeout", type=float, default=900)
    args = ap.parse_args()
    cli = cli_seconds(args.pdf)
    print(f"CLI  rag-assets ingest: {cli:7.1f} s (process start to exit)", flush=True)
    ui_wall, ui_run = ui_seconds(args.pdf, args.timeout)
    print(f"UI   daemon-launched run: {ui_run:7.1f} s (run start to end); {ui_wall:.1f} s from `dagster dev` start "
          f"(includes the webserver, the daemon, the sensor's 30 s tick)")
    print(f"ratio (run / CLI): {ui_run / cli:.2f}x")


if __name__ == "__main__":
    main()
