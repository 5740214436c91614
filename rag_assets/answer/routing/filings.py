"""Filings as first-class: what kind of document a report is (annual, quarterly, earnings release, 8-K) and
which fiscal period it covers, from ``subset.csv`` when it says so, else read from the report's first pages;
the period a question asks for; and which of a company's filings answer it."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rag_assets.answer.question.period import YEAR, AskedPeriod
from rag_assets.storage.covers import ANNUAL_RE, QUARTER_RE, REPORT_TITLE_RE, titled_year

DOC_TYPES = {  # how subset.csv and file names write a document type -> ours
    "10k": "annual", "10-k": "annual", "annual": "annual", "annual report": "annual", "20f": "annual",
    "20-f": "annual", "10q": "quarterly", "10-q": "quarterly", "quarterly": "quarterly", "8k": "current",
    "8-k": "current", "earnings": "earnings", "earnings release": "earnings",
}
FORM_RE = re.compile(r"\bFORM\s+(10-K|10-Q|8-K|20-F)\b")
NAME_PERIOD_RE = re.compile(rf"(?<!\d)({YEAR})(?:[ _-]?Q([1-4]))?(?!\d)", re.I)
COVER_PAGES = 3  # the pages that state a filing's form and period
LATER_FILING_YEARS = 2  # an annual report prints the two years before its own (income and cash flow statements)


@dataclass(frozen=True)
class Filing:
    sha1: str
    company: str
    doc_type: str = ""  # annual, quarterly, earnings, current ('' unknown)
    year: int | None = None  # the fiscal year it reports on
    quarter: int | None = None
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        period = f"{self.year}" + (f"Q{self.quarter}" if self.quarter else "") if self.year else "?"
        return f"{self.company} {self.doc_type or 'report'} {period}"


def doc_type_of(written: str | None) -> str:
    """Our document type for what ``subset.csv`` writes ('10k', '10-Q', 'Earnings'); '' when unknown."""
    return DOC_TYPES.get((written or "").strip().lower(), "")


def from_row(sha1: str, company: str, row: dict) -> Filing:
    """A filing from a ``subset.csv`` row: ``doc_type``, ``doc_period`` (a year), ``aliases`` (';'-separated);
    a quarter is read from ``doc_name`` ('..._2023Q2_...') when the row has one."""
    period = NAME_PERIOD_RE.search(str(row.get("doc_period") or ""))
    named = NAME_PERIOD_RE.search(str(row.get("doc_name") or ""))
    year = int(period.group(1)) if period else int(named.group(1)) if named else None
    quarter = named.group(2) if named and named.group(1) == str(year) else None
    aliases = tuple(a.strip() for a in str(row.get("aliases") or "").split(";") if a.strip())
    return Filing(sha1, company, doc_type_of(row.get("doc_type")), year, int(quarter) if quarter else None, aliases)


def detect(filing: Filing, first_pages: list[str]) -> Filing:
    """``filing`` completed from its first pages' cover ('FORM 10-K ... for the fiscal year ended December 31,
    2018', 'for the quarterly period ended June 30, 2023'); what the row already says is kept."""
    text = "\n".join(first_pages)
    doc_type, year = filing.doc_type, filing.year
    form = FORM_RE.search(text)
    quarter_m, annual_m = QUARTER_RE.search(text), ANNUAL_RE.search(text)
    if not doc_type and form:
        doc_type = doc_type_of(form.group(1))
    titled = REPORT_TITLE_RE.search(text)
    if not doc_type and (quarter_m or annual_m or titled):
        doc_type = "quarterly" if quarter_m and not annual_m else "annual"
    if year is None:
        m = quarter_m if doc_type == "quarterly" and quarter_m else annual_m or quarter_m
        year = int(m.group(m.lastindex)) if m else titled_year(titled) if titled else None
    return Filing(filing.sha1, filing.company, doc_type, year, filing.quarter, filing.aliases)


def cover_year(first_pages: list[str]) -> int | None:
    """The year the first pages print most often (ties: the later): a report's period when its cover names no
    fiscal year end ('Annual Report 2022')."""
    years = Counter(int(y) for y in re.findall(rf"(?<![\w.,]){YEAR}(?!\w|[.,]\d)", "\n".join(first_pages)))
    return max(years, key=lambda y: (years[y], y)) if years else None


def covers(filing: Filing, asked: AskedPeriod, forward: bool = False) -> bool | None:
    """Whether ``filing`` can print the period asked: an annual report its own fiscal year and the
    ``LATER_FILING_YEARS`` before it; an interim filing its year (up to its own quarter) and the year before
    (the comparative columns); with ``forward`` (the question asks what is expected) also the year after.
    None when the filing's year is unknown."""
    if filing.year is None or asked.target is None:
        return None
    target, year = asked.target, filing.year
    if forward and target == year + 1 or filing.doc_type in ("annual", "") and on_cover(year, asked):
        return True
    if filing.doc_type in ("annual", ""):
        return year - LATER_FILING_YEARS <= target <= year
    if target == year and asked.quarter and filing.quarter:
        return asked.quarter <= filing.quarter
    return year - 1 <= target <= year


COVER_MONTHS = 3  # an annual report is filed within three months of its year: its cover's dates are in them


