"""Figure candidates: the table rows and sentences of a report's pages that name an asked metric, each with
its figures as printed, the period of each figure, and the scale its table declares.

Python finds and reads the figures; a model only chooses among them (``answer/readers/number_reader.py``)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from rag_assets.answer.evidence.asides import ASIDE_RE, per_share_aside
from rag_assets.answer.evidence.sentences import SENTENCE_SPLIT_RE, sentence_goes_on
from rag_assets.answer.evidence.figures import Figure, column_name, text_figures
from rag_assets.answer.evidence.column_parts import name_lines, names_year
from rag_assets.answer.evidence.merged_cells import dated_with_dashes
from rag_assets.answer.evidence.table_blocks import (block_dated, block_total, block_year, caption_heading,
                                                     caption_year, closed, total_cell)
from rag_assets.answer.evidence.column_names import HeaderRows
from rag_assets.answer.evidence.row_cells import header_scale, placed, row_figures
from rag_assets.answer.evidence.table_headers import (FOOTNOTE_MARKS_RE, captioned, cells_of, columns_above,
                                                      durations, heading_of, trailing_header)
from rag_assets.answer.evidence.units import (SHARE_COUNT_RE, block_percent, declared_scale, in_percent, shares_scale,
                                              unscaled_label)
from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.evidence.year_lines import YEAR_RE, last_year_line

DOT_LEADERS_RE = re.compile(r"\.{5,}")
SHOWN_CHARS = 320
CAPTION_LINES, CAPTION_CHARS = 3, 200  # a segment's heading, what it does, and the table's own caption


@dataclass
class Candidate:
    sha1: str
    page_index: int
    source: str  # 'row' (a table row) or 'text' (a sentence)
    label: str  # the row's label, or the sentence
    figures: tuple[Figure, ...]
    scale: float = 1.0  # the table's declared scale, already judged applicable to this row
    scale_words: str = ""
    score: float = 0.0
    id: int = 0
    total_last: bool = False  # the table's last column is its total (segment tables): that figure is the answer
    section: str = ""  # a table row's heading within its table: the last row above it that prints no figure
    caption: str = ""  # a table row's caption: the last lines of text above its table
    of_parts: bool = False  # its table's blocks of columns are parts of the company (``Columns.of_parts``)
    names: tuple[str, ...] = ()  # its columns' names, as a header row of its table prints them
    name_lines: tuple[str, ...] = ()  # the lines of names above its table (``column_parts.name_lines``)
    first_year: str = ""  # the year its table's header names first: the first block of columns is of it
    heading: str = ""  # shown before its label, where the label alone does not say what the row is of
    columns: tuple[str, ...] = ()  # each figure's column as the header rows name it, where they name one a figure

    def with_heading(self) -> Candidate:
        """The row shown with its heading row, else its caption's last words ('REVENUES' / 'Greater China' and
        'EARNINGS BEFORE INTEREST AND TAXES' / 'Greater China'): a row named as a part is of the item above it."""
        tail = re.split(r"[\d()]", self.caption)[-1].strip(" ,:;.-")
        self.heading = self.section or " ".join(tail.split()[-8:])
        return self

    @property
    def latest(self) -> Figure:
        """The figure of the latest period: the greatest year among the figures' periods, else the total
        column's (``total_last``), else the first."""
        dated = [f for f in self.figures if f.period]
        if dated:
            return max(dated, key=lambda f: f.period)
        return self.figures[-1] if self.total_last else self.figures[0]

    def value_of(self, figure: Figure) -> float:
        return figure.value if figure.own_scale or figure.percent else figure.value * self.scale

    def shown(self) -> str:
        """One entry of the list the model chooses from."""
        if self.source == "row":
            shown = [f"{column_name(f)}: {f.written}" if f.period else f.written for f in self.figures]
            if self.total_last and not self.figures[-1].period:
                shown[-1] = f"total: {shown[-1]}"
            cols = " | ".join(shown[:4] + shown[-1:] if len(shown) > 5 else shown)
            unit = f" ({self.scale_words})" if self.scale_words else ""
            label = f"{self.heading}: {self.label}" if self.heading and self.source == "row" else self.label
            return f"[{self.id}] page {self.page_index}, table row{unit}: {label} | {cols}"
        return f"[{self.id}] page {self.page_index}, text: \"{self.label}\""

    def to_dict(self) -> dict:
        out = {**asdict(self), "latest": self.latest.written}
        for key in ("section", "caption", "names", "name_lines", "first_year"):
            del out[key]
        return out


