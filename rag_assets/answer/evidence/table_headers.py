"""What the text above a table says of it: its caption (what the table is of: 'Summary combined financial
information for the joint ventures', 'Aeronautics' operating results', 'Net Sales ... Operating Income'), the
months each block of its columns covers ('Three months ended June 30, Six months ended June 30,'), the quarter of
each column that names one ('2Q23 1Q23'), and so the year, quarter and months of each figure of a row."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rag_assets.answer.evidence.change_columns import changes_after, column_pattern
from rag_assets.answer.evidence.column_parts import cell_names
from rag_assets.answer.evidence.quarter_columns import (HEADER_CHARS, HEADER_LINES, lone_year, quarter_columns,
                                                        quarter_ends, quarter_names, quarter_names_above, quartered,
                                                        quarters_of_names, quarters_under_years)
from rag_assets.answer.evidence.units import last_declared_scale
from rag_assets.answer.evidence.year_lines import YEAR_RE, last_year_line

CAPTION_LINES, CAPTION_CHARS = 3, 200  # a caption is the short lines just above a table, not a paragraph

# what a column header says of the months it covers, in the order the columns print them
DURATION_RE = re.compile(r"\b(?P<n>three|six|nine|twelve|3|6|9|12)[\s-]+months?\b|\b(?P<q>(?:first|second|third|fourth|"
                         r"1st|2nd|3rd|4th)[\s-]+quarter|quarters?\s+ended|Q[1-4])\b|\b(?P<h>(?:first|1st)\s+half|six[\s-]+"
                         r"month|half[\s-]+year|H1)\b|\b(?P<y>(?:fiscal\s+)?years?\s+ended|full[\s-]+year|twelve[\s-]+"
                         r"months)\b", re.I)
MONTH_WORDS = {"three": 3, "six": 6, "nine": 9, "twelve": 12, "3": 3, "6": 6, "9": 9, "12": 12}


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


HEADING_RE = re.compile(r"^\s*(?:#+\s*)?([A-Z][A-Z&'’/,-]*(?:\s+[A-Z&][A-Z&'’/,-]*)+)\s*:?\s*$")  # 'SEGMENT SALES RESULTS'


def heading_of(line: str) -> str:
    """The heading a line is when it is written in capitals, two words or more ('REGIONAL SALES RESULTS'), else ''."""
    m = HEADING_RE.match(line)
    return m.group(1) if m else ""


def captioned(before: str, heading: str = "") -> str:
    """A table's caption (``table_caption``) after ``heading`` (the page's last heading in capitals above it) when
    the caption does not hold it: 'Full Year % Change' under 'REGIONAL SALES RESULTS' is of the regions' sales."""
    caption = table_caption(before)
    return f"{heading} {caption}".strip() if heading and heading not in caption else caption


def durations(before: str) -> list[int]:
    """The months each block of a table's columns covers, in order, from the short lines just above it ('Three
    months ended June 30, Six months ended June 30,' -> [3, 6]; 'Q2 % Change' -> [3]; 'Six months ended June 30,
    (in millions) 2023 2022 Operating activities Net income ...', a header run into the rows -> [6])."""
    lines = [ln for ln in before.splitlines() if ln.strip()][-HEADER_LINES:]
    out = []
    for line in (ln for ln in lines if not ln.lstrip().startswith("|")):
        if len(line) > HEADER_CHARS:  # a header the text layer ran into the first rows: only the months it opens with
            line = m.group(0) if (m := DURATION_RE.match(line.lstrip())) else ""
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
        if f.percent and not f.period and not f.months and out and out[-1].period and out[-1].months:
            n = out[-1].months  # a change printed after its block's years ('... 5,678 | 9.5%') is of its months
            out.append(replace(f, months=n))
            continue
        out.append(replace(f, months=n) if n and f.period else f)  # a dated percentage too: a ratio's column
    return out