def on_cover(year: int, asked: AskedPeriod) -> bool:
    """A date asked 'as of' falls in the first months after the fiscal ``year`` ends, when its annual report is
    filed: the report's cover prints it ('shares outstanding as of January 31, 2023' in the 2022 10-K)."""
    return asked.as_of is not None and asked.as_of[0] == year + 1 and asked.as_of[1] <= COVER_MONTHS


def uncovered(filings: list[Filing], asked: AskedPeriod, forward: bool = False) -> bool:
    """No filing of the company can print the period asked (every filing's year is known, none covers it)."""
    seen = [covers(f, asked, forward) for f in filings]
    return bool(seen) and all(c is False for c in seen)


def select(filings: list[Filing], asked: AskedPeriod, forward: bool = False) -> tuple[list[Filing], str]:
    """The filings of one company that answer a question asking for ``asked``, with why. None when no filing
    covers the period asked (``uncovered``: the answer is N/A, never another year's figure). One filing: that
    one. A quarter: the quarterly reports and earnings releases of the target year. A year: that year's annual
    report, else the nearest later one (it prints the prior years' columns), else that year's other filings.
    No period: the latest annual report. When nothing fits, every filing."""
    if asked.target and uncovered(filings, asked, forward):
        dated = ", ".join(sorted(f.label for f in filings))
        return [], f"no filing covers {'Q%d ' % asked.quarter if asked.quarter else 'FY'}{asked.target} ({dated})"
    if len(filings) <= 1:
        return filings, "the company's only filing"
    target = asked.target
    annual = [f for f in filings if f.doc_type in ("annual", "")]
    if asked.quarter and target:
        interim = [f for f in filings if f.doc_type in ("quarterly", "earnings") and f.year == target]
        exact = [f for f in interim if f.quarter == asked.quarter]
        if exact or interim:
            return exact or interim, f"the Q{asked.quarter} {target} interim filing(s)"
    if target:
        same = [f for f in annual if f.year == target]
        if same:
            return same, f"the FY{target} annual report"
        filed = [f for f in annual if f.year and on_cover(f.year, asked)]
        if filed:
            return filed, f"the FY{filed[0].year} annual report (its cover is dated after the year's end)"
        later = sorted((f for f in annual if f.year and target < f.year <= target + LATER_FILING_YEARS),
                       key=lambda f: f.year)
        if later:
            return later[:1], f"the FY{later[0].year} annual report (it prints FY{target})"
        other = [f for f in filings if f.year == target]
        if other:
            return other, f"the {target} filing(s)"
        return filings, f"no filing of FY{target}: every filing"
    dated = [f for f in annual if f.year]
    if dated:
        latest = max(dated, key=lambda f: f.year)
        return [latest], f"no period named: the latest annual report (FY{latest.year})"
    return filings, "no period named and no dated annual report: every filing"


def also_printing(filings: list[Filing], chosen: set[str], asked: AskedPeriod) -> list[Filing]:
    """The company's filings besides ``chosen`` that print the period asked too, read when the chosen ones do not
    print the figure: for a fiscal year, that year's fourth-quarter interim filings (a fourth-quarter earnings
    release prints the full year's columns beside the quarter's); for a quarter or a part of a year, that year's
    annual report (its quarterly data) and the next year's interim filings of the same quarter (their
    comparative columns)."""
    target = asked.target
    if target is None or asked.months == 12:
        return []
    rest = [f for f in filings if f.sha1 not in chosen and f.year is not None]
    if asked.quarter:
        return [f for f in rest if f.doc_type in ("annual", "") and f.year == target
                or f.doc_type in ("quarterly", "earnings") and f.year == target + 1 and f.quarter == asked.quarter]
    return [f for f in rest if f.doc_type in ("quarterly", "earnings") and f.year == target and f.quarter == 4]


REGISTRANT_RE = re.compile(r"([^\n]{2,160})\n?\s*(?:##\s*)?\(\s*Exact\s+name\s+of\s+(?:the\s+)?registrant", re.I)
FILE_NUMBER_RE = re.compile(r"^.*?commission\s+file\s+(?:number|no\.?)\s*:?\s*[\d-]+\s*", re.I)
SYMBOL_RE = re.compile(r"\b(?:under|with)\s+the\s+(?:ticker\s+|trading\s+)?symbols?\s+[“\"'‘]?([A-Z]{2,5})\b")
LISTED_RE = re.compile(r"\b([A-Z]{2,5})\s*\|?\s*(?:The\s+)?(?:New\s+York\s+Stock\s+Exchange|NYSE|Nasdaq|NASDAQ)\b")
NOT_TICKERS = {"NYSE", "LLC", "INC", "THE", "AND", "PAR", "USD", "ADR", "ADS", "CORP", "CO"}


def cover_names(first_pages: list[str], pages: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names a filing gives its company: the registrant's exact name on its cover ('ADVANCED MICRO DEVICES,
    INC.'), and its trading symbols (the cover's listing table, 'under the symbol "KO"' anywhere)."""
    cover = "\n".join(first_pages)
    names = []
    m = REGISTRANT_RE.search(cover)
    if m:
        line = FILE_NUMBER_RE.sub("", m.group(1).strip().lstrip("#_ ").strip()).strip(" _#")
        if 2 <= len(line) <= 80 and re.search(r"[A-Za-z]{2}", line):
            names.append(line)
    tickers = [t for t in LISTED_RE.findall(cover) + [s for p in pages for s in SYMBOL_RE.findall(p)]
               if t not in NOT_TICKERS]
    return tuple(names), tuple(dict.fromkeys(tickers))
