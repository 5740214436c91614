"""Partition keys a person reads and types: ``Bluebird Mining Ltd 2022 cff2f6d9`` (the company as printed, the
fiscal year when known, the SHA-1's first eight digits)."""

from __future__ import annotations

import re
from pathlib import Path

from rag_assets.storage.covers import printed_year


def report_key(company: str, year: int | None, sha1: str) -> str:
    """A partition key a person reads and types: the company's name as printed, the fiscal year when known, and
    the SHA-1's first eight digits (``Bluebird Mining Ltd 2022 cff2f6d9``). Characters that Dagster's selection
    syntax or a URL would read as syntax (commas, brackets, slashes, quotes, '...') become spaces."""
    name = " ".join(re.sub(r"[^\w&.'’ -]|_|\.{2,}", " ", company).split())[:60].strip(" .-") or "report"
    return " ".join(p for p in (name, str(year) if year else "", sha1[:8]) if p)


def readable(key: str | None) -> bool:
    """Whether ``key`` is of the current format (an older one is a SHA-1 or a lower-case hyphenated slug)."""
    return bool(key) and " " in key


FILE_YEAR_RE = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")


def key_year(period: str | None, pdf: Path) -> int | None:
    """The fiscal year a key shows: subset.csv's period, else a year in the file's name
    ('bluebird_mining_2022.pdf'), else the year its cover's title or first page names (``covers.printed_year``)."""
    for text in (str(period or ""), Path(pdf).stem):
        m = FILE_YEAR_RE.search(text)
        if m:
            return int(m.group(1))
    return printed_year(Path(pdf))


def kept_key(theirs: str | None, ours: str | None) -> str | None:
    """A report's key once given stays; a readable one replaces one of an older format."""
    if theirs and (readable(theirs) or not readable(ours)):
        return theirs
    return ours or theirs
