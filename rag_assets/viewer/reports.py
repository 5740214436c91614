"""What the evidence viewer knows of the reports on disk: each report's PDF and company from the catalog, and
whether the file at its path still holds the bytes the answers cited (HTTP 410 when not)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable


def catalog_reports(root: Path) -> Callable[[], dict[str, tuple]]:
    """What a viewer over the data root ``root`` knows of its reports: sha1 -> (PDF, company, the report that
    replaced it or None, the PDF's size and modification time when it was ingested), read from the catalog again
    at every call."""
    from rag_assets.storage.catalog import Catalog

    def reports() -> dict[str, tuple]:
        return {sha1: (Path(src.path), src.company_name, src.superseded_by, src.size, src.mtime_ns)
                for sha1, src in Catalog(Path(root) / "catalog.json").reports.items()}

    return reports


class Superseded(LookupError):
    """A report whose PDF was replaced by a new version: its pages are gone (HTTP 410)."""


def current(found: tuple | None, sha1: str, hashed: dict[tuple, str]) -> tuple[Path, str]:
    """(PDF, company) of the report ``sha1`` as ``catalog_reports`` describes it (``found``); ``Superseded`` when
    its PDF was replaced since, re-ingested or not (the file at its path is another's: rendering it would show
    pages the answer never cited). ``hashed``: the SHA-1s computed so far, by (path, size, time)."""
    if found is None:
        raise KeyError(f"no report {sha1} in the catalog")
    if len(found) > 2 and found[2]:
        raise Superseded(f"report {sha1[:12]} of {found[1]}: its PDF was replaced by a new version (report "
                         f"{found[2][:12]}); the pages this answer cited are no longer on disk")
    if len(found) > 4 and not _unchanged(sha1, Path(found[0]), found[3], found[4], hashed):
        raise Superseded(f"report {sha1[:12]} of {found[1]}: its PDF {found[0]} changed since it was ingested "
                         "(not yet re-ingested); the pages this answer cited are no longer on disk")
    return Path(found[0]), found[1]


def _unchanged(sha1: str, path: Path, size: int, mtime_ns: int, hashed: dict[tuple, str]) -> bool:
    """The file at ``path`` still holds the report's bytes: its size and time as catalogued, else (a file only
    touched, or copied back) its SHA-1, computed once per size and time."""
    try:
        st = path.stat()
    except OSError:
        return True  # a missing file is the page's own 404
    if (st.st_size, st.st_mtime_ns) == (size, mtime_ns):
        return True
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in hashed:
        from rag_assets.storage.catalog import file_sha1

        hashed[key] = file_sha1(path)
    return hashed[key] == sha1