def _label_cell(cells: list[str]) -> str:
    """A row's first cell of words (two letters at least), as printed; '' when it has none."""
    return next((cell for cell in cells if len(re.findall(r"[A-Za-z]", cell)) >= 2), "")


def _label(cells: list[str]) -> str:
    """A row's label: its first cell of words, without dot leaders and footnote marks glued to its words."""
    return FOOTNOTE_MARKS_RE.sub("", re.sub(r"\s*\.{3,}\s*", " ", _label_cell(cells))).strip(" .:")


def table_rows(lines: list[str], sha1: str, page_index: int, before: str,
               page_scale: tuple[float, str] | None = None, page_years: tuple[list[str], list[int]] = ([], []),
               late: tuple[list[str], list[int]] = ([], []), page_heading: str = "", names_above: str = ""
               ) -> list[Candidate]:
    """Candidates of one markdown table (``lines``); ``before`` is the page text above it (caption, header
    text with the years, scale); ``page_scale`` the scale last declared above, for a table declaring none;
    ``page_years`` the previous table's year columns and months, for a statement continued below a heading;
    ``late``: those of a header printed after the page's last table ('SECOND QUARTER / 2023 2022'); ``page_heading``:
    the page's last heading in capitals above it, part of its caption; ``names_above``: the longer text above it
    where its columns' names are looked for (default ``before``)."""
    cols = columns_above(before, page_scale, page_years, late, names_above)
    total_at = total_cell(cells_of(lines[0])) if lines else None
    total_last = total_at is not None
    out, heading, caption, carried, wrapped = [], "", captioned(before, page_heading), None, ""
    section = first = caption_heading(before)  # 'Consumer Health (1)' just above the table heads its first block
    above = name_lines(names_above or before)  # the names above, and the year after the last one
    names_at = names_year(names_above or before)
    block = "" if cols.years else cols.lone or caption_year(before)  # the year of a table printed in year blocks
    headers = HeaderRows()  # the header rows: each figure's column name
    for cells in trailing_header(before) + [cells_of(line) for line in lines]:
        if all(re.fullmatch(r":?-{2,}:?|", c) for c in cells):
            continue
        block = block_year(cells) or block  # '| | 2021 | | |' opens the next year's block of rows
        per_cell, at, figs = row_figures(cells)
        if headers.took(cells, cols.header(cells, at, header_scale(cells, per_cell)), bool(figs or out)):
            continue
        label, wrapped = _unwrapped(_label(cells), figs, wrapped, _colon_ended(cells))
        if label and not any(per_cell) and _label(cells[:1]) == label:  # a heading row: no figure, its label first
            section, caption = label, closed(caption, first)
            heading = "" if declared_scale(label) else label  # '(In millions except per share data)' is a scale
        figs, where = placed(per_cell, at, cols.years)
        subtotal = bool(figs) and not label  # the block's subtotal: its heading's figures ('Pharmaceutical')
        label = block_total(section) if subtotal else label
        if figs and label:
            own, carried = _row_scale(label, carried, not out)
            mult, words = _scaled(label, "" if subtotal else heading, figs, own or cols.scale, before)
            dated = block_dated(dated_with_dashes(cols, figs, where, cells), where, block, total_at)
            out.append(Candidate(sha1, page_index, "row", label, tuple(dated), mult, words, total_last=total_last,
                                 section="" if subtotal else section, caption=caption, of_parts=cols.of_parts,
                                 names=cols.names, name_lines=above,
                                 first_year=cols.years[0] if cols.years else names_at or block,
                                 columns=headers.columns(len(dated))))
            out += [a for a in [per_share_aside(out[-1])] if a]  # 'Dividends declared ($2.585, $2.535 per share)'
        if subtotal:  # a subtotal closes its block: the rows below are under none of its headings
            section, heading, caption = "", "", closed(caption, first)
    return in_percent(block_percent(out), caption)


