"""Page types by rules: a page is of a type when one of its first lines prints that type's title
(``lexicon.yaml`` page_types) as a title: on a heading line, or capitalized. Running text that merely names a
statement does not count. Types: income statement, cash-flow statement, balance sheet, highlights."""

from __future__ import annotations

import re
from functools import lru_cache

from rag_assets.retrieval.query import Lexicon

HEAD_CHARS = 400  # a statement's title sits in the page's first lines (company name, title, period, units)


@lru_cache(maxsize=64)
def title_re(titles: tuple[str, ...]) -> re.Pattern:
    """One case-insensitive pattern for any of ``titles`` (longest first), spaces flexible between words and a
    stray one inside a word (a PDF's spacing split 'Consolidated Balance Shee t')."""
    def word(w: str) -> str:
        return " ?".join(map(re.escape, w))

    phrases = sorted((r"\s+".join(word(w) for w in t.split()) for t in titles), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(phrases) + r")\b", re.IGNORECASE)


TITLE_LEAD = ("Consolidated", "Condensed", "Interim")


def _led_title(before: str) -> bool:
    """The words before a title in lower case are its capitalized lead ('JPMorgan Chase & Co. Consolidated
    statements of income', 'Condensed Consolidated ...'), not running text ('on the Consolidated balance sheets':
    a lower-case word before)."""
    words = before.split()
    lead = 0
    while lead < min(2, len(words)) and words[-1 - lead] in TITLE_LEAD:
        lead += 1
    led = "Consolidated" in words[len(words) - lead:]  # a parent company's 'Condensed statements' are not its
    return led and (len(words) == lead or not words[-1 - lead][0].islower())


def page_types(text: str, lexicon: Lexicon, head_chars: int = HEAD_CHARS) -> set[str]:
    """The types whose title is printed as a title on a line starting in the first ``head_chars`` characters
    of ``text``: on a heading line, or capitalized ("CONSOLIDATED STATEMENTS OF CASH FLOWS", "Statement of
    Cash Flows", "Consolidated statements of income"); running text that names a statement in lower case ("see
    the consolidated statement of cash flows") does not type the page."""
    found: set[str] = set()
    start = 0
    for line in text.splitlines():
        if start >= head_chars:
            break
        start += len(line) + 1
        heading = line.lstrip().startswith("#")
        for pt in lexicon.page_types:
            if pt.name in found or not pt.titles:
                continue
            m = title_re(pt.titles).search(line)
            if m and (heading or m.group(0)[0].isupper() or _led_title(line[:m.start()])):
                found.add(pt.name)
    return found


def typed_pages(pages: dict[int, str], lexicon: Lexicon) -> dict[str, list[int]]:
    """Type -> its pages, in page order."""
    out: dict[str, list[int]] = {}
    for index in sorted(pages):
        for name in page_types(pages[index], lexicon):
            out.setdefault(name, []).append(index)
    return out
