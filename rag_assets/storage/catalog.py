"""The report catalog: which PDFs exist, their SHA-1s, partition keys and company names.

A report's data lives under its SHA-1; its Dagster partition key is one a person can read and type
(``storage.keys``), made when the PDF is first registered and kept from then on (a later edit of subset.csv does
not move the partition)."""

from __future__ import annotations

import csv
import hashlib
import io
import logging
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from rag_assets.storage.atomic import read_json, write_json
from rag_assets.storage.keys import kept_key, key_year, readable, report_key
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
    superseded_by: str | None = None  # the sha1 of the bytes now at ``path`` (this report is no longer routed to)
    doc_type: str | None = None  # subset.csv's optional filing columns (answer.filings reads them)
    doc_period: str | None = None
    doc_name: str | None = None
    aliases: str | None = None  # other names of the company, ';'-separated
    key: str | None = None  # the partition key (None: registered before keys were readable; see ``partition``)
    former_keys: tuple[str, ...] = ()  # keys this report's partition had before (an older key format)

    @property
    def partition(self) -> str:
        """The report's partition key: readable, or the SHA-1 for a report registered before."""
        return self.key or self.sha1

    def filing_row(self) -> dict:
        """The subset.csv columns that describe the filing."""
        return {"doc_type": self.doc_type, "doc_period": self.doc_period, "doc_name": self.doc_name,
                "aliases": self.aliases}

    def to_dict(self) -> dict:
        return asdict(self)


class SourceChangedError(RuntimeError):
    """A report's PDF no longer has the bytes its partition key (SHA-1) was made from."""


def check_source(sha1: str, path: Path) -> None:
    """Raise ``SourceChangedError`` if the PDF at ``path`` is not the one registered as ``sha1``."""
    now = file_sha1(path)
    if now != sha1:
        raise SourceChangedError(
            f"{path} changed since it was registered as report {sha1[:12]} (its bytes are now {now[:12]}); this "
            "partition is superseded: run `rag-assets ingest` on its folder (or the sensor) to ingest the new file"
        )


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
    bad or repeated sha1, an empty company name, a name over two lines (an unclosed quote that merged rows) or a
    row with more fields than the header (an unquoted comma) is an ``InputFileError`` naming the line."""
    csv_path = Path(csv_path)
    if not csv_path.exists() and not required:
        return {}
    reader = csv.DictReader(io.StringIO(read_text(csv_path, "subset file"), newline=""), strict=True)
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
        if row.get(None):
            raise InputFileError(f"{where}: {len(header) + len(row[None])} fields where the header has "
                                 f"{len(header)} (a comma inside a name needs quotes)")
        broken = [k for k, v in row.items() if k and isinstance(v, str) and re.search(r"[\r\n]", v)]
        if broken:
            raise InputFileError(f"{where}: {broken[0]} runs over several lines (an unclosed quote merged rows)")
        rows[sha], lines[sha] = row, reader.line_num
    return rows


def name_from_filename(path: Path) -> str:
    """A readable report name from its file name (used when subset.csv has no row); control characters (a
    newline in a file name) become spaces."""
    name = re.sub(r"[\s_\-\x00-\x1f\x7f]+", " ", Path(path).stem).strip()
    return name or printable(Path(path).name)


def printable(text: str) -> str:
    """``text`` with control characters escaped (``\\n``), for one-line output."""
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: repr(m.group())[1:-1], text)


def _warn_shared_names(reports: dict[str, "ReportSource"], new: set[str]) -> None:
    """Several current reports under one company name are all searched by a question that names the company
    (routing takes every report of the company): said when a new report joins such a group, so that a mistaken
    name is noticed (and not again at every scan)."""
    by_name: dict[str, list] = {}
    for src in reports.values():
        by_name.setdefault(src.company_name.casefold(), []).append(src)
    for group in by_name.values():
        if len(group) > 1 and any(s.sha1 in new for s in group):
            group = sorted(group, key=lambda s: s.path)
            files = ", ".join(printable(Path(s.path).name) for s in group)
            log.warning("%d reports are named %r (%s): a question naming it searches all of them",
                        len(group), group[0].company_name, files)


REBUILT = {"what": "list of reports", "then": "`rag-assets ingest <folder>` registers the PDFs again; their files are kept"}


def _entries(path: Path, data: dict) -> dict[str, ReportSource]:
    """The catalog's reports; an entry that does not describe a report is left out, said in one warning."""
    out, bad = {}, []
    reports = data.get("reports")
    for sha, entry in (reports if isinstance(reports, dict) else {}).items():
        try:
            out[sha] = ReportSource(**entry)
        except TypeError:  # not a mapping, or fields that are not a report's
            bad.append(str(sha)[:12])
    if bad:
        log.warning("%s: %d entr%s that describe no report left out (%s); `rag-assets ingest <folder>` registers "
                    "the PDFs again", path, len(bad), "y" if len(bad) == 1 else "ies", ", ".join(bad))
    return out


def _hash_cache(data: dict) -> dict[str, list]:
    cache = data.get("hash_cache")
    return {k: v for k, v in cache.items() if isinstance(v, list) and len(v) == 3} if isinstance(cache, dict) else {}


def _former(*groups) -> tuple[str, ...]:
    """Former keys of a report, each once, in the order first seen (an empty key is none)."""
    return tuple(dict.fromkeys(k for group in groups for k in group if k))