def _scaled(label: str, heading: str, figs: list, own: tuple[float, str] | None, before: str) -> tuple[float, str]:
    """A row's scale: its own ('Sales (millions)') or its table's, none for a row its words print unscaled
    ('Diluted' under a per-share heading); a caption's or their own label's scale of share counts for shares."""
    unscaled = unscaled_label(f"{_heading_kind(heading)} {ASIDE_RE.sub(' ', label)}", tuple(f.value for f in figs))
    counted = declared_scale(label) if SHARE_COUNT_RE.search(label) else None  # 'shares outstanding (in millions)'
    return shares_scale(label, before[-600:]) or counted or (own if own and not unscaled else (1.0, ""))


# a label cut short by the line's end: a parenthesis left open, or a word that joins it to more
UNFINISHED_RE = re.compile(r"(?:\([^)]*|\b(?:and|or|of|for|in|to|from|on|by|with|including|excluding)|,)\s*$", re.I)


def _unwrapped(label: str, figs: list, wrapped: str, colon: bool = False) -> tuple[str, str]:
    """(the row's label, the start of a label wrapped onto the next row). A row of words only that ends unfinished
    ('Advertising and media expense (including production and') is the first line of the next row's label
    when that row goes on in lower case or closes the parenthesis ('communication costs) | 690.1'), or, after a
    word that joins a name ('... attributable to shareowners of'), whatever its case. Any other row of words only
    is a heading, and the first line of the next row's label too when that row goes on in lower case ('Diluted
    weighted average common' / 'shares outstanding | 1,607.5'), whose heading it stays (a per-share heading above
    it heads that row no longer); never one ending in a colon ('Net sales:')."""
    if label and not figs and UNFINISHED_RE.search(label):
        return "", label
    if wrapped and label and (label[:1].islower() or label.count(")") > label.count("(") or
                              JOINED_RE.search(wrapped)):
        return f"{wrapped} {label}", ""
    return label, label if label and not figs and not colon else ""


def _colon_ended(cells: list[str]) -> bool:
    """The row's label cell ends in a colon: a heading of the rows below ('Earnings per share:')."""
    return _label_cell(cells).rstrip().endswith(":")


# a wrapped line that ends in a word joining it to a name ('Net income (loss) attributable to shareowners of' /
# 'The Coca-Cola Company | 1,182'): the next row's label goes on with it, in capitals too
JOINED_RE = re.compile(r"\b(?:of|to|for|by)\s*$", re.I)


UNITS_LABEL_RE = re.compile(r"\(\s*(?:in\s+)?(?:dollars|units|number|%|percent(?:age)?)\s*\)", re.I)


def _row_scale(label: str, carried: tuple[float, str] | None, first: bool
               ) -> tuple[tuple[float, str] | None, tuple[float, str] | None]:
    """(the scale of a row, the scale carried to the rows below it). A table whose first row declares its scale in
    its label ('Network volumes (billions)') prints each row below in the scale of the last row that declared one
    ('Billed business' in billions, 'Cards-in-force (millions)' and the rows below it in millions, 'Average fee
    per card (dollars)' in units); in any other table a row's scale is its own."""
    own = declared_scale(label)
    if carried is None and not (own and first):
        return own, None
    if own is None and UNITS_LABEL_RE.search(label):
        return None, (1.0, "")
    carried = own or carried
    return (carried if carried[0] != 1.0 else None), carried


def _heading_kind(heading: str) -> str:
    """A heading as it says what its rows are: '' when it names two kinds ('Market and per common share data' heads
    the market capitalization in millions and the book value per share both)."""
    return "" if re.search(r"\band\s+per\b", heading, re.I) else heading


def _columns(rows: list[Candidate]) -> tuple[list[str], list[int]] | None:
    """A table's year columns and their blocks' months, from its first row dated in two columns or more, or None."""
    for row in rows:
        periods = [f.period for f in row.figures]
        if len(periods) >= 2 and all(periods):
            return periods, [m for m in dict.fromkeys(f.months for f in row.figures) if m]
    return None


