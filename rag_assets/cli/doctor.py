"""`rag-assets doctor`: check every report's files against each other and against its PDF, clear what killed
writers left behind, and (with ``--repair``) rebuild what is broken through the ingestion job."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rag_assets.ingest.verify import check_partition_files
from rag_assets.orchestration.instance import ensure_dagster_home
from rag_assets.storage.atomic import json_problem
from rag_assets.storage.catalog import ReportSource, file_sha1


@dataclass
class Finding:
    sha1: str
    company: str
    problems: list[str] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)
    status: str = "ok"
    partition: str = ""
    stale: list[str] = field(default_factory=list)  # assets Dagster marks stale (settings or code changed)


def examine(src: ReportSource, paths, apply: bool = False) -> Finding:
    """One report: leftovers cleared (``apply``; else only listed), then its PDF, its files and their
    agreement checked."""
    found = Finding(src.sha1, src.company_name, partition=src.partition)
    if src.superseded_by:
        found.status = f"superseded by {src.superseded_by[:12]} (not routed to)"
        return found
    if not paths.dir.exists():
        found.status = "not ingested"
        return found
    damaged = json_problem(paths.manifest)
    if damaged and not apply:  # reading it would move it aside: doctor without --repair only reads
        found.problems.append(f"its manifest {paths.manifest} is damaged ({damaged}): `rag-assets doctor --repair` "
                              "moves it aside and rebuilds the report")
        found.status = "broken"
        return found
    found.repaired, problems = check_partition_files(paths, apply=apply)
    pdf = Path(src.path)
    if not pdf.exists():
        found.problems.append(f"its PDF {pdf} is gone")
    elif (pdf.stat().st_size, pdf.stat().st_mtime_ns) != (src.size, src.mtime_ns) and file_sha1(pdf) != src.sha1:
        found.problems.append(f"its PDF {pdf} changed since it was ingested: run `rag-assets ingest` on its folder")
    found.problems += [f"{stage}: {problem}" for stage, problem in problems.items()]
    found.status = "broken" if found.problems else "ok"
    return found


def doctor(repair: bool = False) -> int:
    """Examine every catalogued report, print the findings; exit code 0 only if every ingested report is
    consistent (after ``repair``, which rebuilds broken reports through the ingestion job)."""
    from rag_assets.orchestration.definitions import default_resources

    import dagster as dg

    from rag_assets.cli.ingest import mark_orphaned_runs

    ensure_dagster_home()
    for line in mark_orphaned_runs(dg.DagsterInstance.get(), apply=repair):
        print(line)
    resources = default_resources()
    store = resources["store"]
    lineage_ok = check_lineage(store.root / "answers.duckdb", repair) and \
        check_recorded(store.root / "answers.duckdb", sorted((store.root / "answers").glob("*/answers.jsonl")), repair)
    damaged = json_problem(store.catalog_path)
    if damaged and not repair:  # reading it would move it aside: doctor without --repair only reads
        print(f"catalog:  {store.catalog_path} is damaged ({damaged}): `rag-assets doctor --repair` moves it "
              "aside; `rag-assets ingest <folder>` then registers the PDFs again (their files are kept)")
        return 1
    catalog = store.catalog()
    findings = [examine(src, store.paths(sha), apply=repair) for sha, src in sorted(catalog.reports.items())]
    mark_stale(findings, resources)
    _print(findings, store.root)
    broken = [f for f in findings if f.status == "broken"]
    if broken and repair:
        from rag_assets.cli.ingest import materialize_reports

        sources = [catalog.reports[f.sha1] for f in broken if Path(catalog.reports[f.sha1].path).exists()]
        materialize_reports(sources, resources, store, quiet=True)
        findings = [examine(src, store.paths(sha), apply=True) for sha, src in sorted(catalog.reports.items())]
        print("\nafter repair:")
        _print(findings, store.root)
        broken = [f for f in findings if f.status == "broken"]
    elif broken:
        print("\nrun `rag-assets doctor --repair` to rebuild the broken report(s)")
    return 1 if broken or not lineage_ok else 0


def check_lineage(path: Path, repair: bool) -> bool:
    """Whether the lineage database opens (a damaged one is moved aside on ``repair``, and a new one made by
    the next answer); says what it found when it is damaged."""
    from rag_assets.answer.service.lineage import damaged_db, move_damaged_db

    if not damaged_db(path):
        return True
    if repair:
        aside = move_damaged_db(path)
        print(f"lineage:  {path} was no DuckDB database: moved to {aside.name}; the next answer makes a new one")
        return True
    print(f"lineage:  {path} is no DuckDB database (a full disk or an overwrite): `rag-assets doctor --repair` "
          "moves it aside (answering also does)")
    return False


def check_recorded(path: Path, logs: list[Path], repair: bool) -> bool:
    """Whether every answer of the data root's answers folders is in the lineage table; the missing ones (a
    lineage write that failed) are recorded from their logs on ``repair``."""
    from rag_assets.answer.readers.record import AnswerRecord
    from rag_assets.answer.service.lineage import AnswerDB, unrecorded

    missing = unrecorded(path, logs)
    if not missing:
        return True
    if not repair:
        print(f"lineage:  {len(missing)} answer(s) in the answers folders are missing from {path.name} (a lineage "
              "write failed): `rag-assets doctor --repair` records them")
        return False
    db = AnswerDB(path)
    for rec in missing:
        db.insert(rec["run_id"], AnswerRecord(**rec))
    print(f"lineage:  {len(missing)} answer(s) missing from {path.name} recorded from the answer logs")
    return True


def mark_stale(findings: list[Finding], resources: dict) -> None:
    """The assets Dagster marks stale in each consistent report's partition (the markers the UI shows only in a
    partition's own view): what `rag-assets ingest` rebuilds."""
    import dagster as dg

    from rag_assets.orchestration.definitions import build_definitions
    from rag_assets.orchestration.ingest_assets import reports_partitions
    from rag_assets.orchestration.staleness import stale_by_partition

    instance = dg.DagsterInstance.get()
    known = set(instance.get_dynamic_partitions(reports_partitions.name))
    checked = [f for f in findings if f.status == "ok" and f.partition in known]
    stale = stale_by_partition(instance, build_definitions(resources).resolve_asset_graph(),
                               [f.partition for f in checked])
    for f in checked:
        f.stale = stale[f.partition]


def _print(findings: list[Finding], root: Path) -> None:
    orphans = sorted(p.name for p in (root / "reports").glob("*") if p.is_dir()) if (root / "reports").exists() else []
    known = {f.sha1 for f in findings}
    for f in findings:
        print(f"{f.company[:30]:30} {f.partition or f.sha1[:12]}  {f.status}")
        if f.stale:
            print(f"    stale:    {', '.join(f.stale)} (settings or code changed): `rag-assets ingest` rebuilds them")
        for line in f.repaired:
            print(f"    leftover: {line}")
        for line in f.problems:
            print(f"    problem:  {line}")
    for name in orphans:
        if name not in known:
            print(f"{'(not in the catalog)':30} {name[:12]}  orphan folder {root / 'reports' / name}")
    ok = sum(1 for f in findings if f.status == "ok")
    stale = sum(1 for f in findings if f.stale)
    print(f"{len(findings)} report(s): {ok} ok, {sum(1 for f in findings if f.status == 'broken')} broken"
          + (f"; {stale} with stale assets" if stale else ""))
