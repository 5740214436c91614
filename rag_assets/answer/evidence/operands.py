"""Find an operand: the statement row that prints a line item for one fiscal year. Python ranks the rows of
the item's statement pages (then of the pages retrieval finds for it) by how exactly their label is one of the
item's labels; the figure must sit in the asked year's column."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace

from rag_assets.answer.evidence.candidates import Candidate, page_candidates
from rag_assets.answer.evidence.column_parts import part_column
from rag_assets.answer.evidence.part_sections import part_section
from rag_assets.answer.evidence.rows import (folded_label, label_head, label_match, names_any, names_item,
                                             opposed_head, preference, printed_labels, stem, written_row, year_figure)
from rag_assets.answer.question.formulas import NESTED_SEP, Item, printed_ratio, read_in_percent
from rag_assets.answer.question.metric_library import ItemSpec, fold
from rag_assets.answer.evidence.part_rows import (SEGMENT_WORDS_RE, heads, items_named, names_part, nearest_items,
                                                  same_part)


STATEMENT_TITLE_RE = re.compile(r"(?<!the\s)(?<!in\s)(?<!to\s)\b(?:Consolidated\s+(?:Statements?\s+[Oo]f|Balance\s+Sheets?)|"
                                r"CONSOLIDATED\s+(?:STATEMENTS?\s+OF|BALANCE\s+SHEETS?))")
TITLE_CHARS = 300
# How a row's page weighs beside its label's match (3 the label itself, 2 the label and a few words, 1 its words):
# a page typed as the item's statement, and more so one titled as a consolidated statement, is where the item is
# reported. 'Net income attributable to X' (2) on the titled income statement outweighs 'Net income (loss)' (3)
# of an equity affiliate's table in a note typed as a statement by its words; a row that only holds the words (1)
# on the titled page does not outweigh the exact label elsewhere.
# A page headed as the company's consolidated figures ('CONSOLIDATED RESULTS OF OPERATIONS') outweighs another page
# of equal standing, such as a segment's ('CORPORATE') printing the same label.
TYPED, TITLED, CONSOLIDATED = 1.5, 1.25, 0.75
HEADING_CONSOLIDATED_RE = re.compile(r"\A\W*[^\n]*\bconsolidated\b", re.I)  # the page's first line


@dataclass(frozen=True)
class SourcePage:
    sha1: str
    page_index: int
    text: str
    statement: bool  # typed as the item's statement
    parts: tuple[str, ...] = ()  # the parts of the company its report names, whose sections print no whole's figure

    @property
    def titled_statement(self) -> bool:
        """The page opens with a consolidated statement's title: the audited statements, not a table of the
        management discussion that repeats some of their rows."""
        return STATEMENT_TITLE_RE.search(self.text[:TITLE_CHARS]) is not None

    @property
    def consolidated(self) -> bool:
        """The page's heading (its first line) names the consolidated figures: the company's, not a segment's."""
        return HEADING_CONSOLIDATED_RE.match(self.text.lstrip()[:TITLE_CHARS]) is not None


@dataclass(frozen=True)
class Operand:
    """One cited figure of a computation."""

    item: str
    year: int
    value: float  # in full units (its table's scale applied), sign as the library says
    written: str
    label: str
    sha1: str
    page_index: int
    scale: float
    scale_words: str
    part: str = ""  # the part of the company (a segment, a region) whose figure it is; '' for the whole
    months: int = 0  # the columns read: 3 a quarter, 6 or 9 months, -1 the year to date; 0 the fiscal year
    quarter: int = 0  # the quarter read where the columns name quarters; 0 the filing's own
    chosen: bool = False  # read by the number reader (the model's choice among Python's figures, or a count every
    # sentence agrees on), not from a statement row by Python alone

    def to_dict(self) -> dict:
        return asdict(self)


LOSS_ONLY_RE = re.compile(r"^(?!.*\b(?:income|earnings|profit)\b).*\bloss(?:es)?\b")  # names a loss, not a result
TWO_SIGNED_RE = re.compile(r"\((?:used\s+(?:in|for)|decrease|loss(?:es)?|deficit|expense|outflow)\)", re.I)  # both signs