def _shorten(sentence: str, figure: str) -> str:
    if len(sentence) <= SHOWN_CHARS:
        return sentence
    at = max(0, sentence.find(figure) - SHOWN_CHARS // 2)
    return ("…" if at else "") + sentence[at : at + SHOWN_CHARS].strip() + "…"


def page_candidates(text: str, sha1: str, page_index: int) -> list[Candidate]:
    """Every table row and sentence of a page's markdown that prints a figure."""
    return [c for _, block in page_blocks(text, sha1, page_index) for c in block]


def page_tables(text: str, sha1: str, page_index: int) -> list[list[Candidate]]:
    """The rows of each markdown table of a page, table by table."""
    return [rows for kind, rows in page_blocks(text, sha1, page_index) if kind == "table"]


def page_blocks(text: str, sha1: str, page_index: int):
    """A page's markdown as ('text', the figures of a paragraph) and ('table', the rows of a table) in page
    order; a table without its own years or scale takes the page's last ones."""
    lines = text.splitlines()
    i, para, page_scale, page_years, heading = 0, [], None, ([], []), ""
    last = max((k for k, ln in enumerate(lines) if ln.lstrip().startswith("|")), default=len(lines))
    tail = "\n".join(ln for ln in lines[last + 1:] if len(ln) <= 60)  # short lines after the last table
    late = (list(dict.fromkeys(YEAR_RE.findall(last_year_line(tail)))), durations(tail))
    while i <= len(lines):
        line = lines[i] if i < len(lines) else ""
        if line.lstrip().startswith("|"):
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            yield "text", _text_candidates(" ".join(para), sha1, page_index, heading)
            para = []
            rows = table_rows(lines[i:j], sha1, page_index, "\n".join(lines[max(0, i - 12) : i]), page_scale,
                              page_years, late, heading, "\n".join(lines[max(0, i - NAMES_WINDOW) : i]))
            page_years = _columns(rows) or page_years
            scaled = next((r for r in rows if r.scale != 1.0), None)
            page_scale = (scaled.scale, scaled.scale_words) if scaled else page_scale
            yield "table", rows
            i = j
            continue
        if len(line) < 200:  # a caption or heading line may declare the scale of the tables below it
            page_scale = declared_scale(line) or page_scale
            heading = heading_of(line) or heading
        if line.strip() and not line.lstrip().startswith("#"):
            para.append(line.strip())
        elif line.strip() or not sentence_goes_on(para, lines[i + 1:]):  # a heading, or a paragraph's end
            yield "text", _text_candidates(" ".join(para), sha1, page_index, heading)
            para = []
        i += 1


def _text_candidates(paragraph: str, sha1: str, page_index: int, heading: str = "") -> list[Candidate]:
    """The sentences of a paragraph that print figures, each captioned by the page's heading above it (a part's
    section: 'GREATER CHINA')."""
    out = []
    for sentence in (s.strip() for s in SENTENCE_SPLIT_RE.split(paragraph) if s and s.strip()):
        if DOT_LEADERS_RE.search(sentence):
            continue  # a table flattened into text: its figures cannot be told apart
        figs = text_figures(sentence)
        if figs:
            out.append(Candidate(sha1, page_index, "text", _shorten(sentence, figs[0].written), tuple(figs),
                                 caption=heading))
    return out


NAMES_WINDOW = 24  # the lines of a page above a table among which its columns' names are looked for (blank ones too)
def find_candidates(pages, metric: MetricQuery, limit: int = 8, min_score: float = 0.5) -> list[Candidate]:
    """The ``limit`` rows and sentences of ``pages`` (best-ranked first) that best name the metric, numbered
    from 1. A text's page rank breaks ties."""
    scored = []
    for rank, page in enumerate(pages):
        for order, cand in enumerate(page_candidates(page.text, page.sha1, page.page_index)):
            cand.score = metric.score(cand.label)
            if cand.score >= min_score:
                scored.append((-cand.score, cand.source != "row", rank, order, cand))
    scored.sort(key=lambda t: t[:4])
    out = [t[-1] for t in scored[:limit]]
    for n, cand in enumerate(out, 1):
        cand.id = n
    return out
