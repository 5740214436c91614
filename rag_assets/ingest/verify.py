"""Do a report's files agree with each other? Every stage's output exists, chunk ids are unique, and the
FAISS and BM25 indexes hold exactly the chunk table's ids. A report is current only if this holds."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from rag_assets.index.bm25 import IDS_FILE, PAGES_SUBDIR
from rag_assets.index.vectors import VectorIndex
from rag_assets.ingest.stages import STAGES
from rag_assets.storage.atomic import recover_leftovers
from rag_assets.storage.manifest import damaged_outputs
from rag_assets.storage.paths import ReportPaths


def verify_report(paths: ReportPaths) -> dict[str, str]:
    """Problems found in ``paths``' files, by the stage that must be rebuilt to fix each (empty: consistent)."""
    problems = {}
    for name, stage in STAGES.items():
        missing = [Path(f).name for f in stage.outputs(paths) if not Path(f).exists()]
        if missing:
            problems[name] = f"missing {', '.join(missing)}"
    if "report_chunks" in problems:
        return problems
    try:
        ids = chunk_ids(paths.chunks)
    except Exception as exc:  # an unreadable table is a broken one
        return {**problems, "report_chunks": f"unreadable chunks table ({type(exc).__name__}: {exc})"}
    repeated = [cid for cid, n in Counter(ids).items() if n > 1]
    if repeated:
        problems["report_chunks"] = f"{len(repeated)} repeated chunk id(s), e.g. {repeated[0]}"
    for stage, check in (("bm25_index", bm25_problem), ("faiss_index", faiss_problem)):
        if stage not in problems:
            problem = check(paths, ids)
            if problem:
                problems[stage] = problem
    return problems


def chunk_ids(path: Path) -> list[str]:
    import pyarrow.parquet as pq

    return pq.read_table(path, columns=["chunk_id"]).column("chunk_id").to_pylist()


def _agree(what: str, have: list[str], ids: list[str]) -> str | None:
    if have == ids:
        return None
    extra, lost = len(set(have) - set(ids)), len(set(ids) - set(have))
    return (f"{what} holds {len(have)} chunk ids, the chunk table {len(ids)} ({extra} not in the table, "
            f"{lost} missing{', order differs' if not extra and not lost else ''})")


def bm25_problem(paths: ReportPaths, ids: list[str]) -> str | None:
    """Why the BM25 indexes (chunks, pages) do not hold exactly ``ids``, or None."""
    try:
        have = json.loads((paths.bm25_dir / IDS_FILE).read_text(encoding="utf-8"))["chunk_ids"]
    except (OSError, ValueError, KeyError) as exc:
        return f"unreadable BM25 ids ({type(exc).__name__})"
    problem = _agree("the BM25 index", have, ids)
    if problem:
        return problem
    try:
        pages = json.loads((paths.bm25_dir / PAGES_SUBDIR / IDS_FILE).read_text(encoding="utf-8"))["chunk_ids"]
    except (OSError, ValueError, KeyError) as exc:
        return f"unreadable page BM25 ids ({type(exc).__name__})"
    return "the page BM25 index is empty" if ids and not pages else None


def faiss_problem(paths: ReportPaths, ids: list[str], folders: list[Path] | None = None) -> str | None:
    """Why the FAISS indexes (every model's under faiss/, or ``folders``) do not hold exactly ``ids``, or None."""
    models = folders if folders is not None else [
        d for d in sorted(paths.faiss_dir.iterdir()) if d.is_dir() and not d.name.startswith(".")]
    if not models:
        return "no FAISS index in faiss/"
    for folder in models:
        try:
            have = VectorIndex.load(folder).chunk_ids  # also refuses a vector count that differs from the ids
        except Exception as exc:  # faiss raises RuntimeError on a cut file
            return f"unreadable FAISS index {folder.name} ({type(exc).__name__}: {exc})"
        problem = _agree(f"the FAISS index {folder.name}", have, ids)
        if problem:
            return problem
    return None


def check_partition_files(paths: ReportPaths, apply: bool = True) -> tuple[list[str], dict[str, str]]:
    """Everything the disk can say about a partition, for `ingest` and `doctor` alike: first what killed
    writers left is cleared (returned as lines; ``apply=False`` only says what would be), then the problems
    by stage: outputs that disagree (``verify_report``) and files missing or changed since their
    materialization recorded them."""
    cleared = recover_leftovers(paths.dir, apply=apply)
    problems = verify_report(paths)
    for stage in damaged_outputs(paths, {n: st.outputs(paths) for n, st in STAGES.items()}):
        problems.setdefault(stage, "files changed or missing since they were written")
    return cleared, problems
