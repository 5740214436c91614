"""A yes/no on the share of revenue of a part of the business ('are there any product categories that represent
more than 20% of X's revenue for FY2022?'), decided by Python from the tables whose rows add up to a revenue
total: of those, the finest (most parts) decides, True when its largest row is over the asked share. No such
table: the question is left to the statements reader."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_assets.answer.evidence.candidates import Candidate, page_tables
from rag_assets.answer.evidence.computed import Computation, source_pages
from rag_assets.answer.question.period import asked_period
from rag_assets.answer.question.wording import canonical
from rag_assets.answer.question.metric_library import Library
from rag_assets.answer.evidence.operands import Operand, label_match, year_figure

PARTS = r"(?:categor(?:y|ies)|segments?|divisions?|product\s+lines?|business\s+lines?|lines?\s+of\s+business|" \
        r"brands?|regions?|geograph\w*|products?|services?)"
SHARE_RE = re.compile(
    rf"\b(?:any|a|one)\s+(?:single\s+)?(?P<what>[^?]{{0,60}}?\b{PARTS})\b[^?]{{0,30}}?\b(?:represent\w*|"
    r"account\w*\s+for|make\s+up|makes\s+up|made\s+up|contribut\w*|generat\w*|constitut\w*|compris\w*)\s+"
    r"(?:more\s+than|over|greater\s+than|in\s+excess\s+of|above)\s+(?P<pct>\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+"
    r"[^?]{0,40}?\b(?:revenues?|net\s+sales|sales|turnover)\b", re.I)
SUM_TOLERANCE = 0.005  # the parts must add up to the total within half a percent (rounding of printed figures)


@dataclass(frozen=True)
class Breakdown:
    """Rows of one table that add up to its revenue row, in one fiscal year."""

    total: tuple[Candidate, float]
    parts: tuple[tuple[Candidate, float], ...]

    @property
    def largest(self) -> tuple[Candidate, float]:
        return max(self.parts, key=lambda p: p[1])

    @property
    def share(self) -> float:
        return self.largest[1] / self.total[1]


def share_asked(question: str) -> float | None:
    """The share of revenue ``question`` asks whether a part exceeds (0.2 for '20%'); None when it asks none."""
    m = SHARE_RE.search(question)
    if m is None or "customer" in m.group("what").lower():
        return None
    return float(m.group("pct")) / 100


def _figure(row: Candidate, year: int) -> float | None:
    fig = year_figure(row, year)
    return row.value_of(fig) if fig is not None else None


def _breakdown(rows: list[Candidate], k: int, year: int, labels: tuple[str, ...]) -> Breakdown | None:
    """The rows right above revenue row ``k`` that add up to it (a header row or another revenue total ends
    them; 'Sales of products' only starts like one)."""
    total = _figure(rows[k], year)
    if total is None or total <= 0:
        return None
    parts = []
    for row in reversed(rows[:k]):
        value = _figure(row, year)
        if value is None or label_match(row.label, labels) >= 3.0:
            break
        parts.insert(0, (row, value))
    positive = [p for p in parts if p[1] > 0]
    if len(positive) < 2 or abs(sum(v for _, v in parts) - total) > SUM_TOLERANCE * total:
        return None
    return Breakdown((rows[k], total), tuple(positive))


def breakdowns(text: str, sha1: str, page_index: int, year: int, labels: tuple[str, ...]) -> list[Breakdown]:
    """Every revenue breakdown of a page's markdown tables in ``year``."""
    return [b for rows in page_tables(text, sha1, page_index) for k, r in enumerate(rows)
            if label_match(r.label, labels) >= 2.0 and (b := _breakdown(rows, k, year, labels)) is not None]


def _operand(row: Candidate, value: float, year: int, item: str) -> Operand:
    fig = year_figure(row, year)
    return Operand(item, year, value, fig.written, row.label, row.sha1, row.page_index, row.scale, row.scale_words)


def decide_share(question: str, retriever, sha1s, library: Library, lexicon) -> Computation | None:
    """True/False from the revenue breakdowns of the reports' statement and best pages; N/A when none is
    found; None when the question asks no share of revenue."""
    text = canonical(question)  # 'more than a fifth of' is 'more than 20% of'
    bound, year = share_asked(text), asked_period(text).target
    if bound is None or year is None:
        return None
    comp = Computation(formula=f"largest part / total revenue {year} > {bound:g}", how="a revenue breakdown")
    labels = library.items["revenue"].labels
    found = [b for page in source_pages(retriever, sha1s, "income_statement", "revenue by segment category",
                                        lexicon)
             for b in breakdowns(page.text, page.sha1, page.page_index, year, labels)]
    if not found:
        comp.notes.append(f"no table's rows add up to a revenue total of {year}: the model judges")
        return comp
    best = max(found, key=lambda b: (len(b.parts), b.share))  # the finest breakdown the filing prints
    comp.value = best.share > bound
    row, value = best.largest
    comp.operands = [_operand(row, value, year, f"largest part ({row.label})"),
                     _operand(best.total[0], best.total[1], year, "revenue")]
    comp.notes.append(f"decided from {len(found)} revenue breakdown(s): the largest part, {row.label!r}, is "
                      f"{best.share:.1%} of revenue {year} -> {comp.value}")
    return comp
