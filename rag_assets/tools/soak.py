"""Soak test: kill a real `rag-assets ingest` at random moments, re-run it, and check after every re-run that
nothing was lost: every report's chunk, FAISS and BM25 ids agree, no temp file is left, and no Dagster run is
left STARTED. Odd rounds kill a `--force` rebuild of ingested reports; even rounds kill a first build (the data
root and the Dagster instance wiped before it).

    python -m rag_assets.tools.soak --reports 3 --kills 20 [--pdf-dir ../shared/erc/pdfs] [--out DIR]

Prints one line per round and a summary (kills, how many landed mid-run, re-run seconds, failures)."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rag_assets.storage.paths import erc_dir


def _cli(args: list[str], env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def leftovers(root: Path) -> list[str]:
    """Hidden entries under the report folders other than the current version of an index."""
    out = []
    for path in (root / "reports").rglob(".*"):
        name = path.name
        link = path.parent / name[1:].rsplit(".v", 1)[0] if ".v" in name else None
        if link is not None and link.is_symlink() and os.readlink(link) == name:
            continue
        out.append(str(path.relative_to(root)))
    return out


def check(root: Path, dagster_home: Path) -> list[str]:
    """Every problem found: inconsistent reports, leftovers, runs left STARTED."""
    import dagster as dg

    from rag_assets.ingest.verify import verify_report
    from rag_assets.storage.catalog import Catalog
    from rag_assets.storage.paths import ReportPaths

    problems = [f"leftover {p}" for p in leftovers(root)]
    for sha in Catalog(root / "catalog.json").current():
        problems += [f"{sha[:8]} {stage}: {p}" for stage, p in verify_report(ReportPaths(root, sha)).items()]
    with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
        started = [r for r in instance.get_runs() if r.status == dg.DagsterRunStatus.STARTED]
    return problems + [f"run {r.run_id[:8]} left STARTED" for r in started]


def soak(pdfs: list[Path], kills: int, out: Path, seed: int = 0) -> int:
    rng = random.Random(seed)
    inbox = out / "pdfs"
    inbox.mkdir(parents=True, exist_ok=True)
    for p in pdfs:
        shutil.copy(p, inbox / p.name)
    env = {**os.environ, "RAG_ASSETS_HOME": str(out / "data"), "DAGSTER_HOME": str(out / "dagster")}
    t0 = time.perf_counter()
    first = _cli(["ingest", str(inbox)], env)
    first.communicate()
    full = time.perf_counter() - t0
    print(f"first ingest of {len(pdfs)} report(s): {full:.1f}s (exit {first.returncode})", flush=True)
    failures, reruns, mid = 0, [], 0
    for i in range(1, kills + 1):
        first_build = i % 2 == 0
        if first_build:
            for folder in (out / "data", out / "dagster"):
                shutil.rmtree(folder, ignore_errors=True)
        proc = _cli(["ingest", str(inbox)] if first_build else ["ingest", str(inbox), "--force"], env)
        at = rng.uniform(1.0, full)
        try:
            proc.wait(timeout=at)
            ended = True
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            ended, mid = False, mid + 1
        t1 = time.perf_counter()
        rerun = _cli(["ingest", str(inbox)], env)
        _, err = rerun.communicate()
        reruns.append(time.perf_counter() - t1)
        problems = check(out / "data", out / "dagster") + ([f"re-run exit {rerun.returncode}: {err[-300:]}"]
                                                           if rerun.returncode else [])
        failures += bool(problems)
        print(f"round {i:2}: {'first build' if first_build else 'rebuild    '} killed at {at:5.1f}s "
              f"{'(run had ended)' if ended else '          '} re-run "
              f"{reruns[-1]:5.1f}s  {'OK' if not problems else 'PROBLEMS: ' + '; '.join(problems[:5])}", flush=True)
    print(f"\n{kills} kill(s), {mid} mid-run; re-runs {min(reruns):.1f}-{max(reruns):.1f}s "
          f"(mean {sum(reruns) / len(reruns):.1f}s); rounds with problems: {failures}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m rag_assets.tools.soak", description=__doc__.splitlines()[0])
    p.add_argument("--pdf-dir", default=str(erc_dir() / "pdfs"))
    p.add_argument("--reports", type=int, default=3, help="the N smallest PDFs of the folder")
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="scratch folder (default: a new temp folder)")
    args = p.parse_args(argv)
    pdfs = sorted(Path(args.pdf_dir).glob("*.pdf"), key=lambda f: f.stat().st_size)[: args.reports]
    if not pdfs:
        print(f"error: no PDFs in {args.pdf_dir}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="rag_soak_"))
    return soak(pdfs, args.kills, out, args.seed)


if __name__ == "__main__":
    sys.exit(main())