class Catalog:
    """Persistent map sha1 -> ReportSource, with a hash cache so unchanged files are not re-read."""

    def __init__(self, path: Path):
        self.path = Path(path)
        data = read_json(self.path, default={}, **REBUILT)
        self.reports: dict[str, ReportSource] = _entries(self.path, data)
        self._hash_cache: dict[str, list] = _hash_cache(data)
        self._scanned: set[str] = set()  # reports this object's scans found current at their path

    def save(self) -> None:
        """Merge into the file on disk under a lock: concurrent scans (two ingest commands, the sensor) add to
        the catalog, never overwrite each other's reports."""
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            on_disk = read_json(self.path, default={}, **REBUILT)
            reports = self._merged(_entries(self.path, on_disk))
            self._hash_cache = {**_hash_cache(on_disk), **self._hash_cache}
            write_json(self.path, {"reports": {k: reports[k].to_dict() for k in sorted(reports)},
                                   "hash_cache": self._hash_cache})
            self.reports = reports

    def _merged(self, on_disk: dict[str, ReportSource]) -> dict[str, ReportSource]:
        """On-disk entries updated with ours; a report another process marked superseded stays so unless our
        scan just found it current; what our scan found is the one current report of its path."""
        merged = dict(on_disk)
        for sha, src in self.reports.items():
            theirs = on_disk.get(sha)
            if theirs is None or sha in self._scanned or not theirs.superseded_by:
                merged[sha] = replace(src, key=kept_key(theirs.key, src.key),
                                      former_keys=_former(theirs.former_keys, src.former_keys)) \
                    if theirs is not None else src
        for sha in self._scanned:
            path = merged[sha].path
            for other, src in list(merged.items()):
                if other != sha and src.path == path and src.superseded_by != sha:
                    log.warning("%s changed: report %s is superseded by %s", path, other[:12], sha[:12])
                    merged[other] = replace(src, superseded_by=sha)
        return merged

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
        entries = sorted(p for p in pdf_dir.iterdir() if p.suffix.lower() == ".pdf")
        for pdf in entries:
            if not pdf.is_file():
                log.warning("skipped %s: not a readable file (a folder, a broken link or a link loop)",
                            printable(str(pdf)))
        for pdf in (p for p in entries if p.is_file()):
            sha, size, mtime = self._sha1_cached(pdf)
            if sha in found:
                log.warning("%s has the same content as %s; keeping the first", pdf, found[sha].path)
                continue
            row = subset.get(sha) or self._row_of_path(str(pdf.resolve()))
            company = (row.get("company_name") or "").strip() or name_from_filename(pdf)
            known = self.reports.get(sha)
            found[sha] = ReportSource(
                sha1=sha,
                path=str(pdf.resolve()),
                company_name=company,
                size=size,
                mtime_ns=mtime,
                currency=(row.get("cur") or row.get("currency") or None),
                **{k: (str(row.get(k) or "").strip() or None) for k in ("doc_type", "doc_period", "doc_name",
                                                                     "aliases")},
                key=(known.key if known else None) or report_key(company, key_year(row.get("doc_period"), pdf), sha),
                former_keys=known.former_keys if known else (),
            )
        for sha in sorted(set(subset) - set(found)):
            log.warning("subset row of %s (%s) not used: no PDF in %s has that content", sha[:12],
                        printable(subset[sha].get("company_name") or ""), printable(str(pdf_dir)))
        new = set(found) - set(self.reports)
        self.reports.update(found)
        self._scanned |= set(found)
        _warn_shared_names(self.current(), new)
        return [found[k] for k in sorted(found)]

    def _row_of_path(self, path: str) -> dict:
        """The name and currency of the report last registered at ``path``: a PDF replaced by a new version
        with no subset row of its own keeps its company."""
        for src in self.reports.values():
            if src.path == path and not src.superseded_by:
                return {"company_name": src.company_name, "currency": src.currency, **src.filing_row()}
        return {}

    def current(self) -> dict[str, ReportSource]:
        """The reports not superseded by a newer file at their path: the ones questions are routed to."""
        return {sha: src for sha, src in self.reports.items() if not src.superseded_by}

    def assign_keys(self) -> dict[str, str]:
        """Readable partition keys for the reports registered before keys were, or under an older key format
        (sha1 -> the new key; the old key is kept in ``former_keys``); saved."""
        new = {sha: report_key(src.company_name, key_year(src.doc_period, Path(src.path)), sha)
               for sha, src in self.reports.items() if not readable(src.key)}
        if new:
            self.reports = {sha: replace(src, key=new[sha], former_keys=_former(src.former_keys, [src.key]))
                            if sha in new else src for sha, src in self.reports.items()}
            self.save()
        return new

    def sha1_of(self, partition: str) -> str:
        """The SHA-1 of the report whose partition key is ``partition`` (a SHA-1 itself: an instance made before
        keys were readable)."""
        if partition in self.reports:
            return partition
        found = [sha for sha, src in self.reports.items() if src.key == partition] or \
            [sha for sha, src in self.reports.items() if partition in src.former_keys]  # a link made before
        if not found:
            raise KeyError(f"report partition {partition!r} is not in the catalog {self.path}; put its PDF in the "
                           "inbox and run the sensor or `rag-assets ingest`")
        return found[0]

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
