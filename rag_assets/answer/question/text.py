"""The question as every stage reads it: one line with single spaces. A question pasted from a PDF or a
spreadsheet keeps its line breaks, tabs, no-break spaces and runs of spaces, which no reading rule expects (a unit
'in  USD  bn' or a definition split over two lines was not read); the answer record keeps the question as asked."""

from __future__ import annotations

import re

SPACES_RE = re.compile(r"\s+")  # any run of whitespace, the no-break space and line breaks included


def as_read(question: str) -> str:
    return SPACES_RE.sub(" ", question).strip()
