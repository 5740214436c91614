"""The question as every stage reads it: one line with single spaces. A question pasted from a PDF or a
spreadsheet keeps its line breaks, tabs, no-break spaces and runs of spaces, which no reading rule expects (a unit
'in  USD  bn' or a definition split over two lines was not read); the answer record keeps the question as asked.
A plural name's possessive apostrophe ("Commercial Airplanes' operating margin") is dropped, so that the name reads
as a name before its figure, as it does without it; a date written in figures is written in words, as filings
print it ('at 6/30/2023' reads as 'at June 30, 2023' in the plan, the ranking and the model's prompt alike); a
'decimal fraction' is a fraction ('net income as a decimal fraction of revenues' is net income over revenues, as a
decimal); a loss written beside the income it may be ('net income (loss) per share', '(loss) earnings') is that
income, as a signed figure is: the words name one line, not two."""

from __future__ import annotations

import re

SPACES_RE = re.compile(r"\s+")  # any run of whitespace, the no-break space and line breaks included
DECIMAL_FRACTION_RE = re.compile(r"\bdecimal\s+fraction\b", re.I)
PLURAL_POSSESSIVE_RE = re.compile(r"\b([A-Z][\w&-]*s)['’](?=\s)")  # "Commercial Airplanes' margin", "Services' sales"
# the loss a signed line's name writes beside its income: 'net income (loss)', 'earnings/(loss)', '(loss) income'
LOSS_BESIDE_RE = re.compile(r"\b(income|earnings|profit)\s*/?\s*\(loss(?:es)?\)|"
                            r"\(loss(?:es)?\)\s*/?\s*(?=(?:income|earnings|profit)\b)", re.I)


# a date in figures, written out as the filings print it: '6/30/2023' (US order), '2023-06-30' -> 'June 30, 2023'
US_DATE_RE = re.compile(r"(?<![\d/.-])(0?[1-9]|1[0-2])/(0?[1-9]|[12]\d|3[01])/((?:19|20)\d\d)(?![\d/])")
ISO_DATE_RE = re.compile(r"(?<![\d/.-])((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?![\d-])")
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")


def dates_in_words(text: str) -> str:
    """``text`` with its dates in figures written out: '6/30/2023' (US order) and '2023-06-30' -> 'June 30, 2023'."""
    text = US_DATE_RE.sub(lambda m: f"{MONTH_NAMES[int(m.group(1)) - 1]} {int(m.group(2))}, {m.group(3)}", text)
    return ISO_DATE_RE.sub(lambda m: f"{MONTH_NAMES[int(m.group(2)) - 1]} {int(m.group(3))}, {m.group(1)}", text)


def as_read(question: str) -> str:
    question = DECIMAL_FRACTION_RE.sub("fraction", SPACES_RE.sub(" ", question))
    question = LOSS_BESIDE_RE.sub(lambda m: m.group(1) or "", question)
    return dates_in_words(PLURAL_POSSESSIVE_RE.sub(r"\1", question).strip())
