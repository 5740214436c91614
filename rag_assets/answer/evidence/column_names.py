"""The name of each figure's column, as a table's header rows print them ('Reported | Operational | Currency |
Adjusted Operational'), a row of names under the header continuing the names above it."""

from __future__ import annotations

from rag_assets.answer.evidence.table_headers import FOOTNOTE_MARKS_RE


class HeaderRows:
    """A table's header rows, taken in as its rows are read top-down."""

    def __init__(self) -> None:
        self.rows: list[list[str]] = []

    def took(self, cells: list[str], header: bool, started: bool) -> bool:
        """Keep ``cells`` when they are a header row (``header``: the table's columns took them in) or, before
        the first row of figures (``started`` false), a row of names with an empty first cell ('| | ... |
        Operational |'); True when kept: the row is no candidate."""
        if header or not started and cells and not cells[0].strip() and any(c.strip() for c in cells):
            self.rows.append(cells)
            return True
        return False

    def columns(self, count: int) -> tuple[str, ...]:
        """The names of a row's ``count`` figures (``figure_columns``)."""
        return figure_columns(self.rows, count)


def figure_columns(headers: list[list[str]], count: int) -> tuple[str, ...]:
    """The name of each of a row's ``count`` figures as the header rows print them, in order ('2023 | 2022 |
    Reported | Operational | Currency | Adjusted Operational'): a name a later header row prints under an empty
    cell continues the name before it ('Adjusted' / 'Operational'); () unless there are as many names as figures."""
    names: dict[int, str] = {}
    for cells in headers:
        first = not names  # the first row naming columns names each; a later one continues them
        for i, cell in enumerate(cells[1:], 1):
            if cell.strip():
                at = i if first or i in names or i < min(names) else max(k for k in names if k <= i)
                names[at] = f"{names.get(at, '')} {FOOTNOTE_MARKS_RE.sub('', cell).strip()}".strip()
    return tuple(names[i] for i in sorted(names)) if len(names) == count else ()
