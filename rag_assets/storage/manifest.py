"""A partition's manifest: which code version wrote each stage's files, and the hash of those files.

Dagster knows what it materialized; it cannot know whether the files are still there and unchanged (a data
root restored from a backup, a folder deleted by hand, another Dagster instance writing the same root). The
manifest answers that, and only that."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from rag_assets.storage.atomic import read_json, write_json
from rag_assets.storage.paths import ReportPaths


def files_hash(paths: list[Path]) -> str:
    """SHA-1 over the bytes of ``paths`` (folders: every file in them, by relative name); missing: ''."""
    h = hashlib.sha1()
    for path in paths:
        path = Path(path)
        if not path.exists():
            return ""
        files = _visible_files(path) if path.is_dir() else [path]
        for f in files:
            h.update(str(f.relative_to(path) if path.is_dir() else f.name).encode())
            with open(f, "rb") as fh:
                while block := fh.read(1 << 20):
                    h.update(block)
    return h.hexdigest()[:16]


def _visible_files(folder: Path) -> list[Path]:
    """The files under ``folder``, following symlinks (an index folder is a symlink to its current version)
    and skipping hidden entries (versions, temp files of a writer)."""
    out = []
    for base, dirs, files in os.walk(folder, followlinks=True):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        out += [Path(base) / f for f in files if not f.startswith(".")]
    return sorted(out)


def read_manifest(paths: ReportPaths) -> dict:
    """The report's manifest (empty when missing; a damaged one is moved aside, said, and read as empty)."""
    return read_json(paths.manifest, default={}, what="record of its files",
                     then="`rag-assets doctor --repair` rebuilds the report")


def record_output(paths: ReportPaths, stage: str, code_version: str, data_version: str) -> None:
    manifest = read_manifest(paths)
    manifest[stage] = {"code_version": code_version, "data_version": data_version}
    write_json(paths.manifest, manifest)


def changed_outputs(paths: ReportPaths, outputs: dict[str, list[Path]]) -> list[str]:
    """Stages whose files are there but differ from what their recorded materialization wrote (a stage with no
    record, as a benchmark's files, cannot be checked; missing files are the reader's error to report)."""
    manifest = read_manifest(paths)
    recorded = {stage: (manifest.get(stage) or {}).get("data_version") for stage in outputs}
    return [stage for stage, files in outputs.items()
            if recorded[stage] and all(Path(f).exists() for f in files) and files_hash(files) != recorded[stage]]


def damaged_outputs(paths: ReportPaths, outputs: dict[str, list[Path]]) -> list[str]:
    """Stages whose files are missing or differ from what their last materialization recorded."""
    manifest = read_manifest(paths)
    out = []
    for stage, files in outputs.items():
        recorded = (manifest.get(stage) or {}).get("data_version")
        if not recorded or files_hash(files) != recorded:
            out.append(stage)
    return out
