"""Trading symbols of listed companies ('KO', 'JNJ') from the index constituents packaged in ``pytickersymbols``
(MIT; the S&P 100, Dow Jones, Nasdaq 100, FTSE 100, DAX, EURO STOXX 50 and others, read from the package, no
network): a ticker a question writes names its company even where the company's filings print no symbol (covers
before 2019 list none)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SYMBOL_RE = re.compile(r"[A-Z]{1,5}")  # a US listing's symbol; 'CCC3.F' (Frankfurt) is not one


@dataclass(frozen=True)
class ListedSymbols:
    """Symbol -> the listed names of the companies that trade under it."""

    names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def load(cls) -> "ListedSymbols":
        """The packaged index constituents; none when the package is missing (tickers then route only where the
        filings print them)."""
        try:
            from pytickersymbols import PyTickerSymbols
        except ImportError:
            return cls()
        out: dict[str, set[str]] = {}
        for stock in PyTickerSymbols().get_all_stocks():
            symbols = {stock.get("symbol")} | {s.get("yahoo") for s in stock.get("symbols") or []}
            for symbol in symbols:
                if symbol and stock.get("name") and SYMBOL_RE.fullmatch(symbol):
                    out.setdefault(symbol, set()).add(stock["name"])
        return cls({k: tuple(sorted(v)) for k, v in out.items()})

    def of(self, symbol: str) -> tuple[str, ...]:
        return self.names.get(symbol, ())
