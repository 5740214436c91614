"""Which filing(s) answer a question: the companies it names (``answer.routing``), and for each the filing of the
period asked, else the latest annual report (``answer.filings.select``). A filing's type and period come from
subset.csv, completed once from the report's first pages."""

from __future__ import annotations

import threading
from dataclasses import replace

from rag_assets.answer.routing.filings import (COVER_PAGES, LATER_FILING_YEARS, Filing, also_printing, cover_names,
                                               cover_year, covers, detect, select)
from rag_assets.answer.question.period import (LATEST_QUARTER_RE, AskedPeriod, asked_period, asks_latest_quarter,
                                               with_latest_quarter)
from rag_assets.answer.question.wording import asks_expectation
from rag_assets.answer.routing.listed import ListedSymbols
from rag_assets.answer.routing.router import Route, Router
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.search import Retriever
from rag_assets.storage.artifacts import read_pages
from rag_assets.storage.paths import ReportPaths


class FilingRoutes:
    def __init__(self, reports: dict[str, str], retriever: Retriever, filings: dict[str, Filing] | None = None):
        self.filings = {s: (filings or {}).get(s) or Filing(s, name) for s, name in reports.items()}
        self.reports = reports
        self.aliases: dict[str, tuple[str, ...]] = {}
        for f in self.filings.values():
            self.aliases[f.company] = tuple(dict.fromkeys(self.aliases.get(f.company, ()) + f.aliases))
        self.listed = ListedSymbols.load()
        self.router = Router(reports, self.aliases, listed=self.listed)
        self.retriever = retriever
        self._covers_read = False
        self._lock = threading.Lock()

    def routes(self, question: str, notes: list[str] | None = None) -> list[Route]:
        """The companies ``question`` names, each with the filing(s) that answer it (none when no filing covers
        the period asked); why a filing was chosen among several goes to ``notes``. A question naming no company
        by subset.csv's names is routed again with the names the filings give themselves (``read_covers``)."""
        asked = asked_period(question)
        forward = asks_expectation(question, default_lexicon())
        out = []
        found = self.router.route(question)
        if not found and self.read_covers():
            found = self.router.route(question)
        for route in found:
            chosen, why = select([self.filing(s) for s in route.sha1s], asked, forward)
            if (len(route.sha1s) > 1 or not chosen) and notes is not None:
                notes.append(f"{route.company}: {why} ({', '.join(f.label for f in chosen)})")
            out.append(replace(route, sha1s=tuple(f.sha1 for f in chosen)))
        return out

    def also_printing(self, route: Route, question: str) -> Route | None:
        """The route to the company's other filings that print the period ``question`` asks
        (``filings.also_printing``): read when the chosen filings do not print the figure; None when there are
        none."""
        others = also_printing([self.filing(s) for s in self.router.by_name.get(route.company, ())],
                               set(route.sha1s), asked_period(question))
        return replace(route, sha1s=tuple(f.sha1 for f in others)) if others and route.sha1s else None

    def reports_read(self, question: str) -> list[str]:
        """Every report an answer to ``question`` may read: each route's filings, then the company's other
        filings of the period, read when those give no answer (``also_printing``)."""
        out = []
        for route in self.routes(question):
            other = self.also_printing(route, question)
            out += [*route.sha1s, *(other.sha1s if other else ())]
        return out

    def read_covers(self) -> bool:
        """Add the registrant's name and trading symbols every filing prints (``filings.cover_names``) to the
        router, once; True when that was done now."""
        with self._lock:
            if self._covers_read:
                return False
            self._covers_read = True
            aliases = {k: list(v) for k, v in self.aliases.items()}
            tickers: dict[str, list[str]] = {}
            for sha1, company in self.reports.items():
                pages = {p.page_index: p.text for p in read_pages(ReportPaths(self.retriever.root, sha1).pages)}
                names, symbols = cover_names([pages[i] for i in sorted(pages)[:COVER_PAGES]], list(pages.values()))
                aliases.setdefault(company, []).extend(names)
                tickers.setdefault(company, []).extend(symbols)
            self.aliases = {k: tuple(dict.fromkeys(v)) for k, v in aliases.items()}
            self.router = Router(self.reports, self.aliases,
                                 {k: tuple(dict.fromkeys(v)) for k, v in tickers.items()}, self.listed)
            return True

    def own_names(self, company: str) -> tuple[str, ...]:
        """Every name the company goes by: the catalog's, subset.csv's aliases and the registrant's name its
        filings print on their covers (read once)."""
        self.read_covers()
        return (company, *self.aliases.get(company, ()))

    def _cover(self, sha1: str) -> list[str]:
        pages = self.retriever.index(sha1).pages
        return [pages[i] for i in sorted(pages)[:COVER_PAGES]]

    def filing(self, sha1: str) -> Filing:
        """The filing's type and period: subset.csv's, completed once from the report's first pages."""
        f = self.filings[sha1]
        if not f.doc_type or f.year is None:
            f = self.filings[sha1] = detect(f, self._cover(sha1))
        return f

    def latest_quarter(self, company: str) -> tuple[int, int] | None:
        """The latest (year, quarter) the company's filings report: an interim filing's quarter, an annual
        report's fourth; None when no filing names its period."""
        points = [(f.year, 4 if f.doc_type == "annual" else f.quarter)
                  for f in (self.filing(s) for s in self.router.by_name.get(company, ()))]
        return max(((y, q) for y, q in points if y is not None and q), default=None)

    def at_latest_quarter(self, question: str, notes: list[str]) -> str:
        """``question`` with 'the most recent quarter' (no year named) written as the latest quarter the filings
        of the one company it names report (noted); unchanged otherwise."""
        companies = {r.company for r in self.routes(question)} if asks_latest_quarter(question) else set()
        if len(companies) != 1:
            return question
        company = companies.pop()
        point, asked = self.latest_quarter(company), LATEST_QUARTER_RE.search(question)
        if point is not None:
            notes.append(f"'{asked.group(0)}' read as Q{point[1]} {point[0]}, the latest quarter {company}'s filings "
                         "report")
        return with_latest_quarter(question, point)

    def quarters(self, route: Route, by_year: dict[int, tuple[str, ...]]) -> dict[str, int]:
        """The quarter each report of ``route`` and of ``by_year`` (its company's other reports by year) reports
        on: 0 an annual report (its columns are fiscal years), the quarter of an interim filing that names one; a
        filing of unknown type or quarter is left out."""
        sha1s = dict.fromkeys((*route.sha1s, *(s for reports in by_year.values() for s in reports)))
        out = {s: 0 if self.filing(s).doc_type == "annual" else self.filing(s).quarter for s in sha1s}
        return {s: q for s, q in out.items() if q is not None}

    def period_year(self, route: Route) -> int | None:
        """The latest fiscal year of the route's filings; a filing without one counts the year its cover prints
        most often."""
        years = [self.filing(s).year if self.filing(s).year is not None else cover_year(self._cover(s))
                 for s in route.sha1s]
        return max((y for y in years if y is not None), default=None)

    def year_filings(self, route: Route) -> dict[int, tuple[str, ...]]:
        """For each year the company's other annual reports print, those reports: the year's own report first,
        then the nearer later one. A span longer than one report's columns ('between 2018 and 2022') reads its
        first years there."""
        chosen = set(route.sha1s)
        annual = [self.filing(s) for s in self.router.by_name.get(route.company, ()) if s not in chosen]
        annual = [f for f in annual if f.doc_type in ("annual", "") and f.year is not None]
        years = {y for f in annual for y in range(f.year - LATER_FILING_YEARS, f.year + 1)}
        return {y: tuple(f.sha1 for f in sorted((f for f in annual if covers(f, AskedPeriod((y,)))),
                                                 key=lambda f: (f.year != y, f.year - y)))
                for y in sorted(years)}