def printed_as_deduction(rows: list[Candidate], i: int, year: int) -> bool:
    """Row ``i``'s figure in ``year`` is printed as a deduction: the row above plus it gives the row below
    ('Income before income taxes 2,397 / Provision for income taxes (491) / Net income 1,906'), and the row above
    less it does not."""
    if not 0 < i < len(rows) - 1:
        return False
    above, this, below = (year_figure(rows[k], year) for k in (i - 1, i, i + 1))
    if None in (above, this, below) or this.value == 0:
        return False
    return abs(above.value + this.value - below.value) <= 1 < abs(above.value - this.value - below.value)


def find_operand(item: Item, spec: ItemSpec | None, pages: list[SourcePage],
                 other_entities: tuple[str, ...] = (), library_names=(), quarters: dict[str, int] | None = None
                 ) -> Operand | None:
    """The best row of ``pages`` (statement pages first, then best-ranked) for ``item``, or None when no row
    names it with a figure in the year's column. An item of a part of the company is read from that part's
    rows (``part_row``), never from the company's; a table captioned as another entity's (``other_entities``:
    'the joint ventures on a 100 percent basis') prints none of the company's, nor does a table whose blocks of
    columns are parts of the company (``Columns.of_parts``). ``quarters``: each report's own
    quarter (0 an annual report), which a column naming no quarter is of (``year_figure``)."""
    if item.part and spec and spec.part_labels:  # a segment's profit measure, as its segment note names it
        spec = replace(spec, labels=spec.labels + spec.part_labels)
    labels = spec.labels if spec else tuple(stem(x) for x in printed_labels(fold(item.name)))
    if item.part:
        return part_operand(item, spec, labels, pages, library_names, quarters)
    months = _months(item, spec)
    ratio = read_in_percent(item) and (spec is None or printed_ratio(spec.name))  # 'CET1 capital ratio 13.8 %'
    best, best_key = None, None
    for rank, page in enumerate(pages):
        rows = [c for c in page_candidates(page.text, page.sha1, page.page_index) if c.source == "row"]
        for i, cand in enumerate(rows):
            if other_entities and names_any(f"{cand.caption} {cand.section}", other_entities) or cand.of_parts or \
                    part_section(cand.caption, cand.section, page.parts):
                continue  # another entity's table; a table of parts, whose first block is a segment's; a part's
            if _averaged(cand, item):
                continue
            match = _row_match(cand, spec, labels)
            match = 3.0 if match and item.written and written_row(cand.label, item.written) else match
            fig = year_figure(cand, item.year, months, own(quarters, cand), item.quarter,
                              ratio and not _percent_above(rows, i)) if match >= 1.0 else None
            if fig is None:
                continue
            standing = (TYPED if page.statement else 0.0) + (TITLED if page.titled_statement else 0.0) + \
                (CONSOLIDATED if page.consolidated else 0.0)
            key = (match + standing, -rank, preference(cand.label, labels, item.written))
            if best_key is None or key > best_key:
                best, best_key = (cand, fig, rows, i), key
    if best is None:
        return None
    cand, fig, rows, i = best
    value = fig.value / 100 if ratio else _signed(cand.value_of(fig), spec, rows, i, item.year)
    scale, words = (1.0, "") if ratio else (cand.scale, cand.scale_words)
    return Operand(item.name, item.year, value, fig.written, cand.label, cand.sha1, cand.page_index, scale, words,
                   months=item.months, quarter=item.quarter)


def _percent_above(rows: list[Candidate], i: int) -> bool:
    """Row ``i`` prints no '%' but a row above it in its table does: a table that marks only its first ratio
    ('Return on common equity 20 %' over 'Return on assets 1.51'), whose ratios below are percentages too."""
    cand = rows[i]
    if any(f.percent for f in cand.figures):
        return False
    above = [r for r in rows[max(0, i - 8):i] if r.caption == cand.caption]
    return any(f.percent for r in above for f in r.figures)


AVERAGE_RE = re.compile(r"\baverage\b", re.I)
AVERAGE_BALANCES_RE = re.compile(r"\baverage\s+(?:daily\s+)?balances?\b", re.I)


def _averaged(cand: Candidate, item: Item) -> bool:
    """A row of a table of average balances ('Average balances / Three months ended ...' / 'Total deposits'):
    the balance's average over the period, not the balance an item asks (unless it asks an average)."""
    return not AVERAGE_RE.search(f"{item.name} {cand.label}") and \
        AVERAGE_BALANCES_RE.search(f"{cand.caption[-80:]} {cand.section}") is not None