def dated_figures(figs: list, years: list[str], cells: list[int], year_cells: dict[int, str],
                  compared: bool, months: list[int], quarters: list[tuple[str, int]]) -> list:
    """A row's figures dated: first by the header's quarter columns ('2Q23 1Q23 ...'), the rest (and every
    figure of a table naming no quarters) by its years and the months of its column blocks."""
    first = quartered(figs, quarters) if quarters else None
    if first is not None:
        rest = figs[len(first):]
        return first + timed(_dated(rest, years), months)
    changes = changes_of_blocks(figs, cells, year_cells, months)
    return changes if changes is not None else timed(_dated(figs, years, cells, year_cells, compared), months)


def changes_of_blocks(figs: list, cells: list[int], year_cells: dict[int, str], months: list[int]) -> list | None:
    """A row of changes only ('Operational Sales | | | | 0.9% | | | | 6.1%' under '2022 2021 % Change | 2022 2021 %
    Change' and 'Q4 Full Year'): each percentage in a cell no year heads is the change of the block of years
    before it, and takes that block's months (never a year of its own); None for any other row."""
    if len(months) < 2 or not year_cells or not figs or len(cells) != len(figs) or \
            not all(f.percent and not f.period for f in figs) or set(cells) & set(year_cells):
        return None
    first = year_cells[min(year_cells)]
    blocks = [sum(1 for c, y in year_cells.items() if c < at and y == first) - 1 for at in cells]
    if any(not 0 <= b < len(months) for b in blocks) or len(set(blocks)) < len(blocks):
        return None  # two in one block are its years' figures a cell off ('| | | 20 % | | | 13 % |'), no change
    return [replace(f, months=months[b]) for f, b in zip(figs, blocks)]


def _dated(figs: list, years: list[str], cells: list[int] | None = None,
           year_cells: dict[int, str] | None = None, compared: bool = False) -> list:
    """Figures matched to the header's years by order; a leading note number is dropped when it is the one
    figure too many. When the row has more figures than years (a 'Change' column beside each year's: '41,307
    30,715 34 % 79,656 61,432 30 %'), by position: a figure in the cell of a year's header is that year's, when
    every year's cell holds one (``cells``: each figure's cell index; ``year_cells``: cell index -> year); else,
    when the header prints columns after its years ('2022 2021 22 vs. 21 22 vs. 21': ``compared``), the first
    figures are the years' in order."""
    if cells and year_cells and len(figs) > len(year_cells) >= 2 and set(year_cells) <= set(cells):
        return [replace(f, period=year_cells[i]) if i in year_cells and not f.percent else f
                for f, i in zip(figs, cells)]
    if compared and len(figs) > len(years) >= 2 and not any(f.percent for f in figs[:len(years)]):
        return [replace(f, period=y) for f, y in zip(figs, years)] + figs[len(years):]
    if len(figs) == len(years) + 1 and re.fullmatch(r"\d{1,2}", figs[0].written):
        figs = figs[1:]
    if cells and year_cells and len(figs) < len(year_cells) and (under := _under_years(figs, cells, year_cells)):
        return under  # '| $2.46 |  |  |  | $10.70 |' under '2022 | 2021 | 2022 | 2021': the first of each block
    if len(years) > len(figs) >= 2:  # 'At January 1, 2023 and January 2, 2022 ... 2022 2021': the column labels last
        years = years[-len(figs):]
    if years and len(figs) == len(years):
        return [replace(f, period=y) for f, y in zip(figs, years)]
    amounts = [f for f in figs if not f.percent]
    if len(years) >= 2 and len(amounts) == len(years) < len(figs):  # '6,923 2,976 133 % 4,850 -39 %': the
        dated = iter(years)  # amounts are the years', the percentages their changes
        return [f if f.percent else replace(f, period=next(dated)) for f in figs]
    return figs


