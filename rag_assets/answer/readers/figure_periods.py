"""Whether a candidate, or one of its figures, is of the period a question asks: a part of the year (a quarter,
six or nine months, the year to date), a quarter named by a table's columns or an interim filing's own, a date
asked 'at'."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.candidates import Candidate
from rag_assets.answer.evidence.figures import Figure
from rag_assets.answer.question.period import asked_period

INTERIM_WORDS_RE = re.compile(r"\b(?:quarter|three|six|nine|months|half|year[\s-]to[\s-]date|ytd|q[1-4])\b", re.I)
# the words a sentence says a part of the year by, per its months (-1: the year to date, whose sentences may
# say it by its months: 'the six months ended June 30')
SPAN_WORDS_RE = {
    3: re.compile(r"\b(?:(?:first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter|quarter(?:ly)?|three[\s-]months?|"
                  r"q[1-4]|[1-4]q(?:\d\d)?)\b", re.I),
    6: re.compile(r"\b(?:six[\s-]months?|6[\s-]months?|(?:first|1st)[\s-]+half|half[\s-]year|h1)\b", re.I),
    9: re.compile(r"\b(?:nine[\s-]months?|9[\s-]months?)\b", re.I),
    -1: re.compile(r"\b(?:year[\s-]to[\s-]date|ytd|six[\s-]months?|nine[\s-]months?|(?:first|1st)[\s-]+half)\b", re.I),
}


def span_fits(span: int, months: int) -> bool:
    """A figure of ``span`` months (0: not known) may be of the months asked (0: the fiscal year, -1: the year to
    date)."""
    if not span:
        return True
    return span == 12 if months == 0 else 0 < span < 12 if months < 0 else span == months


def of_months(cand: Candidate, months: int) -> bool:
    """The candidate prints a figure of a part of the year asked (``months``: 3, 6, 9, or -1 the year to date): a
    row with a column of those months, a sentence that says that part of the year ('For the second quarter ...,
    earnings per share of $4.75' is no figure of the six months). A fiscal year's column is not."""
    if cand.source == "row":
        if any(f.months and span_fits(f.months, months) for f in cand.figures):
            return True  # an undated row ('Operational Sales 7.5%') under a caption naming the quarter is of it
        return not any(f.period or f.months for f in cand.figures) and \
            INTERIM_WORDS_RE.search(cand.caption) is not None
    span = SPAN_WORDS_RE.get(months)
    return (span or INTERIM_WORDS_RE).search(cand.label) is not None


def other_quarters(cand: Candidate, quarter: tuple[int, int]) -> bool:
    """A sentence naming quarters, none of them the one asked ('target ... for the first quarter of 2024
    remains at 13.5%' when the second quarter of 2023 is asked): its figures are of those."""
    named = asked_period(cand.label).points if cand.source == "text" else ()
    return bool(named) and tuple(quarter) not in named


def _own_column(fig: Figure, own: int) -> bool:
    """``fig`` stands in a three-month column naming no quarter of an interim filing, which is its own quarter's
    (``own``: the quarter the filing reports on; 0 an annual report)."""
    return bool(own) and fig.months == 3 and not fig.quarter


def of_quarter(fig, cand: Candidate, quarter: tuple[int, int] | None, own: int = 0) -> bool:
    """``fig`` may be the quarter asked: any figure when none is asked, only the figure of that year's quarter
    where its table names quarters ('1Q23' for the first quarter of 2023), and never a three-month column of an
    interim filing reporting on another quarter (``own``: the second quarter's 10-Q for the first quarter)."""
    if not quarter:
        return True
    if not any(f.quarter for f in cand.figures):
        return not (_own_column(fig, own) and own != quarter[1])
    return fig.period == str(quarter[0]) and fig.quarter == quarter[1]


def of_span(fig, cand: Candidate, months: int) -> bool:
    """``fig`` may be of the length of period asked: any figure when the row's columns are all of one length,
    else only those of the months asked (a year, 0: its twelve-month columns, never the fourth quarter's beside
    them in an earnings release; a quarter, 3: never the six months' beside it)."""
    lengths = {f.months for f in cand.figures}
    if cand.source != "row" or len(lengths) < 2:
        return True
    if not fig.period and not fig.months and lengths - {0} == {months}:
        return True  # a change column beside columns of the months asked ('% Change' of two quarters) is of them
    if months in (0, 12):
        return fig.months in (0, 12) if lengths & {0, 12} and lengths - {0, 12} else True
    if months < 0:
        return 0 < fig.months < 12
    return fig.months == months if months in lengths else True


def of_period(fig: Figure, year: int, months: int, quarter: tuple[int, int] | None, own_quarter: int = 0,
               as_of: tuple[int, int] | None = None) -> bool:
    """``fig`` is of the period asked: the quarter's column (a column naming it, or a three-month column of the
    filing that reports on it: ``own_quarter``), else the year's column of the months asked; in an interim filing, a
    date asked 'at' (``as_of``) ending a calendar quarter: the column naming it ('1Q23' at March 31, 2023) too."""
    if as_of and own_quarter and not months and not quarter and as_of[0] == year and as_of[1] % 3 == 0:
        ends = {0, own_quarter} if as_of[1] == 3 * own_quarter else {as_of[1] // 3}
        if fig.months == 3 and fig.period == str(year) and fig.quarter in ends:
            return True  # a column dated at that date ('June 30, 2023') too, as any year's below
    if quarter:
        if _own_column(fig, own_quarter) and own_quarter == quarter[1]:
            return fig.period == str(quarter[0])
        return fig.period == str(quarter[0]) and fig.quarter == quarter[1]
    return fig.period == str(year) and (fig.months == months if months else fig.months in (0, 12) and not fig.quarter)
