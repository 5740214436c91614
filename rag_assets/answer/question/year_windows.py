"""A run of fiscal years named by its count and its last year ('the last three fiscal years as of 2018', 'the past
three years ending May 31, 2021', 'the three years shown in its 2018 10-K'): the years it holds."""

from __future__ import annotations

import re

from rag_assets.storage.covers import YEAR  # a fiscal year as reports and questions print it

WINDOW_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "2": 2, "3": 3, "4": 4, "5": 5}
# a run of years named by its count and its last year: 'the last three fiscal years as of 2018', 'the past three
# years ending May 31, 2021', 'the three years shown in its 2018 10-K'
WINDOW_RE = re.compile(rf"\b(?:(?:last|past|prior|previous|trailing|latest|most\s+recent)\s+)?(?P<n>two|three|four|five|"
                       rf"[2-5])\s+(?:fiscal\s+|financial\s+)?years\s+(?P<how>ended|ending|through|to|up\s+to|as\s+of|"
                       rf"until|(?:shown|presented|reported|covered|included)\s+in)\b(?P<mid>[^?.;]{{0,30}}?)"
                       rf"(?<!\d)(?P<y>{YEAR})\b", re.I)


def window_years(text: str) -> list[int]:
    """The years of a run named by its count and last year ('the last three fiscal years as of 2018': 2016, 2017,
    2018), or []."""
    m = WINDOW_RE.search(text)
    if not m or re.search(r"\d{4}", m.group("mid")):
        return []
    last = int(m.group("y"))
    return list(range(last - WINDOW_WORDS[m.group("n").lower()] + 1, last + 1))
