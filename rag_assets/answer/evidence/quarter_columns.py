"""Which quarter each column of a table is: a header line naming one quarter of one year a column ('2Q23 1Q23
4Q22'), a row of quarters under a row of years ('2018 2017' / '4th 3rd 2nd 1st ...'), or a row of quarter names
over the years (a 10-K's quarterly data: 'First | Second | Third | Fourth | Year' over '2018 Quarter ... 2018', or
'1ST QUARTER | 2ND QUARTER ...' over '2019 2018 2019 2018 ...', or a year on a line above: '2020 Quarters')."""

from __future__ import annotations

import re
from dataclasses import replace

HEADER_LINES, HEADER_CHARS = 4, 160  # a column header above a table is one of its last short lines


ORDINAL_QUARTER = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
# a column of one quarter of one year: '2Q23', 'Q2 2023', "Q2 FY'23", 'Second Quarter 2023'
QUARTER_COLUMN_RE = re.compile(r"\b(?:(?P<a>[1-4])Q\s?'?(?P<ay>\d{4}|\d{2})|"
                               r"Q(?P<b>[1-4])\s*(?:FY\s?|fiscal\s+)?'?(?P<by>\d{4}|\d{2})|"
                               r"(?P<c>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\s+(?:of\s+)?"
                               r"(?:fiscal\s+)?(?P<cy>\d{4}))\b", re.I)


def quarter_columns(before: str) -> list[tuple[str, int]]:
    """The (year, quarter) of each of a table's first columns when its header names one quarter of one year a
    column ('2Q23 1Q23 4Q22 3Q22 2Q22' -> [('2023', 2), ('2023', 1), ('2022', 4), ...]); [] when no header line
    names two such columns."""
    lines = [ln for ln in before.splitlines() if ln.strip()][-HEADER_LINES:]
    for line in reversed([ln for ln in lines if len(ln) <= HEADER_CHARS and not ln.lstrip().startswith("|")]):
        found = [(_full_year(m.group("ay") or m.group("by") or m.group("cy")),
                  int(m.group("a") or m.group("b") or ORDINAL_QUARTER[m.group("c").lower()]))
                 for m in QUARTER_COLUMN_RE.finditer(line)]
        if len(found) >= 2:
            return found
    return []


_QUARTER_CELL = r"(?P<o>first|second|third|fourth|1st|2nd|3rd|4th)(?:[\s-]+quarter)?|q(?P<q>[1-4])"
QUARTER_CELL_RE = re.compile(rf"(?:{_QUARTER_CELL})", re.I)  # a header cell naming a quarter: 'First', '2ND QUARTER'


def _quarter_of(m: re.Match) -> int:
    """The quarter a cell matched by ``QUARTER_CELL_RE`` (or ``QUARTER_NAME_RE``) names: 1 to 4."""
    return int(m.group("q") or ORDINAL_QUARTER[m.group("o").lower()])


def quarters_under_years(cells: list[str], years: list[str]) -> list[tuple[str, int]]:
    """A header row of quarters under a row of years ('2018 2017' / '4th 3rd 2nd 1st 4th 3rd 2nd 1st'): the
    (year, quarter) of each column, the quarters split evenly among the years in order; [] when the row is
    no such header."""
    named = [c.strip() for c in cells if c.strip()]
    found = [m for m in map(QUARTER_CELL_RE.fullmatch, named) if m]
    if not years or len(found) < 2 or len(found) != len(named) or len(found) % len(years):
        return []
    per = len(found) // len(years)
    return [(years[i // per], _quarter_of(m)) for i, m in enumerate(found)]


# a header cell naming a quarter ('First', '2ND QUARTER', 'Q3') or the whole year beside them ('Year', 'Full Year')
QUARTER_NAME_RE = re.compile(rf"(?:{_QUARTER_CELL}|(?P<y>(?:full[\s-]+|fiscal[\s-]+)?year|total))", re.I)


def quarter_names(cells: list[str]) -> tuple[int, ...]:
    """A header row naming a quarter a column block, before its years ('| (Millions) | First | Second | Third |
    Fourth | Year |', '1ST QUARTER | 2ND QUARTER | ...'): each name's quarter, 0 the whole year; () when the row
    is no such header (fewer than two quarters, a cell after the label that names neither, or the label saying the
    columns add up: '(Cumulative) | Q1 | Q2 | Q3 | Full year' are the months from the year's start)."""
    if cells and re.search(r"cumulative|year[\s-]+to[\s-]+date", cells[0], re.I):
        return ()
    named = [c.strip() for c in cells[1:] if c.strip()]
    found = [m for m in map(QUARTER_NAME_RE.fullmatch, named) if m]
    quarters = tuple(0 if m.group("y") else _quarter_of(m) for m in found)
    return quarters if len(found) == len(named) and sum(q > 0 for q in quarters) >= 2 else ()


LONE_YEAR_RE = re.compile(r"^(?:[A-Za-z]+\s+){0,2}((?:19|20)\d\d)(?:\s+[A-Za-z]+){0,2}$")  # '2020 Quarters'


def lone_year(text: str) -> str:
    """The one year a short line heads a block of quarters with ('2020 Quarters', 'Fiscal 2019'): the last line
    of ``text`` when it is a year and at most two words beside it, else ''."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    m = LONE_YEAR_RE.match(lines[-1]) if lines and len(lines[-1].split()) <= 3 else None
    return m.group(1) if m else ""


def quarters_of_names(names: tuple[int, ...], years: list[str]) -> tuple[list[tuple[str, int]], list[str]] | None:
    """The (year, quarter) of each quarter column, and the years left for the columns after them, when a row of
    ``years`` follows a row of quarter ``names``: one year throughout ('2018 Quarter ... 2018': each quarter of
    that year, the whole year's column after them), or the same years in each quarter's block ('2019 2018 2019
    2018 ...'); None when the years fit neither."""
    quarters = [q for q in names if q]
    if len(set(years)) == 1:
        return [(years[0], q) for q in quarters], years[:1] if 0 in names else []
    if 0 not in names and years and len(years) % len(quarters) == 0:
        per = len(years) // len(quarters)
        return [(y, quarters[i // per]) for i, y in enumerate(years)], []
    return None


def _full_year(written: str) -> str:
    return written if len(written) == 4 else f"20{written}"


def quartered(figs: list, quarters: list[tuple[str, int]]) -> list | None:
    """A row's figures with the first ones dated by the header's quarter columns (three months each), the rest
    left to the header's years; None when the row prints fewer figures than quarters."""
    if len(figs) < len(quarters) or any(f.percent for f in figs[:len(quarters)]) and \
            not (len(figs) == len(quarters) and all(f.percent for f in figs)):  # a margin a quarter: all percents
        return None
    return [replace(f, period=y, months=3, quarter=q) for f, (y, q) in zip(figs, quarters)]
