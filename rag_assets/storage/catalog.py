"""The report catalog: which PDFs exist, their SHA-1 partition keys and company names."""

from __future__ import annotations

import csv
import hashlib
import io
import logging
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from rag_assets.storage.atomic import read_json, write_json
from rag_assets.storage.textfiles import InputFileError, read_text

log = logging.getLogger(__name__)

SUBSET_FILE = "subset.csv"
SHA1_RE = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class ReportSource:
    """One PDF on disk, keyed by the SHA-1 of its bytes."""

    sha1: str
    path: str
    company_name: str
    size: int
    mtime_ns: int
    currency: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def file_sha1(path: Path, bufsize: int = 1 << 20) -> str:
    """SHA-1 of a file's bytes, streamed."""
    h = hashlib.sha1()
    with open(path, "rb") as fh:
        while block := fh.read(bufsize):
            h.update(block)
    return h.hexdigest()


def read_subset(csv_path: Path, required: bool = False) -> dict[str, dict[str, str]]:
    """Rows of a challenge-style ``subset.csv`` keyed by sha1 (columns ``sha1`` and ``company_name``), in
    whatever encoding it was saved. A missing file is no rows, or (``required``) an error; a bad header, a
    bad or repeated sha1 or an empty company name is an ``InputFileError`` naming the line."""
    csv_path = Path(csv_path)
    if not csv_path.exists() and not required:
        return {}
    reader = csv.DictReader(io.StringIO(read_text(csv_path, "subset file"), newline=""))
    try:
        return _subset_rows(csv_path, reader)
    except csv.Error as exc:
        raise InputFileError(f"{csv_path}: line {reader.line_num}: not valid CSV ({exc})") from None


def _subset_rows(csv_path: Path, reader: csv.DictReader) -> dict[str, dict[str, str]]:
    header = [(f or "").strip() for f in reader.fieldnames or []]
    reader.fieldnames = header
    missing = {"sha1", "company_name"} - set(header)
    if missing:
        raise InputFileError(f"{csv_path}: line 1: missing column(s) {sorted(missing)}; the header has {header}")
    rows, lines = {}, {}
    for row in reader:
        where = f"{csv_path}: line {reader.line_num}"
        sha = (row.get("sha1") or "").strip().lower()
        if not SHA1_RE.fullmatch(sha):
            raise InputFileError(f"{where}: sha1 {sha!r} is not a SHA-1 (40 hexadecimal characters)")
        if sha in lines:
            raise InputFileError(f"{where}: sha1 {sha} is already on line {lines[sha]}")
        if not (row.get("company_name") or "").strip():
            raise InputFileError(f"{where}: empty company_name")
        rows[sha], lines[sha] = row, reader.line_num
    return rows


def name_from_filename(path: Path) -> str:
    """A readable report name from its file name (used when subset.csv has no row)."""
    return Path(path).stem.replace("_", " ").replace("-", " ").strip() or Path(path).name


class Catalog:
    """Persistent map sha1 -> ReportSource, with a hash cache so unchanged files are not re-read."""

    def __init__(self, path: Path):
        self.path = Path(path)
        data = read_json(self.path, default={}) or {}
        self.reports: dict[str, ReportSource] = {
            k: ReportSource(**v) for k, v in data.get("reports", {}).items()
        }
        self._hash_cache: dict[str, list] = data.get("hash_cache", {})

    def save(self) -> None:
        """Merge into the file on disk under a lock: concurrent scans (two ingest commands, the sensor) add to
        the catalog, never overwrite each other's reports."""
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            on_disk = read_json(self.path, default={}) or {}
            reports = {**on_disk.get("reports", {}), **{k: v.to_dict() for k, v in self.reports.items()}}
            self._hash_cache = {**on_disk.get("hash_cache", {}), **self._hash_cache}
            write_json(self.path, {"reports": dict(sorted(reports.items())), "hash_cache": self._hash_cache})
            self.reports = {k: ReportSource(**v) for k, v in reports.items()}

    def _sha1_cached(self, pdf: Path) -> tuple[str, int, int]:
        st = pdf.stat()
        key = str(pdf.resolve())
        hit = self._hash_cache.get(key)
        if hit and hit[1] == st.st_size and hit[2] == st.st_mtime_ns:
            return hit[0], st.st_size, st.st_mtime_ns
        sha = file_sha1(pdf)
        self._hash_cache[key] = [sha, st.st_size, st.st_mtime_ns]
        return sha, st.st_size, st.st_mtime_ns

    def scan(self, pdf_dir: Path, subset_csv: Path | None = None) -> list[ReportSource]:
        """Hash every PDF in ``pdf_dir``, record it, and return the reports found there (sorted by sha1)."""
        pdf_dir = Path(pdf_dir)
        if not pdf_dir.is_dir():
            raise FileNotFoundError(f"PDF folder not found: {pdf_dir}")
        if subset_csv:
            subset = read_subset(subset_csv, required=True)
        else:
            default = pdf_dir / SUBSET_FILE
            subset = read_subset(default if default.exists() else pdf_dir.parent / SUBSET_FILE)
        found: dict[str, ReportSource] = {}
        for pdf in sorted(p for p in pdf_dir.iterdir() if p.suffix.lower() == ".pdf" and p.is_file()):
            sha, size, mtime = self._sha1_cached(pdf)
            row = subset.get(sha, {})
            if sha in found:
                log.warning("%s has the same content as %s; keeping the first", pdf, found[sha].path)
                continue
            found[sha] = ReportSource(
                sha1=sha,
                path=str(pdf.resolve()),
                company_name=(row.get("company_name") or "").strip() or name_from_filename(pdf),
                size=size,
                mtime_ns=mtime,
                currency=(row.get("cur") or row.get("currency") or None),
            )
        self.reports.update(found)
        return [found[k] for k in sorted(found)]

    def get(self, sha1: str) -> ReportSource:
        try:
            src = self.reports[sha1]
        except KeyError:
            raise KeyError(
                f"report {sha1} is not in the catalog {self.path}; put its PDF in the inbox and run the sensor or "
                "`rag-assets ingest`"
            ) from None
        if not Path(src.path).exists():
            raise FileNotFoundError(f"report {sha1}: its PDF {src.path} is gone")
        return src