def _under_years(figs: list, cells: list[int], year_cells: dict[int, str]) -> list | None:
    """A row of fewer figures than years, dated by the year cell each is under (or one after); else None."""
    for shift in (0, 1):
        under = [year_cells.get(c - shift) for c in cells]
        if all(under):
            return [replace(f, period=y) for f, y in zip(figs, under)]
    return None


AMOUNT_HEAD_RE = re.compile(r"amount|\$", re.I)


def column_kinds(cells: list[str]) -> tuple[bool, ...]:
    """A header row naming each column's kind ('Amount | Percent to Sales | Amount | Percent to Sales | Percent
    Increase'): for each non-empty cell, whether its column holds amounts; () when the row is no such header
    (fewer than two amount columns, or a cell with a figure)."""
    named = [c.strip() for c in cells if c.strip()]
    kinds = tuple(AMOUNT_HEAD_RE.fullmatch(c) is not None for c in named)
    return kinds if sum(kinds) >= 2 and not any(re.search(r"\d", c) for c in named) else ()


def by_kinds(figs: list, kinds: tuple[bool, ...], years: list[str], months: list[int]) -> list | None:
    """A row's figures dated by its header's column kinds: one figure a column, the amount columns the years'
    in order (the others, percentages of sales or changes, undated); None when the row does not fit them. A row
    one figure short of a last column of changes prints no change ('Restructuring 145 0.5 85 0.4'), when its
    figures fit the columns left: amounts where amounts stand, percentages (at most 100) elsewhere."""
    if kinds and len(figs) == len(kinds) - 1 and not kinds[-1]:
        fits = all(not f.percent if amount else abs(f.value) <= 100 for f, amount in zip(figs, kinds))
        kinds = kinds[:-1] if fits else kinds
    if not kinds or len(figs) != len(kinds) or sum(kinds) != len(years):
        return None
    amounts = iter(years)
    return timed([replace(f, period=next(amounts)) if amount else f for f, amount in zip(figs, kinds)], months)


MONTHS = r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
# a row heading the rows below with their period ('For the year ended December | 31, | 2022'): a block of a table
# whose columns are parts of the company, one period a block
PERIOD_HEADING_RE = re.compile(rf"^(?:for\s+the\s+)?(?:fiscal\s+)?(?P<span>years?|quarters?|(?:three|six|nine|twelve)"
                               rf"\s+months)\s+ended\s+(?:{MONTHS})[a-z]*\.?\s+\d{{1,2}},?\s+(?P<year>(?:19|20)\d\d)$", re.I)


def _heading_months(span: str) -> int:
    word = span.split()[0].lower()
    return 12 if word.startswith("year") else 3 if word.startswith("quarter") else MONTH_WORDS[word]


FOOTNOTE_MARKS_RE = re.compile(r"(?<=[a-z)])\d{1,2}(?:,\d{1,2})*(?=\s|$)")  # 'Operational Sales1,2', '(diluted)1,4'


