"""The fiscal period a question asks, in every common form analysts write it: 'FY2019', 'FY 2019', 'FY19',
'fiscal 2019', 'the fiscal year ended May 26, 2019', 'Q2 of FY2023', 'the second quarter of 2023', '2Q23',
'Q2 2023', "in '21", spans such as 'FY2017 - FY2019', 'FY17-FY19', 'from fiscal 2016 through 2018'; and whether
it asks a part of a year ('H1 2022', 'the six months ended'), which no annual column answers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag_assets.answer.question.quarter_words import ORDINAL, quarters_in_words
from rag_assets.answer.question.sources import SOURCE_RE
from rag_assets.answer.question.text import dates_in_words
from rag_assets.answer.question.year_windows import window_years
from rag_assets.storage.covers import YEAR  # a fiscal year as reports and questions print it

TWO_DIGIT_FY_RE = re.compile(r"\b(FY|fiscal(?:\s+year)?)\s?['’]?(\d{2})(?!\d|[.,]\d|\s*%)", re.I)
QUARTER_FIRST_RE = re.compile(r"\b([1-4])Q\s?(?:FY\s?)?['’]?(\d{2}|\d{4})\b", re.I)  # 2Q23, 2Q 2023, 2Q FY2023
PART_SHORT_RE = re.compile(r"\b([69]M|[12]H|H[12])\s?['’]?(\d{2})\b")  # 9M23, 1H23, H1'23: months before a two-digit year
QUARTER_SHORT_RE = re.compile(r"\bQ([1-4])\s?(?:FY\s?)?['’](\d{2})\b|\bQ([1-4])\s?FY\s?(\d{2})\b", re.I)  # Q2'23, Q2 FY23
_FISCAL = r"(?:FY\s?|fiscal\s+(?:year\s+)?)"
SPAN_RE = re.compile(rf"(?<![\w.])({_FISCAL}?)({YEAR})\s*(?:-|–|—|to|through|thru)\s*{_FISCAL}?({YEAR})(?![\w])", re.I)
Q_ASKED_RE = re.compile(rf"\b(?:Q([1-4])|({'|'.join(ORDINAL)})[\s-]+(?:fiscal[\s-]+)?quarter)\b", re.I)
YEAR_ASKED_RE = re.compile(rf"(?<![\w.])(?:FY\s?|fiscal\s+(?:year\s+)?)?({YEAR})(?![\w])", re.I)
MAX_SPAN = 10  # a span longer than this is read as its two ends
RANGE_WORDS_RE = re.compile(r"\b(?:between|until|till|from)\b", re.I)  # 'between 2020 and 2022': every year of it
APOSTROPHE_YEAR_RE = re.compile(r"(?<![\w'’])['’](\d{2})(?![\w'’]|\s*%)")  # "in '21"
# months written short before a year, as releases write them ('9M 2023', '6M FY23', '9M23'; '$9M' is money)
_SHORT_MONTHS = r"(?<![$€£\d.,]){n}M(?=\s*(?:FY\s?|fiscal\s+)?(?:(?:19|20)\d\d|\d\d)\b)"
# a half year or a year to date: the annual columns do not answer it
PART_YEAR_RE = re.compile(r"\b(?:H[12]|[12]H|(?:first|second|1st|2nd)[\s-]+half|half[\s-]+year(?:ly)?|semi[\s-]?annual|"
                          r"(?:six|6|nine|9)[\s-]+months?|year[\s-]+to[\s-]+date|YTD)\b|\b" + _SHORT_MONTHS.format(n="[69]"),
                          re.I)
# how many months a part of a year covers: its columns in interim filings ('Six months ended June 30')
HALF_RE = re.compile(r"\b(?:H1|1H|(?:first|1st)[\s-]+half|half[\s-]+year(?:ly)?|semi[\s-]?annual|(?:six|6)[\s-]+months?)\b|\b"
                     + _SHORT_MONTHS.format(n="6"), re.I)
NINE_RE = re.compile(r"\b(?:nine|9)[\s-]+months?\b|\b" + _SHORT_MONTHS.format(n="9"), re.I)
TO_DATE_RE = re.compile(r"\b(?:year[\s-]+to[\s-]+date|YTD)\b", re.I)
QUARTER_ENDED_RE = re.compile(r"\b(?:quarter|three[\s-]+months?|3[\s-]+months?)\s+(?:period\s+)?end(?:ed|ing)\b", re.I)
TO_DATE = -1  # the months of a year to date: the longest interim column the filing prints
LATEST_YEAR_RE = re.compile(r"\b(?:the\s+|its\s+|their\s+)?(?:(?:most\s+recent|latest)\s+(?:(?:fiscal|financial|reporting)\s+)?"
                            r"(?:year|period)|(?:last|current|this)\s+(?:fiscal|financial)\s+year)\b", re.I)


def asks_latest_year(question: str) -> bool:
    """The question asks 'the most recent fiscal year', 'the latest year', 'last fiscal year' and names no year."""
    return LATEST_YEAR_RE.search(question) is not None and not asked_period(question).years


def with_latest_year(question: str, year: int | None) -> str:
    """``question`` with 'the most recent fiscal year', 'the latest year', 'last fiscal year' written as the year
    of the report that answers it (the company's latest annual report: ``year``), when it names no year itself;
    otherwise unchanged."""
    if year is None or not asks_latest_year(question):
        return question
    return LATEST_YEAR_RE.sub(f"fiscal {year}", question)


# 'the most recent quarter', 'its latest reported quarter', 'the last quarter' named without a year: the latest
# quarter the company's filings report
LATEST_QUARTER_RE = re.compile(r"\b(?:the\s+|its\s+|their\s+)?(?:most\s+recent(?:ly)?|latest|last|current)\s+"
                               r"(?:reported\s+)?(?:fiscal\s+)?quarter(?:\s+(?:reported|available|on\s+record))?\b",
                               re.I)


def asks_latest_quarter(question: str) -> bool:
    """The question asks 'the most recent quarter' (or 'the latest quarter', 'the last quarter') and names no year."""
    return LATEST_QUARTER_RE.search(question) is not None and not asked_period(question).years


def with_latest_quarter(question: str, point: tuple[int, int] | None) -> str:
    """``question`` with 'the most recent quarter' written as the quarter ``point`` (year, quarter) names, when it
    asks one and names no year; otherwise unchanged."""
    if point is None or not asks_latest_quarter(question):
        return question
    return LATEST_QUARTER_RE.sub(f"Q{point[1]} {point[0]}", question)


def _century(two: str) -> str:
    return ("20" if int(two) < 70 else "19") + two


# a retailer's fiscal periods in weeks ('the 13 weeks ended July 2, 2023', 'the 26 weeks ended'): their months; a
# fiscal quarter of 12, 13, 16 or 17 weeks (a year of 12-12-12-16 weeks, or of 16-12-12-12) is its three months
FYE_RE = re.compile(r"\bFYE(?:\b\.?\s*|(?=\d))", re.I)  # 'FYE May 31, 2019': the fiscal year ended then
WEEKS_RE = re.compile(r"\b(12|13|16|17|twelve|sixteen|24|26|28|36|39|40|52|53)[\s-]+weeks?\b", re.I)
# the last quarter of a named year is its fourth ('the final quarter of fiscal 2019'); 'the last quarter' alone is
# the latest one, not read here
LAST_QUARTER_RE = re.compile(rf"\b(?:last|final|closing)([\s-]+(?:fiscal[\s-]+)?)quarter(?=\s+of\s+(?:the\s+)?"
                             rf"(?:fiscal\s+(?:year\s+)?|FY\s?)?{YEAR}(?!\d))", re.I)
WEEK_MONTHS = {"12": "three months", "13": "three months", "16": "three months", "17": "three months",
               "twelve": "three months", "sixteen": "three months", "24": "six months", "26": "six months",
               "28": "six months", "36": "nine months", "39": "nine months", "40": "nine months", "52": "fiscal year",
               "53": "fiscal year"}


def normalize(text: str) -> str:
    """``text`` with two-digit fiscal years and short quarters written out ('FY19' -> 'FY2019', '2Q23' -> 'Q2
    2023', "Q2'23" -> 'Q2 2023', '9M23' -> '9M 2023'), periods in weeks as months ('13 weeks' -> 'three
    months'), dates in figures in words ('6/30/2023' -> 'June 30, 2023') and quarters in other words as quarters
    (``quarters_in_words``); idempotent."""
    text = FYE_RE.sub("fiscal year ended ", WEEKS_RE.sub(lambda m: WEEK_MONTHS[m.group(1).lower()], text))
    text = MONTH_QUARTER_RE.sub(_quarter_ended, dates_in_words(text))
    text = LAST_QUARTER_RE.sub(lambda m: f"fourth{m.group(1)}quarter", text)
    text = QUARTER_FIRST_RE.sub(lambda m: f"Q{m.group(1)} {m.group(2) if len(m.group(2)) == 4 else _century(m.group(2))}",
                                text)
    text = QUARTER_SHORT_RE.sub(lambda m: f"Q{m.group(1) or m.group(3)} {_century(m.group(2) or m.group(4))}", text)
    text = PART_SHORT_RE.sub(lambda m: f"{m.group(1)} {_century(m.group(2))}", text)
    text = TWO_DIGIT_FY_RE.sub(lambda m: f"{m.group(1)}{' ' if m.group(1).lower() != 'fy' else ''}"
                                         f"{_century(m.group(2))}", text)
    return quarters_in_words(APOSTROPHE_YEAR_RE.sub(lambda m: _century(m.group(1)), text))


@dataclass(frozen=True)
class AskedPeriod:
    years: tuple[int, ...]  # every fiscal year the question names, in order (a span's years all)
    quarter: int | None = None
    part_year: bool = False  # a half year, nine months or a year to date: not a fiscal year's figure
    # the columns asked: 3 a quarter, 6 a half year, 9 nine months, TO_DATE; 0 the fiscal year; 12 the fiscal year's
    # columns of a quarter's document
    months: int = 0
    # each quarter named with its year, in the order written ('from 1Q23 to 2Q23': (2023, 1), (2023, 2))
    points: tuple[tuple[int, int], ...] = ()
    as_of: tuple[int, int] | None = None  # the (year, month) of a date asked 'as of' ('as of January 31, 2023')
    listed: bool = False  # the years are named one by one ('fiscal 2020 and fiscal 2022'), not as a range

    @property
    def target(self) -> int | None:
        """The year whose filing answers: the latest named (a change 'between FY2021 and FY2022' is read in
        the FY2022 report, which prints both)."""
        return max(self.years) if self.years else None

    @property
    def span(self) -> tuple[int, ...]:
        """Every year from the first named to the last ('FY2017 - FY2019': 2017, 2018, 2019); the years named one
        by one, when they are (``listed``: 'the combined net income of fiscal 2020 and fiscal 2022' is of two)."""
        if self.listed:
            return tuple(sorted(self.years))
        return tuple(range(min(self.years), max(self.years) + 1)) if self.years else ()


# a quarter that names the document read, not the period asked: "full-year 2022 net earnings per the Q4 2022 earnings
# release" asks the year (its year is kept)
DOCUMENT_QUARTER_RE = re.compile(rf"\b(?:Q[1-4]|(?:{'|'.join(ORDINAL)})[\s-]+(?:fiscal[\s-]+)?quarter)\s+(?:of\s+)?"
                                 rf"(?:(?:FY\s?|fiscal\s+)?({YEAR})\s+)?(?=(?:earnings|results|press|10-?Q|interim|quarterly|"
                                 rf"financial\s+(?:report|statements)|report|release|filing)\b)", re.I)
FULL_YEAR_RE = re.compile(r"\bfull[\s-]+(?:fiscal[\s-]+)?year\b|\b(?:twelve|12)[\s-]+months\b", re.I)
# the words that name a part of the year ('the second quarter', '2Q23', 'the first six months', 'year-to-date'): when,
# not what; a figure's row or sentence is matched by its other words, its column by the period read
INTERIM_PHRASE_RE = re.compile(r"\b(?:the\s+)?(?:first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal[\s-]+)?"
                              r"quarter\b|\b(?:the\s+)?(?:first\s+)?(?:three|six|nine|3|6|9)[\s-]+months?(?:\s+"
                              r"(?:period\s+)?end(?:ed|ing))?\b|\b(?:the\s+)?first[\s-]+half\b|\bhalf[\s-]+year\b|"
                              r"\byear[\s-]+to[\s-]+date\b|\bytd\b|\bq[1-4]\b|\b[1-4]q\s?['’]?\d{2}\b|"
                              r"\b(?:[69]m|[12]h|h[12])\s?['’]?\d{2}\b", re.I)
# a fiscal year named as one ('for the fiscal year 2022', 'fiscal 2022', 'FY2022'): beside a quarter's document
# ('according to its fourth-quarter earnings release') and no other quarter, the year's figure is asked
FISCAL_YEAR_NAMED_RE = re.compile(rf"\b(?:fiscal[\s-]+(?:year[\s-]+)?|FY\s?)({YEAR})\b", re.I)


_ORD = "|".join(ORDINAL)
# two quarters or more of one year named at once ('the first and second quarters of 2023', 'Q1 and Q2 2023')
_LIST_SEP = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
QUARTER_LIST_RE = re.compile(rf"\b((?:(?:{_ORD}){_LIST_SEP})+(?:{_ORD}))[\s-]+(?:fiscal[\s-]+)?quarters\b|"
                             rf"\b(Q[1-4](?:{_LIST_SEP}Q[1-4])+)\b", re.I)


def quarters_listed(text: str) -> tuple[int, ...]:
    """The quarters ``text`` names together ('the first and second quarters' -> (1, 2)), in order; () for none or
    one."""
    m = QUARTER_LIST_RE.search(text)
    if m is None:
        return ()
    words = re.findall(rf"{_ORD}|[1-4](?=\b)", (m.group(1) or m.group(2)).lower())
    return tuple(dict.fromkeys(ORDINAL.get(w) or int(w) for w in words))


QUARTER_OF_YEAR_RE = re.compile(rf"{Q_ASKED_RE.pattern}\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?({YEAR})(?![\w])", re.I)


MONTH_NUMBERS = {m: n for n, names in enumerate(("jan january", "feb february", "mar march", "apr april", "may",
                                                  "jun june", "jul july", "aug august", "sep sept september",
                                                  "oct october", "nov november", "dec december"), 1)
                 for m in names.split()}
DATE_RE = re.compile(rf"\b({'|'.join(sorted(MONTH_NUMBERS, key=len, reverse=True))})\.?\s+(\d{{1,2}}),?\s+({YEAR})\b",
                     re.I)
# a quarter named by the month it closes ('the June 2023 quarter', 'the December quarter of 2022'): the quarter
# ended on that month's last day
_MONTH_NAMES = "|".join(n for n in MONTH_NUMBERS if len(n) > 3)
MONTH_QUARTER_RE = re.compile(rf"\b(?P<m>{_MONTH_NAMES})(?:[\s-]+quarter\s+(?:of\s+|in\s+)?(?:fiscal\s+|FY\s?)?(?P<y>{YEAR})|"
                              rf"\s+(?P<y2>{YEAR})[\s-]+quarter)\b", re.I)
LAST_DAY = {2: 28, 4: 30, 6: 30, 9: 30, 11: 30}


def _quarter_ended(m: re.Match) -> str:
    month = m.group("m")
    return f"quarter ended {month.capitalize()} {LAST_DAY.get(MONTH_NUMBERS[month.lower()], 31)}, " \
           f"{m.group('y') or m.group('y2')}"


LAST_DAYS = 7  # a period ending in the first week of a month ends the month before (52/53-week fiscal calendars)
AS_OF_DATE_RE = re.compile(rf"\b(?:as\s+of|at)\s+(?:the\s+close\s+of\s+business\s+(?:on\s+)?)?({DATE_RE.pattern})", re.I)
AS_OF_MONTH_RE = re.compile(rf"\b(?:as\s+of|at)\s+(?:the\s+(?:end|close)\s+of\s+)?({_MONTH_NAMES})\s+({YEAR})\b", re.I)
ENDED_MONTH_RE = re.compile(rf"{QUARTER_ENDED_RE.pattern}\s+(?:in\s+)?({_MONTH_NAMES})\s+{YEAR}\b", re.I)
ENDED_DATE_RE = re.compile(rf"{QUARTER_ENDED_RE.pattern}\s+({DATE_RE.pattern})", re.I)


EARLY_YEAR_RE = re.compile(rf"\b(?:in|as\s+of|at)\s+(?:the\s+)?early\s+(?:part\s+of\s+)?({YEAR})\b", re.I)


def _as_of_month(text: str) -> tuple[int, int] | None:
    """The (year, month) of a month asked 'as of' with no day ('as of January 2018'); 'in early 2020' is its first
    month (a date the annual report of the year before prints on its cover: holders of record, shares)."""
    m = AS_OF_MONTH_RE.search(text)
    early = EARLY_YEAR_RE.search(text)
    return (int(m.group(2)), MONTH_NUMBERS[m.group(1).lower()]) if m else (int(early.group(1)), 1) if early else None


def _month_end(m: re.Match) -> tuple[int, int]:
    """The (year, month) a date of ``DATE_RE`` closes: 'January 1, 2023' closes December 2022 (a 52/53-week year
    that ends in the first days of January is the year before's), 'July 2, 2023' closes June 2023."""
    year, month = int(m.group(3)), MONTH_NUMBERS[m.group(1).lower()]
    if int(m.group(2)) <= LAST_DAYS:
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return year, month


def _calendar_quarter(ended: re.Match | None) -> int | None:
    """The quarter 'the quarter ended <date>' names when it closes a calendar quarter ('July 2, 2023': the
    second); None for another month (a fiscal year that ends in May numbers its quarters otherwise)."""
    return _closing_quarter(_month_end(DATE_RE.search(ended.group(0)))[1] if ended else 0)


def _dated_quarters(text: str) -> tuple[tuple[int, int], ...]:
    """The quarters two dates of one calendar year close ('between March 31, 2023 and June 30, 2023': its first
    and second quarters, whose ends a 10-Q's balances are printed at); () for another pair, or a month that closes
    no calendar quarter (a fiscal year ending in May numbers its quarters otherwise)."""
    ends = list(dict.fromkeys(_month_end(m) for m in DATE_RE.finditer(text)))
    if len(ends) != 2 or ends[0][0] != ends[1][0]:
        return ()
    quarters = [(year, _closing_quarter(month)) for year, month in ends]
    if not all(q for _, q in quarters):  # a month that closes no calendar quarter: no quarters to sort
        return ()
    quarters.sort()
    return tuple(quarters) if quarters[-1][1] != 4 else ()


def _month_quarter(text: str) -> int | None:
    """The quarter 'the quarter ending in June 2023' names (no day written): the calendar quarter that month
    closes; None for another month or none named."""
    m = ENDED_MONTH_RE.search(text)
    return _closing_quarter(MONTH_NUMBERS[m.group(1).lower()] if m else 0)


def _closing_quarter(month: int) -> int | None:
    """The calendar quarter ``month`` closes (6: the second); None for another month or none (0)."""
    return month // 3 if month % 3 == 0 and month else None


def _without_filing_year(text: str) -> str:
    """``text`` without the clause saying where its figure is printed when that clause names a year and the rest
    names one of its own: 'backlog at December 31, 2020, according to its 2021 annual report' asks 2020's (read
    in the filing of 2020, which prints it too), not 2021's; a quarter's document named stays."""
    source = SOURCE_RE.search(text)
    if not source or not YEAR_ASKED_RE.search(source.group(0)) or Q_ASKED_RE.search(source.group(0)):
        return text  # no year, or a quarter's document: its quarter is read ('per its Q2 2022 earnings release')
    rest = SOURCE_RE.sub(" ", text)
    return rest if YEAR_ASKED_RE.search(rest) else text


def _dated_years(text: str) -> str:
    """``text`` with each date's year written as the year its period closes ('the fiscal year ended January 1,
    2023' -> '... January 1, 2022': fiscal 2022); only the years are read from it."""
    return DATE_RE.sub(lambda m: f"{m.group(1)} {m.group(2)}, {_month_end(m)[0]}", text)


# a change against the quarter before ('sequential growth', 'quarter-over-quarter'), not the year before's
SEQUENTIAL_RE = re.compile(r"\bsequential(?:ly)?\b|\bquarter[\s-]+(?:over|on)[\s-]+quarter\b|\bq/q\b|\bqoq\b", re.I)


def _quarter_before(year: int, quarter: int) -> tuple[int, int]:
    return (year, quarter - 1) if quarter > 1 else (year - 1, 4)


def _quarter(q: re.Match) -> int:
    """The quarter a match of ``Q_ASKED_RE`` names ('Q2', 'second quarter')."""
    return int(q.group(1)) if q.group(1) else ORDINAL[q.group(2).lower()]


def _year_of_document(text: str) -> re.Match | None:
    """The quarter's document ('the Q4 2022 earnings release', 'its fourth-quarter release') of which ``text``
    asks the full year: it says 'full year', or names a fiscal year and no part of one; a fourth quarter's
    document, which prints the year that quarter closes, also when the rest names a year or a year's end date
    ('sales for the fiscal year ended January 1, 2023, according to its fourth-quarter earnings release'). None
    otherwise: the document's quarter is the one asked."""
    document = DOCUMENT_QUARTER_RE.search(text)
    if document is None or FULL_YEAR_RE.search(text):
        return document
    rest = f"{text[:document.start()]} {text[document.end():]}"
    if Q_ASKED_RE.search(rest) or INTERIM_PHRASE_RE.search(rest) or QUARTER_ENDED_RE.search(rest):
        return None
    closes_year = _quarter(Q_ASKED_RE.search(document.group(0))) == 4 and YEAR_ASKED_RE.search(rest)
    return document if FISCAL_YEAR_NAMED_RE.search(rest) or closes_year else None


def asked_period(question: str) -> AskedPeriod:
    """The fiscal years and quarter a question names ('FY2018', 'Q2 of FY2023', 'second fiscal quarter of
    2023', 'between 2022 and the 2021 fiscal period', 'FY17-FY19'); a full year asked of a quarter's document
    ('the full-year figure in the Q4 2022 earnings release') is read in that document's twelve-month columns
    (quarter 4, 12 months)."""
    text = normalize(question)
    document = _year_of_document(text)
    if document:  # the full year's columns of the quarter's document: routed to it, read in 12 months
        text = DOCUMENT_QUARTER_RE.sub(lambda m: f"{m.group(1) or ''} ", text)
    text = _without_filing_year(text)
    ended = ENDED_DATE_RE.search(text)  # 'the quarter ended July 2, 2023': a calendar quarter, the second
    as_of = AS_OF_DATE_RE.search(text)
    as_of = _month_end(DATE_RE.search(as_of.group(1))) if as_of else _as_of_month(text)
    text = _dated_years(text)
    years: list[int] = []
    for m in SPAN_RE.finditer(text):
        a, b = int(m.group(2)), int(m.group(3))
        if a < b <= a + MAX_SPAN:
            years += range(a, b + 1)
    listed = not years and not RANGE_WORDS_RE.search(text)
    years = window_years(text) + years + [int(m.group(1)) for m in YEAR_ASKED_RE.finditer(text)]
    listed = listed and not window_years(text)
    q = Q_ASKED_RE.search(text)
    listed_quarters = quarters_listed(text)  # 'the first and second quarters of 2023': read in the latest's filing
    quarter = max(listed_quarters) if listed_quarters else _quarter(q) if q else \
        _calendar_quarter(ended) or _month_quarter(text)
    part_year = PART_YEAR_RE.search(text) is not None
    months = 6 if HALF_RE.search(text) else 9 if NINE_RE.search(text) else TO_DATE if TO_DATE_RE.search(text) \
        else 3 if quarter and not part_year or QUARTER_ENDED_RE.search(text) else 0
    if quarter is None and months in (6, 9):  # the six months to June are reported with the second quarter
        quarter = months // 3
    if months == TO_DATE and quarter:  # 'year to date through the second quarter': its six months
        months = 3 * quarter
    if document:
        quarter, months = _quarter(Q_ASKED_RE.search(document.group(0))), 12
    points = tuple(dict.fromkeys((int(m.group(3)), _quarter(m)) for m in QUARTER_OF_YEAR_RE.finditer(text)))
    named = tuple(sorted({_quarter(m) for m in Q_ASKED_RE.finditer(text)} | set(listed_quarters)))
    if len(named) > len(points) and (points or listed_quarters) and len(set(years)) == 1 and not document:
        points = tuple((years[0], q) for q in named)  # 'in Q4 than in Q3 of 2023', 'the first and second quarters'
    if not points and not document and (dated := _dated_quarters(text)):  # two quarter ends of one year
        points, months = dated, 3
    if len(points) == 1 and months == 3 and SEQUENTIAL_RE.search(text):  # against the quarter before it
        points = (_quarter_before(*points[0]), points[0])
    if points and months == 3 and not document:  # the latest quarter named is read in its own filing
        quarter = max(points)[1]
    return AskedPeriod(tuple(dict.fromkeys(years)), quarter, part_year, months, points, as_of, listed)
