"""A figure as printed, and the figures a sentence prints: each with the year just after it or the one a
'respectively' list gives it, never a year, a day of a date, a note or page reference or a duration."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rag_assets.answer.evidence.numbers import NA, parse_number

TEXT_FIGURE_RE = re.compile(
    r"\(?(?:US\$|A\$|C\$|HK\$|[$€£¥]|\b(?:USD|EUR|GBP|AUD|CAD|CHF|RMB|NOK|SEK)\s?)?(?<![\w.,/-])"
    r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?"
    r"(?:\s?(?:%|percent\b|per cent\b|(?:thousand|million|billion|bn|mn|m|k)\b))?(?![\w/-]|\.\d)", re.I)
# the words before a figure that make it a change of an item, not its level ('increased by 53 million', 'a
# decrease of $12 million', 'the net addition of approximately 11,100 employees', 'up 4%')
CHANGE_BEFORE_RE = re.compile(r"(?:\b(?:net\s+)?(?:additions?|increase|decrease|reduction|decline|growth|rise|drop)\s+of|"
                              r"\b(?:increased|decreased|grew|rose|declined|fell|dropped|improved|added|reduced|cut|up|"
                              r"down)\s+(?:by\s+)?|"  # 'decreased $1.0 million, or 26.5%': the change's percent too
                              r"\b(?:increased|decreased|grew|rose|declined|fell|dropped|improved|reduced)\s+(?:by\s+)?"
                              r"[$€£¥]?\d[\d.,]*(?:\s*(?:thousand|million|billion))?,?\s+or\s+)"
                              r"\s*(?:approximately\s+|about\s+|nearly\s+|some\s+)?[$€£¥]?$", re.I)
POINTS_AFTER_RE = re.compile(r"^\s*(?:(?P<bp>basis[\s-]+points?|bps?\b)|percentage[\s-]+points?\b|pp\b|points?\b)", re.I)
DURATION_AFTER_RE = re.compile(r"^\s*(?:-\s*)?(?:days?|weeks?|months?|years?|hours?|minutes?)\b", re.I)
MONTH_WORD = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" \
             r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b"  # a month's name, not a word it begins ('decreased')
DATE_NEIGHBOUR_RE = re.compile(rf"^\s*{MONTH_WORD}|\b{MONTH_WORD}\.?\s*$", re.I)
REFERENCE_BEFORE_RE = re.compile(r"\b(?:note|notes|page|pages|item|section|chapter|article|rule|level|tier)\s*$", re.I)
PERIOD_AFTER_RE = re.compile(r"^\W{0,3}(?:in|for|during|as of|at|of)?\s*(?:the\s+)?(?:fiscal\s+|FY\s?)?"
                             r"((?:19[89]|20[0-4])\d)\b", re.I)


@dataclass(frozen=True)
class Figure:
    written: str  # as printed: '19,970', '(2,417)', '$31.4 million', '0.25%'
    value: float  # parsed, with its own scale word applied ('31.4 million'), not its table's
    percent: bool
    period: str = ""  # the year of its column or of the words after it; '' when unknown
    months: int = 0  # how many months its column covers, as the table's header says ('Three months ended'); 0 unknown
    quarter: int = 0  # the quarter its column names ('2Q23'); 0 when the header names none
    points: float = 0.0  # a change in points, in percentage points per unit: 1 ('3 percentage points'), 0.01 (bps)

    @property
    def own_scale(self) -> bool:
        return bool(re.search(r"[a-z]\s*$", self.written, re.I)) and not self.percent


def column_name(fig: Figure) -> str:
    """A dated figure's column as the model is shown it: its year, and its quarter or months when its table
    prints a part of the year ('2023 Q2', '2023 6 months'), so that columns of one year are told apart."""
    if fig.quarter:
        return f"{fig.period} Q{fig.quarter}"
    return f"{fig.period} {fig.months} months" if 0 < fig.months < 12 else fig.period


def _not_a_figure(written: str, before: str, after: str) -> bool:
    """A year, a day of a date, a note or page reference, a duration, or a list or section number."""
    if re.fullmatch(r"(?:19[89]|20[0-4])\d", written.strip("()")) or not re.search(r"\d", written):
        return True
    if DATE_NEIGHBOUR_RE.search(before[-12:]) or DATE_NEIGHBOUR_RE.match(after[:12]):  # 'December 31', '31 December'
        return True
    if REFERENCE_BEFORE_RE.search(before[-10:]) or DURATION_AFTER_RE.match(after):
        return True
    at_start = not before.strip(" (•◾-")
    numbering = written.endswith(")") or re.match(r"\s+[A-Z(]", after)
    return bool(at_start and numbering and not re.search(r"[$€£¥%]", written))  # "(39) progress of..."


# 'in 2018, 2017 and 2016, respectively', 'at December 31, 2018 and 2017, respectively': the figures' years in order
RESPECTIVE_RE = re.compile(r"\b((?:19|20)\d\d(?:\s*,\s*(?:and\s+)?(?:19|20)\d\d|\s+and\s+(?:19|20)\d\d)+)\s*,?\s+"
                           r"respectively\b")


def text_figures(sentence: str) -> list[Figure]:
    """The figures a sentence prints, each dated by the year just after it, or by the list of years that a
    'respectively' closes ('$542 million and $541 million at December 31, 2018 and 2017, respectively')."""
    figs, starts = [], []
    for m in TEXT_FIGURE_RE.finditer(sentence):
        written = m.group(0).strip()
        after = sentence[m.end():]
        if _not_a_figure(written, sentence[: m.start()], after):
            continue
        value = parse_number(written)
        if value == NA:
            continue
        period, points = PERIOD_AFTER_RE.match(after[:30]), POINTS_AFTER_RE.match(after)
        figs.append(Figure(written, value, bool(re.search(r"%|percent|per cent", written, re.I)),
                           period.group(1) if period else "", points=(0.01 if points.group("bp") else 1.0) if points
                           and not re.search(r"[%a-z]", written, re.I) else 0.0))
        starts.append(m.start())
    return _respectively(figs, starts, sentence)


def _respectively(figs: list[Figure], starts: list[int], sentence: str) -> list[Figure]:
    """``figs`` with the years of a 'respectively' list given in order to the as many figures just before it,
    when those are of one kind (amounts or percentages)."""
    m = RESPECTIVE_RE.search(sentence)
    years = re.findall(r"(?:19|20)\d\d", m.group(1)) if m else []
    before = [i for i, at in enumerate(starts) if at < m.start()] if m else []
    if len(years) < 2 or len(before) < len(years) or len({figs[i].percent for i in before[-len(years):]}) > 1:
        return figs
    dated = dict(zip(before[-len(years):], years))
    return [replace(f, period=dated[i]) if i in dated else f for i, f in enumerate(figs)]
