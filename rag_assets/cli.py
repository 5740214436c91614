"""The ``rag-assets`` command: ingest reports into the project's Dagster instance (and more verbs later)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

from rag_assets.core.paths import PROJECT_ROOT, data_root

log = logging.getLogger("rag_assets")


def ensure_dagster_home() -> Path:
    """Point DAGSTER_HOME at the repository root (where dagster.yaml lives) unless the user set it."""
    home = os.environ.get("DAGSTER_HOME")
    if not home:
        if (PROJECT_ROOT / "dagster.yaml").exists():
            home = str(PROJECT_ROOT)
        else:
            home = str(data_root() / "dagster_home")
        os.environ["DAGSTER_HOME"] = home
    Path(home).mkdir(parents=True, exist_ok=True)
    if Path(home).resolve() == PROJECT_ROOT.resolve():
        # dagster.yaml keeps its storage under data/dagster, relative to the repository root
        os.chdir(PROJECT_ROOT)
    return Path(home)


def _failure_message(result) -> str:
    for ev in result.all_events:
        if ev.event_type_value == "STEP_FAILURE" and ev.step_failure_data:
            err = ev.step_failure_data.error
            user = ev.step_failure_data.user_failure_data
            if user is not None and user.description:
                return user.description
            while err is not None and err.cause is not None:
                err = err.cause
            return err.message.strip() if err else "failed"
    return "failed"


def ingest(pdf_dir: Path, subset_csv: Path | None = None, force: bool = False, quiet: bool = False) -> list[dict]:
    """Register every PDF in ``pdf_dir`` as a report partition and materialize what is missing or stale."""
    pdf_dir = Path(pdf_dir).resolve()
    subset_csv = Path(subset_csv).resolve() if subset_csv else None
    ensure_dagster_home()
    import dagster as dg
    from tqdm import tqdm

    from rag_assets.assets.ingestion import ingestion_assets, ingestion_checks, reports_partitions, stage_fingerprints
    from rag_assets.core.pipeline import stale_stages
    from rag_assets.definitions import default_resources
    from rag_assets.resources import ReportStore
    from rag_assets.sensors import DOWNSTREAM, STAGE_ORDER

    resources = default_resources()
    store = ReportStore(inbox=str(pdf_dir), subset_csv=str(subset_csv) if subset_csv else "")
    resources["store"] = store
    found = store.scan_inbox()
    if not found:
        print(f"no PDFs in {pdf_dir}")
        return []
    instance = dg.DagsterInstance.get()
    known = set(instance.get_dynamic_partitions(reports_partitions.name))
    new = [r.sha1 for r in found if r.sha1 not in known]
    if new:
        instance.add_dynamic_partitions(reports_partitions.name, new)
    expected = stage_fingerprints(store, resources["parser"], resources["embedder"])
    # partitions whose last stages this Dagster instance has never seen materialized run again too
    recorded = set(instance.get_materialized_partitions(dg.AssetKey("faiss_index"))) & set(
        instance.get_materialized_partitions(dg.AssetKey("bm25_index"))
    )
    rows = []
    bar = tqdm(found, desc="reports", unit="report", disable=quiet)
    for src in bar:
        bar.set_postfix_str(src.company_name[:30])
        paths = store.paths(src.sha1)
        stale = STAGE_ORDER if force or src.sha1 not in recorded else stale_stages(paths, expected)
        row = {"sha1": src.sha1, "company": src.company_name, "status": "up to date", "seconds": 0.0}
        if stale:
            keys = sorted({k for s in stale for k in DOWNSTREAM[s]}, key=STAGE_ORDER.index)
            t0 = time.perf_counter()
            result = dg.materialize(
                [*ingestion_assets, *ingestion_checks],
                selection=[dg.AssetKey(k) for k in keys],
                partition_key=src.sha1,
                instance=instance,
                resources=resources,
                raise_on_error=False,
                tags={"rag_assets/source": "cli"},
                run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}},
            )
            row["seconds"] = round(time.perf_counter() - t0, 1)
            row["status"] = "ok" if result.success else f"FAILED: {_failure_message(result)}"
        if paths.chunks.exists():
            import pyarrow.parquet as pq

            meta = pq.read_metadata(paths.chunks)
            row["chunks"] = meta.num_rows
        if paths.pages.exists():
            import pyarrow.parquet as pq

            row["pages"] = pq.read_metadata(paths.pages).num_rows
        rows.append(row)
    if not quiet:
        _print_summary(rows)
    return rows


def _print_summary(rows: list[dict]) -> None:
    print()
    print(f"{'report':44} {'pages':>6} {'chunks':>7} {'sec':>7}  status")
    for r in rows:
        name = f"{r['company'][:30]} {r['sha1'][:8]}"
        print(f"{name:44} {r.get('pages', ''):>6} {r.get('chunks', ''):>7} {r['seconds']:>7}  {r['status']}")
    failed = sum(1 for r in rows if r["status"].startswith("FAILED"))
    print(f"\n{len(rows)} report(s), {failed} failed. Data: {data_root() / 'reports'}")


def cmd_samples(args) -> int:
    from rag_assets.samples import write_samples

    paths = write_samples(Path(args.folder))
    for p in paths:
        print(p)
    return 0


def cmd_ingest(args) -> int:
    pdf_dir = Path(args.pdf_dir) if args.pdf_dir else data_root() / "pdfs"
    if not pdf_dir.is_dir():
        print(f"error: PDF folder not found: {pdf_dir}", file=sys.stderr)
        return 2
    rows = ingest(pdf_dir, Path(args.subset) if args.subset else None, force=args.force)
    return 1 if any(r["status"].startswith("FAILED") for r in rows) else 0


def cmd_quickstart(args) -> int:
    """Generate the sample reports (if the inbox has no PDF), ingest them, and say where to look."""
    from rag_assets.samples import write_samples

    inbox = data_root() / "pdfs"
    inbox.mkdir(parents=True, exist_ok=True)
    if not any(inbox.glob("*.pdf")):
        print(f"writing sample reports into {inbox}")
        write_samples(inbox)
    rows = ingest(inbox)
    home = os.environ["DAGSTER_HOME"]
    print(
        f"""
