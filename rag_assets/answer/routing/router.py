"""Route a question to its report(s) by the company names it mentions."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rag_assets.answer.routing.listed import ListedSymbols

SUFFIXES = {
    "inc", "incorporated", "corp", "corporation", "co", "company", "plc", "ltd", "limited", "llc", "lp", "llp",
    "sa", "ag", "nv", "se", "spa", "bv", "gmbh", "ab", "asa", "oyj", "as", "kk", "tbk", "bhd", "berhad", "pty",
    "the", "holdings", "holding", "group",
}


def normalize_name(name: str) -> str:
    """Lower case, accents/quotes/punctuation removed, legal suffixes ('Inc.', 'plc', 'Ltd') dropped."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s&]", " ", text.lower())
    words = text.split()
    while words and words[-1] in SUFFIXES:
        words.pop()
    while words and words[0] == "the":
        words.pop(0)
    return " ".join(words)


INITIALS_RE = re.compile(r"(?<=\s)((?:[a-z]\s){2,})(?=\w)")  # two or more initials before a word: 'j p morgan'


def _initials_joined(text: str) -> tuple[str, ...]:
    """``text`` (normalized) with each run of initials written as one word, then also joined to the word after it
    ('j p morgan' -> 'jp morgan', 'jpmorgan'); () when it has none."""
    if not INITIALS_RE.search(text):
        return ()
    return tuple(INITIALS_RE.sub(lambda m: m.group(1).replace(" ", "") + glue, text) for glue in (" ", ""))


