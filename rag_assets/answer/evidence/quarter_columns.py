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
    no such header, or when the years' blocks would not name the same quarters ('First | Second | Third | Fourth'
    under a sentence on 2020 and 2019 is a row of quarter names over the years, not two halves)."""
    named = [c.strip() for c in cells if c.strip()]
    found = [m for m in map(QUARTER_CELL_RE.fullmatch, named) if m]
    if not years or len(found) < 2 or len(found) != len(named) or len(found) % len(years):
        return []
    per, quarters = len(found) // len(years), [_quarter_of(m) for m in found]
    if any(quarters[i:i + per] != quarters[:per] for i in range(per, len(quarters), per)):
        return []
    return [(years[i // per], q) for i, q in enumerate(quarters)]


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
# a scale a header line declares ('(In millions except per share data)', 'In Millions, Except Per Share Amounts')
SCALE_PHRASE_RE = re.compile(r"\(?\b(?:dollars\s+|amounts\s+)?in\s+(?:thousands|millions|billions)\b[^)\n]*\)?", re.I)


def lone_year(text: str) -> str:
    """The one year a short line heads a block of quarters with ('2020 Quarters', 'Fiscal 2019', '(In millions
    except per share data) 2017'): the last line of ``text`` when it is a year, a scale and at most two words
    beside it, else ''."""
    lines = [SCALE_PHRASE_RE.sub(" ", ln).strip() for ln in text.splitlines() if ln.strip()]
    m = LONE_YEAR_RE.match(lines[-1]) if lines and len(lines[-1].split()) <= 3 else None
    return m.group(1) if m else ""


QUARTER_HEAD_RE = re.compile(r"\b(?:(?P<o>first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter|"
                             r"(?P<y>(?:full|fiscal)[\s-]+year|year|total))\b", re.I)


def quarter_names_above(before: str) -> tuple[int, ...]:
    """The quarter of each column block, 0 the whole year, when the short lines just above a table name them
    and nothing else but a scale ('First Quarter' / 'Second Quarter' / ... / 'Fourth Quarter Full Year', or
    'First Quarter Second Quarter Third Quarter Fourth Quarter In Millions'); () when fewer than two quarters
    are named so, or a line naming one says more (a sentence on the first quarter)."""
    lines = []
    for line in reversed([ln for ln in before.splitlines() if ln.strip()][-2 * HEADER_LINES:]):
        if line.lstrip().startswith("|") or len(line) > HEADER_CHARS:
            break
        lines.insert(0, line)
    named = [ln for ln in lines if any(m.group("o") for m in QUARTER_HEAD_RE.finditer(ln))]
    if any(re.search(r"\w", QUARTER_HEAD_RE.sub(" ", SCALE_PHRASE_RE.sub(" ", ln))) for ln in named):
        return ()
    found = [m for ln in named for m in QUARTER_HEAD_RE.finditer(ln)]
    quarters = tuple(0 if m.group("y") else ORDINAL_QUARTER[m.group("o").lower()] for m in found)
    return quarters if sum(q > 0 for q in quarters) >= 2 else ()


MONTH_NUMBER = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
END_DATE_RE = re.compile(r"\b(?P<m>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
                         r"(?:,?\s+(?P<y>(?:19|20)\d\d))?(?:\s*\(\d{1,2}\))?", re.I)


def quarter_ends(cells: list[str]) -> tuple[str, tuple[int, ...]] | None:
    """The fiscal year ('' when the dates print none) and each column's quarter, when a header row prints the
    ends of four quarters in a row, three months apart, one a column ('December 31, 2019 | September 30, 2019 |
    June 30, 2019 | March 31, 2019', or 'December 31 September 30 | June 30 | March 31' over rows of years): the
    last of the four ends the fiscal year, whatever month it is. None for any other row."""
    dated = [c for c in cells if c.strip()]
    dated = dated[1:] if dated and not END_DATE_RE.search(dated[0]) else dated  # a label cell first
    text = " ".join(dated)
    found = list(END_DATE_RE.finditer(text))
    if len(found) != 4 or re.search(r"\w", END_DATE_RE.sub(" ", text)) or \
            len({bool(m.group("y")) for m in found}) != 1:
        return None
    at = [12 * int(m.group("y") or 0) + MONTH_NUMBER[m.group("m").lower()] - 1 for m in found]
    steps = {(b - a) % 12 if not found[0].group("y") else b - a for a, b in zip(at, at[1:])}
    if steps not in ({3}, {9} if not found[0].group("y") else {-3}):
        return None
    rising = steps == {3}
    year = str(max(at) // 12) if found[0].group("y") else ""
    return year, tuple(range(1, 5)) if rising else (4, 3, 2, 1)


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
            not all(f.percent for f in figs):  # a ratio's row prints percents only: one a column, as an amount's
        return None
    return [replace(f, period=y, months=3, quarter=q) for f, (y, q) in zip(figs, quarters)]
