"""Regions as questions and filings write them: a place and its adjective ('Canada', 'Canadian Operations'), the
United States by its initials ('in the U.S.')."""

from __future__ import annotations

import re


def adjective_of(words: str, place: str) -> bool:
    """``words`` are the adjective of the place ``place`` names: 'canadian' of 'canada', 'chinese' of 'china',
    'european' of 'europe', 'north american' of 'north america' (a column or row 'Canadian Operations' is the
    part 'Canada')."""
    stem = place[:-1] if place[-1:] in "aeiou" else place
    return len(stem) >= 4 and words.startswith(stem) and words[len(stem):] in ("n", "an", "ian", "ean", "ese")


IN_THE_US_RE = re.compile(r"\b(?:in|within|across)\s+the\s+(?:U\.S\.(?:A\.)?|USA|US)(?![\w.])")


def us_initials(text: str) -> tuple[int, int] | None:
    """Where ``text`` writes the United States by its initials after 'in the' ('sales growth in the U.S.'): the
    part 'us'; None when it does not."""
    m = IN_THE_US_RE.search(text)
    return m.span() if m else None


def place_of(name: str, regions: tuple[str, ...]) -> str:
    """The region a part's name is the adjective of ('canadian' -> 'canada', 'north american' -> 'north america'),
    as geographic tables print it; ``name`` itself otherwise."""
    return next((r for r in regions if r != name and adjective_of(name, r)), name)
