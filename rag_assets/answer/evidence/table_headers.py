"""What the text above a table says of it: its caption (what the table is of: 'Summary combined financial
information for the joint ventures', 'Aeronautics' operating results', 'Net Sales ... Operating Income') and the
months each block of its columns covers ('Three months ended June 30, Six months ended June 30,')."""

from __future__ import annotations

import re
from dataclasses import replace

CAPTION_LINES, CAPTION_CHARS = 3, 200  # a caption is the short lines just above a table, not a paragraph

# what a column header says of the months it covers, in the order the columns print them
DURATION_RE = re.compile(r"\b(?P<n>three|six|nine|twelve|3|6|9|12)[\s-]+months?\b|\b(?P<q>(?:first|second|third|fourth|"
                         r"1st|2nd|3rd|4th)[\s-]+quarter|quarters?\s+ended|Q[1-4])\b|\b(?P<h>(?:first|1st)\s+half|six[\s-]+"
                         r"month|half[\s-]+year|H1)\b|\b(?P<y>(?:fiscal\s+)?years?\s+ended|full[\s-]+year|twelve[\s-]+"
                         r"months)\b", re.I)
MONTH_WORDS = {"three": 3, "six": 6, "nine": 9, "twelve": 12, "3": 3, "6": 6, "9": 9, "12": 12}
HEADER_LINES, HEADER_CHARS = 4, 160  # a column header above a table is one of its last short lines


FOOTNOTE_LINE_RE = re.compile(r"^\s*(?:\(\d{1,2}\)|\d{1,2}\s|\*)")


def table_caption(before: str) -> str:
    """The last lines of text above a table, up to the table before it ('Summary combined financial information
    for the joint ventures ...'): what the table is of. A previous table's rows are not its caption."""
    lines = []
    for line in reversed(before.splitlines()):
        if line.lstrip().startswith("|") or len(lines) == CAPTION_LINES:
            break
        if line.strip() and not FOOTNOTE_LINE_RE.match(line) and len(line.strip()) <= CAPTION_CHARS:
            lines.append(line.strip())  # not a footnote ('(1) Other revenue includes ...'), nor a paragraph
    return " ".join(reversed(lines))


def durations(before: str) -> list[int]:
    """The months each block of a table's columns covers, in order, from the short lines just above it ('Three
    months ended June 30, Six months ended June 30,' -> [3, 6]; 'Q2 % Change' -> [3])."""
    lines = [ln for ln in before.splitlines() if ln.strip()][-HEADER_LINES:]
    out = []
    for line in (ln for ln in lines if len(ln) <= HEADER_CHARS and not ln.lstrip().startswith("|")):
        for m in DURATION_RE.finditer(line):
            out.append(MONTH_WORDS[m.group("n").lower()] if m.group("n") else 3 if m.group("q") else
                       6 if m.group("h") else 12)
    return out


def timed(figs: list, months: list[int]) -> list:
    """``figs`` with the months of their column: one duration is every column's; several are the blocks of
    columns in order, the n-th figure of a year in the n-th block ('2023 2022 | 2023 2022')."""
    if not months:
        return figs
    seen: dict[str, int] = {}
    out = []
    for f in figs:
        k = seen.get(f.period, 0)
        if f.period:
            seen[f.period] = k + 1
        n = months[0] if len(months) == 1 else months[k] if f.period and k < len(months) else 0
        out.append(replace(f, months=n) if n and f.period and not f.percent else f)
    return out