def _signed(value: float, spec: ItemSpec | None, rows: list[Candidate], i: int, year: int) -> float:
    """Row ``i``'s figure with the sign the library gives its item (an amount without one is positive, unless its
    label names both signs: 'Net cash provided by (used in) financing activities (6,701)' is -6,701)."""
    if not (spec and spec.signed):
        return value if TWO_SIGNED_RE.search(rows[i].label) else abs(value)
    if value > 0 and LOSS_ONLY_RE.search(fold(label_head(rows[i].label))):
        return -value  # 'Net loss 660' printed without brackets: the loss is the sign
    if spec.deducted and printed_as_deduction(rows, i, year):
        return -value  # 'Provision for income taxes (491)' subtracted as printed: an expense of 491
    return value


def _row_match(cand: Candidate, spec: ItemSpec | None, labels: tuple[str, ...]) -> float:
    """How the row's label matches the item's labels; a qualifier under its heading counts when the two make one
    of the labels exactly ('Earnings per share:' / 'Diluted' is 'earnings per share diluted'), a little below the
    label itself."""
    if not spec:
        row = stem(folded_label(cand.label))  # without an aside printing figures: "Deposits (included $51,568 ...)"
        return 0.0 if labels and opposed_head(row, labels[0]) else label_match(row, labels)
    match = label_match(cand.label, labels)
    if match < 2.5 and cand.section:
        whole = label_match(f"{cand.section} {cand.label}", labels)
        if whole >= 2.5:
            match = max(match, whole - 0.5)
        elif PER_SHARE_RE.search(cand.section) and label_match(cand.section, labels) >= 2.5 and \
                PROFIT_ROW_RE.match(folded_label(cand.label)):
            match = max(match, 2.0)  # 'Diluted Earnings Per Common Share' / 'Net income attributable to X 5.06'
        elif PER_SHARE_RE.search(cand.section) and _qualifies(cand.section, cand.label, labels):
            match = max(match, 2.0)  # 'Earnings per share data' / 'Diluted'
    return match


def _qualifies(section: str, label: str, labels: tuple[str, ...]) -> bool:
    """The row's label is the one word that qualifies one of the item's labels ('diluted' of 'diluted earnings
    per share') and its heading starts with the rest of it ('Earnings per share data')."""
    word = folded_label(label)
    for want in (w.split() for w in labels):
        if len(want) > 1 and word in (want[0], want[-1]):
            rest = " ".join(want[1:] if want[0] == word else want[:-1])
            if label_match(section, (rest,)) >= 2:
                return True
    return False


PER_SHARE_RE = re.compile(r"\bper\s+(?:common\s+|ordinary\s+)?share\b", re.I)
PROFIT_ROW_RE = re.compile(r"(?:net\s+)?(?:income|earnings|profit|loss)\b")  # the profit a per-share figure divides


def own(quarters: dict[str, int] | None, cand: Candidate) -> int:
    """The quarter ``cand``'s report is of: 0 an annual report, -1 unknown."""
    return (quarters or {}).get(cand.sha1, -1)


def _months(item: Item, spec: ItemSpec | None) -> int:
    """The columns ``item`` is read in: its months, but a balance (a balance sheet's) is at a date, whatever the
    period asked."""
    return 0 if spec and spec.statement == "balance_sheet" else item.months


def part_row(cand: Candidate, part: str, spec: ItemSpec | None, labels: tuple[str, ...], library_names=()) -> float:
    """How surely ``cand`` prints the part's figure of the item (0 when it does not): 2 when the row is the part's
    (its label the part's name) under a heading or caption naming the item (a segment table: 'Net sales' /
    'Aeronautics 26,748'); 1.5 when the row is the item's (its label one of the item's) under a caption naming
    the part (a segment's own results: 'Aeronautics' operating results ...' / 'Net sales 26,748')."""
    if names_part(cand.label, part) and (names_item(cand.section, spec, labels, library_names) or
                                         (not cand.section or names_part(cand.section, part)) and
                                         names_item(cand.caption, spec, labels, library_names)
                                         and _nearest_is(cand.caption, spec, library_names)):
        return 2.0
    if label_match(SEGMENT_WORDS_RE.sub("", cand.label), labels) >= 2.5 and heads(cand.caption, part):
        return 1.5
    return 0.0


