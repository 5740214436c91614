"""One line for a fault of the storage under a command (a full disk, a read-only or forbidden folder), instead of
the traceback of whichever library hit it first (SQLite under Dagster, DuckDB, Parquet, a plain write)."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

REASONS = {errno.ENOSPC: "no space left on the disk", errno.EDQUOT: "the disk quota is used up",
           errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
           errno.EPERM: "operation not permitted"}
ADVICE = {errno.ENOSPC: "free some space and run again (nothing half-written is kept)",
          errno.EDQUOT: "free some space and run again (nothing half-written is kept)",
          errno.EROFS: "use a writable data root (RAG_ASSETS_HOME) or output path",
          errno.EACCES: "fix the folder's permissions or use another data root (RAG_ASSETS_HOME)",
          errno.EPERM: "fix the folder's permissions or use another data root (RAG_ASSETS_HOME)"}
# what SQLite (Dagster's storage) and DuckDB say when the disk under them fails, without an errno
DATABASE_SAYS = ("database or disk is full", "disk i/o error", "attempt to write a readonly database",
                 "no space left on device", "read-only file system", "unable to open database file")
LOW_SPACE = 64 << 20  # bytes: below this, a database error is taken for a full disk


def _chain(exc: BaseException):
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def _existing(path: Path) -> Path | None:
    """``path``, or its nearest folder that exists (what a write there would land on)."""
    return next((folder for folder in [path, *path.parents] if folder.exists()), None)


def _read_only(path: Path) -> bool:
    """The file system holding ``path`` (or its nearest existing folder) is mounted read-only."""
    folder = _existing(path)
    return folder is not None and bool(os.statvfs(folder).f_flag & os.ST_RDONLY)


def _free(path: Path) -> int | None:
    folder = _existing(path)
    return shutil.disk_usage(folder).free if folder is not None else None


def storage_fault(exc: BaseException, where: list[Path]) -> str | None:
    """The one-line message for ``exc`` if it comes from the storage (``where``: the folders the command
    writes, to name the one that is full), else None."""
    for err in _chain(exc):
        if isinstance(err, OSError) and err.errno in REASONS:
            path = err.filename or next((str(p) for p in where), "")
            return f"{REASONS[err.errno]}: {path}; {ADVICE[err.errno]}"
    if any(any(s in str(err).lower() for s in DATABASE_SAYS) for err in _chain(exc)):
        read_only = [p for p in where if _read_only(Path(p))]
        if read_only:  # SQLite says 'unable to open database file' on a read-only mount
            return f"{REASONS[errno.EROFS]}: {read_only[0]}; {ADVICE[errno.EROFS]}"
        full = [p for p in where if (_free(p) or 0) < LOW_SPACE]
        if full:
            return f"{REASONS[errno.ENOSPC]}: {full[0]} ({(_free(full[0]) or 0) >> 20} MiB free); " + ADVICE[errno.ENOSPC]
        return f"a database under {', '.join(map(str, where))} could not be written ({str(exc).splitlines()[0][:200]})"
    return None
