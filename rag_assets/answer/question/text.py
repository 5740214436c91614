"""The question as every stage reads it: one line with single spaces. A question pasted from a PDF or a
spreadsheet keeps its line breaks, tabs, no-break spaces and runs of spaces, which no reading rule expects (a unit
'in  USD  bn' or a definition split over two lines was not read); the answer record keeps the question as asked.
A plural name's possessive apostrophe ("Commercial Airplanes' operating margin") is dropped, so that the name reads
as a name before its figure, as it does without it."""

from __future__ import annotations

import re

SPACES_RE = re.compile(r"\s+")  # any run of whitespace, the no-break space and line breaks included
PLURAL_POSSESSIVE_RE = re.compile(r"\b([A-Z][\w&-]*s)['’](?=\s)")  # "Commercial Airplanes' margin", "Services' sales"


def as_read(question: str) -> str:
    return PLURAL_POSSESSIVE_RE.sub(r"\1", SPACES_RE.sub(" ", question)).strip()