def _nearest_is(caption: str, spec: ItemSpec | None, library_names) -> bool:
    nearest = nearest_items(caption, library_names)
    return not nearest or spec is None or spec.name in nearest


def block_figure(cand: Candidate, item: Item, months: int, library_names, own_quarter: int = -1):
    """The figure of ``item``'s year in the column block of the item, when a row prints the year in several blocks
    whose items its caption names in order ('Net Sales ... Operating Income' / 'Consumer 4,796 4,731 1,027 1,004'):
    the n-th named item's figure is the year's n-th. Else the year's figure as usual."""
    dated = [f for f in cand.figures if f.period == str(item.year) and not f.percent]
    named = items_named(cand.caption, library_names)
    if len(dated) >= 2 and len(named) == len(dated) and item.name in named:
        return dated[named.index(item.name)]
    return year_figure(cand, item.year, months, own_quarter, item.quarter)


def column_figure(cand: Candidate, item: Item, spec: ItemSpec | None, labels: tuple[str, ...]):
    """The figure of ``item.part`` in the item's row of a table whose columns are the company's parts (their
    names in a header row or the lines above it: ``column_parts``), one column a part or one block of columns a
    part ('Retail Banking Wholesale Banking' over '2023 2022 2023 2022'), in the asked year's column: the
    column's own year, else the year the table's header names first (its first block of columns)."""
    if label_match(SEGMENT_WORDS_RE.sub("", cand.label), labels) < 2.5:
        return None
    figs = cand.figures
    width = len({f.period for f in figs}) if all(f.period for f in figs) else 1
    blocks = len(figs) // width if len(figs) % width == 0 else 0
    at = part_column(cand.names, cand.name_lines, item.part, blocks) if blocks else None
    if at is None:
        return None
    months = _months(item, spec)
    return next((f for f in figs[at * width:(at + 1) * width]
                 if not f.percent and (f.period or cand.first_year) == str(item.year) and not f.quarter and
                 f.months in ((months, 0) if months else (0, 12))), None)


def _in_block(cand: Candidate, block: str, outer: str, inner: str) -> bool:
    """A row may print the part's figure: for a part within a part (``outer`` > ``inner``), a row in the outer
    part's block ('Pharmaceutical (1)' / 'U.S.'); for a part, not a row named as it in another part's block
    ('Consumer Health' / 'International' is the segment's international sales, not the company's)."""
    if outer:
        return bool(block) and same_part(block, outer)
    return not block or same_part(block, inner) or not names_part(cand.label, inner)


COLUMN_SURE = 1.25  # a part's column of the item's row: below a row named as the part's (2) or headed by it (1.5)


def part_operand(item: Item, spec: ItemSpec | None, labels: tuple[str, ...], pages: list[SourcePage],
                 library_names=(), quarters: dict[str, int] | None = None) -> Operand | None:
    """The row of ``pages`` that prints ``item.part``'s figure of the item in the year's column (the surest, then
    the best-ranked page), or None; ``library_names``: (item, name) of the library, to read column blocks."""
    outer, _, inner = item.part.rpartition(NESTED_SEP)
    best, best_key = None, None
    for rank, page in enumerate(pages):
        for cand in page_candidates(page.text, page.sha1, page.page_index):
            if cand.source != "row" or not _in_block(cand, part_section(cand.caption, cand.section, page.parts),
                                                     outer, inner):
                continue
            sure = part_row(replace(cand, section="") if outer else cand, inner, spec, labels, library_names)
            fig = (block_figure(cand, item, _months(item, spec), library_names, own(quarters, cand)) if sure
                   else None)
            if fig is None and (fig := column_figure(cand, item, spec, labels)) is not None:
                sure = COLUMN_SURE
            if fig is not None and (best_key is None or (sure, -rank) > best_key):
                best, best_key = (cand, fig), (sure, -rank)
    if best is None:
        return None
    cand, fig = best
    value = cand.value_of(fig)
    return Operand(item.name, item.year, value if spec and spec.signed else abs(value), fig.written,
                   cand.label, cand.sha1, cand.page_index, cand.scale, cand.scale_words, item.part, item.months,
                   item.quarter)