def _norm_text(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " " + " ".join(re.sub(r"[^\w\s&]", " ", text.lower()).split()) + " "


@dataclass(frozen=True)
class Route:
    company: str  # the name as known to the catalog
    sha1s: tuple[str, ...]  # every report of that company
    position: int  # where the name occurs in the question
    written: tuple[str, ...] = ()  # how the question writes the company ("JPMorgan Chase", "JPM"), longest first


class Router:
    """Finds the known companies named in a question: exact name first, then the normalized name."""

    def __init__(self, reports: dict[str, str], aliases: dict[str, tuple[str, ...]] | None = None,
                 tickers: dict[str, tuple[str, ...]] | None = None, listed: ListedSymbols | None = None):
        """``reports``: sha1 -> company name; ``aliases``: company name -> other names it goes by (subset.csv's
        ``aliases`` column, the registrant's name on the filings' covers); ``tickers``: company name -> its
        trading symbols, matched in capitals only, when no name is written; ``listed``: the listed companies'
        symbols (``routing.listed``), for a ticker the filings do not print."""
        self.listed = listed or ListedSymbols()
        self.tickers: dict[str, set[str]] = {}
        for name, symbols in (tickers or {}).items():
            for symbol in symbols:
                self.tickers.setdefault(symbol, set()).add(name)
        by_name: dict[str, list[str]] = {}
        for sha1, name in reports.items():
            by_name.setdefault(name, []).append(sha1)
        self.by_name = {k: tuple(sorted(v)) for k, v in by_name.items()}
        self.normalized: dict[str, list[str]] = {}
        for name in self.by_name:
            for written in (name, *(aliases or {}).get(name, ())):
                key = normalize_name(written)
                if key and name not in self.normalized.get(key, []):
                    self.normalized.setdefault(key, []).append(name)

    def route(self, question: str) -> list[Route]:
        found: dict[str, int] = {}
        # exact names, longest first so "Bionano Genomics, Inc." wins over a shorter name inside it
        spans: list[tuple[int, int]] = []
        for name in sorted(self.by_name, key=len, reverse=True):
            pos = question.find(name)
            if pos >= 0 and not any(a <= pos < b for a, b in spans):
                found[name] = pos
                spans.append((pos, pos + len(name)))
        written: dict[str, set[str]] = {name: {name} for name in found}
        text = _norm_text(question)
        spellings = (text, *_initials_joined(text))  # 'J.P. Morgan' is 'JPMorgan', 'U.S. Steel' 'US Steel'
        for key in sorted(self.normalized, key=len, reverse=True):
            m = next((m for t in spellings if (m := re.search(rf"(?<=\s){re.escape(key)}(?=\s)", t))), None)
            if not m:
                continue
            for name in self.normalized[key]:
                written.setdefault(name, set()).update(_as_written(question, key))
                if name not in found:
                    found[name] = m.start() + len(question)  # after exact hits, in question order
        # drop names contained in a longer found name (e.g. "Downer" inside "Downer EDI")
        names = sorted(found, key=lambda n: found[n])
        keep = [n for n in names if not any(n != o and normalize_name(n) in normalize_name(o) and
                                             len(normalize_name(o)) > len(normalize_name(n)) for o in names)]
        if not keep:
            keep = self._ticker(question, found) or self._abbreviated(question, found)
            for name in keep:
                written.setdefault(name, set()).add(ABBREVIATION_RE.match(question, found[name]).group(0))
        if not keep:
            keep = self._first_word(question, found)
            for name in keep:
                written.setdefault(name, set()).add(FIRST_WORD_RE.match(question, found[name]).group(1))
        return [Route(n, self.by_name[n], found[n], tuple(sorted(written.get(n, ()), key=len, reverse=True)))
                for n in keep]

    def _ticker(self, question: str, found: dict[str, int]) -> list[str]:
        """A trading symbol written in capitals ('MMM', "KO's") that one company's filings print as its own, else
        that the listed symbols give to one known company ('KO': 'The Coca-Cola Company' is 'Coca-Cola')."""
        for m in re.finditer(r"(?<![\w&])[A-Z]{2,5}(?![\w&])", question):
            names = self.tickers.get(m.group(0), set()) or self._listed(m.group(0))
            if len(names) == 1:
                [name] = names
                found[name] = m.start()
                return [name]
        return []

    def _listed(self, symbol: str) -> set[str]:
        """The known companies a listed symbol's company names: its listed name normalized is one of theirs, or
        starts with one ('JPMorgan Chase' for 'JPMorgan')."""
        out = set()
        for listed in self.listed.of(symbol):
            key = normalize_name(listed)
            for known, names in self.normalized.items():
                if key == known or key.startswith(known + " "):
                    out.update(names)
        return out

    def _abbreviated(self, question: str, found: dict[str, int]) -> list[str]:
        """Names an analyst abbreviates, tried only when no name is written out: a short capitalised word that
        has two capitals or more and is the initials of a name of several words ('J&J', 'JnJ' for 'Johnson &
        Johnson'), their first letters ('AmEx'), or the start of a one-word name ('JPM' for 'JPMorgan'), when
        exactly one company fits."""
        for m in ABBREVIATION_RE.finditer(question):
            word = m.group(0).lower().replace("&", "n")
            if sum(c.isupper() for c in m.group(0)) >= 2:
                fits = [n for n in self.by_name if word in _abbreviations(n)]
            elif len(word) >= 4:  # 'Amex': one capital, each word's first letters ('Is', 'What' are words)
                fits = [n for n in self.by_name if word in _blends(n)]
            else:
                continue
            if len(fits) == 1:
                found[fits[0]] = m.start()
                return fits
        return []


    def _first_word(self, question: str, found: dict[str, int]) -> list[str]:
        """The first word of a name of several words written alone with its capital ('Lockheed' for 'Lockheed
        Martin', "Activision's" for 'Activision Blizzard'), when it opens exactly one known name; tried only when
        no name, symbol or abbreviation is written, and never the question's first word unless it owns what
        follows ("Lockheed's"): a sentence's first word is capitalized whatever it is."""
        for m in FIRST_WORD_RE.finditer(question):
            if m.start() == 0 and not re.match(r"['’]s\b", question[m.end():]):
                continue
            word = m.group(1).lower()
            fits = {n for key, names in self.normalized.items() if len(key.split()) >= 2 and key.split()[0] == word
                    for n in names}
            if len(fits) == 1:
                [name] = fits
                found[name] = m.start()
                return [name]
        return []


LEGAL_SUFFIXES = "|".join(sorted(SUFFIXES - {"the"}, key=len, reverse=True))  # 'Holdings plc' after a name


def _as_written(question: str, key: str) -> list[str]:
    """The spans of ``question`` that normalize to the name ``key``: its words, whatever stands between them, and
    the legal suffixes written after them ('Northwind Traders Holdings plc')."""
    pattern = (r"(?<![\w&])" + r"[^\w&]+".join(re.escape(w) for w in key.split())
               + rf"(?:[\s,.]+(?:{LEGAL_SUFFIXES})\.?(?![\w&]))*(?![\w&])")
    return [m.group(0) for m in re.finditer(pattern, question, re.I)]


FIRST_WORD_RE = re.compile(r"(?<![\w&-])([A-Z][a-z]{3,})(?![\w&-])")  # 'Lockheed', not 'Coca' of 'Coca-Cola'
ABBREVIATION_RE = re.compile(r"(?<![\w&])[A-Z][A-Za-z&]{1,5}(?![\w&])")


def _blends(name: str) -> set[str]:
    """The first two or three letters of each word of a name of several words, run together ('amex', 'fedex')."""
    named = [w for w in re.sub(r"[^\w\s&]", " ", normalize_name(name)).split() if w not in ("&", "and")]
    return {"".join(w[:k] for w in named) for k in (2, 3)} if len(named) >= 2 else set()


def _abbreviations(name: str) -> set[str]:
    """Initials of a name of two or more words ('&' and 'and' as 'n'), and (3 letters or more) the starts of a
    one-word name."""
    words = re.sub(r"[^\w\s&]", " ", normalize_name(name)).replace("&", " & ").split()
    out = set()
    if len(words) >= 2:
        initials = "".join("n" if w in ("&", "and") else w[0] for w in words)
        out |= {initials, initials.replace("n", "") if "&" in words or "and" in words else initials}
        out |= _blends(name)
    elif words and len(words[0]) > 3:
        out |= {words[0][:k] for k in range(3, min(5, len(words[0])))}
    return out