Results
  report files (Docling JSON, pages, chunks, FAISS, BM25): {data_root() / 'reports'}/<sha1>/
  catalog of PDFs and company names:                     {data_root() / 'catalog.json'}
  Dagster runs and events:                               {home}/data/dagster/

Open the Dagster UI:
  DAGSTER_HOME={home} dagster dev      # then browse http://127.0.0.1:3000
"""
    )
    return 1 if any(r["status"].startswith("FAILED") for r in rows) else 0


def cmd_bench(args) -> int:
    from rag_assets.bench import run_benchmark

    run_benchmark(Path(args.pdf_dir), limit=args.limit, embed=not args.no_embed, embed_limit=args.embed_limit)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rag-assets", description=__doc__)
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("ingest", help="register PDFs as report partitions and materialize their assets")
    s.add_argument("pdf_dir", nargs="?", help="folder of PDFs (default: data/pdfs)")
    s.add_argument("--subset", help="CSV with sha1,company_name columns (default: subset.csv beside the PDFs)")
    s.add_argument("--force", action="store_true", help="re-materialize even up-to-date partitions")
    s.set_defaults(func=cmd_ingest)

    s = sub.add_parser("quickstart", help="write sample reports into data/pdfs (if empty) and ingest them")
    s.set_defaults(func=cmd_quickstart)

    s = sub.add_parser("samples", help="write the synthetic sample reports into a folder")
    s.add_argument("folder")
    s.set_defaults(func=cmd_samples)

    s = sub.add_parser("bench", help="benchmark ingestion stages over a folder of PDFs (no Dagster)")
    s.add_argument("pdf_dir")
    s.add_argument("--limit", type=int, default=0, help="only the first N PDFs")
    s.add_argument("--no-embed", action="store_true", help="skip the embedding stage")
    s.add_argument("--embed-limit", type=int, default=3000, help="embed at most N chunks (0: all)")
    s.set_defaults(func=cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING, format="%(asctime)s %(name)s %(message)s"
    )
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
