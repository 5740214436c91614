"""`rag-assets ingest`: register the PDFs of a folder as report partitions and launch the code location's
`ingest_reports` job for every partition that has stale, missing or damaged assets."""

from __future__ import annotations

import os
import time
from pathlib import Path

from rag_assets.orchestration.instance import ensure_dagster_home
from rag_assets.storage.paths import data_root

# CLI options that are ingestion settings: set in the environment, where the code location reads them, so the
# CLI, the UI and the daemon compute the same code versions.
SETTING_ENV = {"table_serialization": "RAG_ASSETS_TABLE_SERIALIZATION", "chunk_context": "RAG_ASSETS_CHUNK_CONTEXT",
               "ingest_model": "RAG_ASSETS_INGEST_MODEL"}


def failure_message(result) -> str:
    """The first step failure of a run, in one line."""
    for ev in result.all_events:
        if ev.event_type_value == "STEP_FAILURE" and ev.step_failure_data:
            err = ev.step_failure_data.error
            user = ev.step_failure_data.user_failure_data
            if user is not None and user.description:
                return user.description
            while err is not None and err.cause is not None:
                err = err.cause
            return err.message.strip().splitlines()[0] if err else "failed"
    return "failed"


def apply_settings(table_serialization: bool | None, chunk_context: str | None, ingest_model: str | None) -> None:
    """Put the settings given on the command line into the environment (None: keep what it says)."""
    values = {"table_serialization": None if table_serialization is None else ("1" if table_serialization else ""),
              "chunk_context": chunk_context, "ingest_model": ingest_model}
    for key, env in SETTING_ENV.items():
        if values[key] is not None:
            os.environ[env] = values[key]


def ingest(pdf_dir: Path, subset_csv: Path | None = None, force: bool = False, quiet: bool = False,
           table_serialization: bool | None = None, chunk_context: str | None = None,
           ingest_model: str | None = None) -> list[dict]:
    """Register every PDF in ``pdf_dir`` as a report partition and run what is missing, stale or damaged.
    Ingestion settings left None come from the environment, as the code location reads them."""
    pdf_dir = Path(pdf_dir).resolve()
    ensure_dagster_home()
    apply_settings(table_serialization, chunk_context, ingest_model)
    import dagster as dg
    from tqdm import tqdm

    from rag_assets.ingest.stages import STAGES
    from rag_assets.orchestration.definitions import build_definitions, default_resources
    from rag_assets.orchestration.ingest_assets import reports_partitions
    from rag_assets.orchestration.staleness import assets_to_rebuild

    resources = default_resources()
    store = resources["store"].model_copy(update={"inbox": str(pdf_dir),
                                                  "subset_csv": str(Path(subset_csv).resolve()) if subset_csv else ""})
    found = store.scan_inbox()
    if not found:
        print(f"no PDFs in {pdf_dir}")
        return []
    defs = build_definitions(resources)
    job = defs.resolve_job_def("ingest_reports")
    instance = dg.DagsterInstance.get()
    known = set(instance.get_dynamic_partitions(reports_partitions.name))
    new = [r.sha1 for r in found if r.sha1 not in known]
    if new:
        instance.add_dynamic_partitions(reports_partitions.name, new)
    rows = []
    bar = tqdm(found, desc="reports", unit="report", disable=quiet)
    for src in bar:
        bar.set_postfix_str(src.company_name[:30])
        paths = store.paths(src.sha1)
        todo = list(STAGES) if force else assets_to_rebuild(instance, defs, paths)
        row = {"sha1": src.sha1, "company": src.company_name, "status": "up to date", "seconds": 0.0,
               "assets": len(todo)}
        if todo:
            t0 = time.perf_counter()
            result = job.execute_in_process(
                instance=instance, partition_key=src.sha1, raise_on_error=False,
                asset_selection=[dg.AssetKey(k) for k in todo],
                tags={"company": src.company_name, "rag_assets/source": "cli"},
                run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}},
            )
            row["seconds"] = round(time.perf_counter() - t0, 1)
            row["status"] = "ok" if result.success else f"FAILED: {failure_message(result)}"
        rows.append({**row, **partition_sizes(paths)})
    if not quiet:
        print_summary(rows)
    return rows


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
    print(f"{'report':44} {'pages':>6} {'chunks':>7} {'sec':>7}  status")
    for r in rows:
        name = f"{r['company'][:30]} {r['sha1'][:8]}"
        print(f"{name:44} {r.get('pages', ''):>6} {r.get('chunks', ''):>7} {r['seconds']:>7}  {r['status']}")
    failed = sum(1 for r in rows if r["status"].startswith("FAILED"))
    print(f"\n{len(rows)} report(s), {failed} failed. Data: {data_root() / 'reports'}")
