"""Text files users hand us (questions, gold answers, subset.csv): decoded whatever their encoding, and
rejected with one line that names the file, the line and what is wrong."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
)


class InputFileError(ValueError):
    """A user's input file cannot be used (said in one line: the file, where, what is wrong)."""


def detect_encoding(data: bytes) -> str:
    """The encoding of ``data``: its byte-order mark, else UTF-8 if it decodes, else UTF-16 without a BOM
    (every other byte NUL), else Windows-1252 (a superset of Latin-1's printable characters)."""
    for bom, name in BOMS:
        if data.startswith(bom):
            return name
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    if data[1::2].count(0) > len(data) // 4:
        return "utf-16-le"
    if data[0::2].count(0) > len(data) // 4:
        return "utf-16-be"
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


def read_text(path: Path, what: str = "file", strict: bool = False) -> str:
    """The text of ``path`` in its detected encoding; ``InputFileError`` if it is missing or unreadable. With
    ``strict`` (JSON, which is UTF-8 by its standard) only a byte-order mark's encoding, UTF-16, or UTF-8: a stray
    byte in a UTF-8 file is an error naming its offset, never a silent Windows-1252 reading ('‘N/A’' read as
    'â€˜N/Aâ€™')."""
    path = Path(path)
    if not path.is_file():
        raise InputFileError(f"{what} not found: {path}")
    data = path.read_bytes()
    encoding = detect_encoding(data)
    if strict and encoding in ("cp1252", "latin-1"):
        encoding = "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{path}: not {encoding.upper()}: {exc.reason} at byte offset {exc.start}") from None


def read_json_file(path: Path, what: str = "JSON file"):
    """The parsed JSON of ``path``; ``InputFileError`` naming the line and column of a syntax error, or saying the
    nesting is too deep to read (a file of 100,000 nested lists)."""
    text = read_text(path, what, strict=True)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise InputFileError(f"{path}: its JSON is nested too deeply to read (a {what} is a list of objects)") from None
