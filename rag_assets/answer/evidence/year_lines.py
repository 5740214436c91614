"""The line above a table that names its columns' years: one header line ('2018 2017 2016', 'FISCAL 2021 FISCAL
2020 % CHANGE'), or a header the PDF's text layer printed one column a line ('December 26, 2015' / 'December 27,
2014'; 'FISCAL 2019' / 'FISCAL 2018 (1)' / '% CHANGE' / 'FISCAL 2017'), read back into one line."""

from __future__ import annotations

import re

YEAR_RE = re.compile(r"(?<![\d.,])(?:FY\s?)?((?:19[89]|20[0-4])\d)(?![\d,]|\.\d)")
DATE_LINE_RE = re.compile(r"^\s*(?:[A-Z][a-z]+\.?\s+\d{1,2},?\s+|(?i:fiscal\s+(?:year\s+)?|fy\s?))?((?:19[89]|20[0-4])\d)"
                          r"\b")  # 'December 26, 2015', 'FISCAL 2019', '2018'
DATE_END_RE = re.compile(r"\b[A-Z][a-z]+\.?\s+\d{1,2},?\s+((?:19[89]|20[0-4])\d)\s*$")  # '52 Weeks Ended August 29, 2021'
CHANGE_LINE_RE = re.compile(r"^\s*%?\s*(?:change|variance)\b", re.I)  # '% CHANGE', '% Change excluding currency'
CHANGE_WORD_RE = re.compile(r"\b(?:change|variance)\b", re.I)  # '(decrease) % Change' under '2019 2018'
COLUMN_LINES = 12  # the most lines, blank ones aside, of a header printed one column a line
CHANGE_LINE_CHARS = 80  # a longer line naming a change is a sentence, not a change column's heading


def last_year_line(text: str) -> str:
    """The header line above a table that names its years ('2018 2017 2016'); or, when the header prints one
    date or fiscal year a line, those years joined, with a 'change' for each change column printed between or
    after them ('2019 2018 change change 2017 change change'), as a header line would print them."""
    tail = [ln for ln in text.splitlines()[-8:] if not ln.lstrip().startswith("|")]
    at = max((k for k, ln in enumerate(tail) if len(set(YEAR_RE.findall(ln))) >= 2), default=None)
    if at is not None:  # with the header's lines below it printing a year or a change column: 'FISCAL 2021 FISCAL
        # 2020 % CHANGE' / '... FISCAL 2019'; '2019 2018' / 'Increase/' / '(decrease) % Change'
        return " ".join([tail[at]] + [ln for ln in tail[at + 1:] if YEAR_RE.search(ln) or _change_column(ln)])
    columns: list[str] = []
    for line in [ln for ln in text.splitlines() if ln.strip()][-COLUMN_LINES:]:
        if line.lstrip().startswith("|"):
            columns = []  # a table above: the header is below it
        elif m := DATE_LINE_RE.match(line) or DATE_END_RE.search(line):
            columns.append(m.group(1))
        elif columns and CHANGE_LINE_RE.match(line):
            columns.append("change")
    years = [c for c in columns if c != "change"]
    return " ".join(columns) if len(set(years)) >= 2 else ""


def _change_column(line: str) -> bool:
    """A short header line naming a change column ('(decrease) % Change'), not a sentence."""
    return len(line) <= CHANGE_LINE_CHARS and CHANGE_WORD_RE.search(line) is not None