def cells_of(line: str) -> list[str]:
    """A markdown table row's cells, stripped ('| Net sales | 4,210 |' -> ['Net sales', '4,210'])."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def period_heading(cells: list[str]) -> re.Match | None:
    """The period a row heading the rows below names ('For the year ended December | 31, | 2022'), or None."""
    return PERIOD_HEADING_RE.match(" ".join(c for c in cells if c))


def trailing_header(before: str) -> list[list[str]]:
    """The header rows the previous table above ends with, which head the next one (a PDF's text layer cut the
    table there, maybe with a few lines of text between): its last rows while each is a period heading or a row
    of column names, in order."""
    lines = [ln for ln in before.splitlines() if ln.strip()]
    last = max((k for k, ln in enumerate(lines) if ln.lstrip().startswith("|")), default=-1)
    out: list[list[str]] = []
    for line in reversed(lines[max(0, last - 1):last + 1]):
        cells = cells_of(line)
        if not line.lstrip().startswith("|") or not (cell_names(cells) or period_heading(cells) or quarter_ends(cells)):
            break
        out.insert(0, cells)
    return out
# a column header that is a date ('June 30, 2023', 'Dec. 31, 2022', 'As of May 31, 2021'): its year's column
DATE_CELL_RE = re.compile(rf"^(?:(?:as\s+)?(?:of|at)\s+)?(?:{MONTHS})[a-z]*\.?\s+\d{{1,2}},?\s+((?:19|20)\d\d)$", re.I)
FISCAL_CELL_RE = re.compile(r"^(?:fiscal(?:\s+years?)?|fy|years?)\s*'?((?:19|20)\d\d)$", re.I)  # 'FISCAL 2021'
YEAR_CELL_RE = re.compile(r"\(?(?:19[89]|20[0-4])\d\)?")


@dataclass
class Columns:
    """What a table's header says of its columns, taken in as its rows are read top-down: the years (and the
    cell of each), the months of each block, the quarters, the kind of each column, the scale."""

    years: list[str]
    months: list[int]
    quarters: list[tuple[str, int]]
    scale: tuple[float, str] | None
    year_cells: dict[int, str] = field(default_factory=dict)
    compared: bool = False  # a change column after the years ('22 vs. 21')
    kinds: tuple[bool, ...] = ()
    repeats: int = 0  # how often the header prints its most repeated year ('2023 2022 2023 2022 ...')
    names: tuple[str, ...] = ()  # the columns' names a header row prints ('Activision | Blizzard | King | Total')
    pattern: list[str] = field(default_factory=list)  # each column's year, '' a change ('2023 2022 Change ...')
    quarter_names: tuple[int, ...] = ()  # a header row's quarter a column block, 0 the year, awaiting its years
    lone: str = ""  # the one year a line above the table names ('2020 Quarters'), for a header of quarters
    late_months: list[int] = field(default_factory=list)  # the blocks a header printed after the table names

    @property
    def of_parts(self) -> bool:
        """The header repeats its years more often than it has blocks of months: each block of years is a part
        of the company's (a segment per block, its name above the table), none the company's whole. Two blocks
        of the same years with no months read are taken for a quarter's and a year to date's."""
        return self.repeats > max(1, len(self.months)) and (bool(self.months) or self.repeats >= 3)

    def header(self, cells: list[str], at: dict, head_scale: tuple[float, str] | None) -> bool:
        """Take in a header row ('2023 2022', 'June 30, 2023 | December 31, 2022', '4th 3rd 2nd 1st' under the
        years, 'Amount | Percent to Sales | ...'); True when the row is only a header (no candidate)."""
        figs = list(at.values())
        if (heading := period_heading([c.strip() for c in cells])) is not None:
            self.years, self.year_cells, self.compared, self.repeats = [heading.group("year")], {}, False, 0
            self.pattern = []
            self.months = [_heading_months(heading.group("span"))]
            return True
        if not figs and (under := quarters_under_years(cells, self.years)):
            self.quarters = under
            return True
        if not figs and (ends := quarter_ends(cells)):
            return self.named(ends[1], head_scale, ends[0])  # 'December 31, 2019 | September 30, 2019 | ...'
        if not figs and (named := quarter_names(cells)):
            return self.named(named, head_scale)
        if not figs and len(filled := [c for c in cells if c]) == 1 and (year := lone_year(filled[0])):
            self.lone = year  # a row heading the next block of quarters ('| | 2019 Quarters | |'), or a section
        dates = {i: m.group(1) for i, m in ((i, DATE_CELL_RE.match(c) or FISCAL_CELL_RE.match(c))
                                            for i, c in enumerate(cells)) if m}
        if dates and not figs and (len(dates) >= 2 or not FISCAL_CELL_RE.match(cells[min(dates)])):
            self.years, self.year_cells, self.compared, self.pattern = list(dates.values()), dates, False, []
            self.scale = head_scale or self.scale
            return True
        if figs and all(not f.percent and YEAR_CELL_RE.fullmatch(f.written.strip()) for f in figs):
            self.years, self.scale = [f.written.strip("()") for f in figs], head_scale or self.scale
            self.pattern = []
            self.year_cells = {i: f.written.strip("()") for i, f in at.items()}
            self.repeats = max(self.years.count(y) for y in self.years)
            if not self.months and self.repeats >= 2 and len(self.late_months) == self.repeats:
                self.months = list(self.late_months)  # 'Fourth Quarter Twelve Months Ended' printed below it
            self.compared = any(len(re.findall(r"[A-Za-z]", c)) >= 2 for c in cells[max(at) + 1:])
            if self.quarter_names:  # the years of the quarters named above ('2016' heading a table's next block)
                by_name = quarters_of_names(self.quarter_names, self.years)
                (self.quarters, self.years), self.repeats, self.year_cells = by_name or ([], self.years), 0, {}
                self.quarter_names = self.quarter_names if by_name else ()
            return True
        if not figs:
            self.scale = head_scale or self.scale
            self.kinds = column_kinds(cells) or self.kinds
            if not self.kinds and (names := cell_names(cells)):
                self.names = names
                return True
        return False

    def named(self, names: tuple[int, ...], head_scale: tuple[float, str] | None = None, year: str = "") -> bool:
        """Take in the quarter each column block is of (0 the whole year), printed in a header row or the lines
        above the table: of the year given, or of the one year a line above names ('2020 Quarters'), else
        awaiting the row of years below."""
        self.quarter_names, self.scale = names, head_scale or self.scale
        years, self.lone = ([year or self.lone] if year or self.lone else self.years), ""
        if len(set(years)) == 1 and (by_name := quarters_of_names(names, years)):
            (self.quarters, self.years), self.repeats, self.year_cells = by_name, 0, {}
            self.months = []  # the columns after the quarters are the whole year's ('Full Year')
        return True

    def dated(self, figs: list, cells: list[int]) -> list:
        """A row's figures with the year, months and quarter of their columns: one figure a column of the header's
        ``pattern`` when the row prints as many (none dated already, as a cell of two figures is), or the years'
        before the changes the pattern ends with, else as the header's years and kinds say."""
        if self.pattern and not self.quarters and not any(f.period for f in figs):
            if len(figs) == len(self.pattern):
                return timed([replace(f, period=p) if p else f for f, p in zip(figs, self.pattern)], self.months)
            if (changed := changes_after(figs, self.pattern)) is not None:
                return timed(changed, self.months)
        return by_kinds(figs, self.kinds, self.years, self.months) or \
            dated_figures(figs, self.years, cells, self.year_cells, self.compared, self.months, self.quarters)


def columns_above(before: str, page_scale: tuple[float, str] | None, page_years: tuple[list[str], list[int]],
                   late: tuple[list[str], list[int]], above: str = "") -> Columns:
    """What the text above a table says of its columns (``candidates.table_rows``' arguments): its years, the months and
    quarters they cover, its scale; ``above`` the longer text above it (default ``before``). A table that names no
    years continues the page's previous one: its years, and their months where none are named above it."""
    year_line = last_year_line(above or before)  # a header printed a column a line may start higher up
    own = list(dict.fromkeys(YEAR_RE.findall(year_line)))
    years = own or list(page_years[0]) or late[0]
    carried = [] if own or not page_years[0] else list(page_years[1])
    months = durations(before) or carried or (late[1] if years and years == (late[0] or years) else [])
    cols = Columns(years, months, quarter_columns(before), last_declared_scale(before[-600:]) or page_scale,
                   pattern=column_pattern(year_line), lone=lone_year(before), late_months=[] if late[0] else late[1])
    if not cols.quarters and (names := quarter_names_above(before)):
        cols.named(names)  # 'First Quarter' / 'Second Quarter' / ... / 'Fourth Quarter Full Year' above the table
    return cols
