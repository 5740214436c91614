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


# capitalized words after 'in' that name no place: a period, a unit, a part of a filing, an article
NOT_PLACES = frozenset("""january february march april may june july august september october november december
fiscal calendar year years quarter quarters half dollars dollar millions million thousands thousand billions
billion trillions percent percentage percentages basis points cents euros units terms item items note notes part
section exhibit table form schedule total aggregate line accordance addition comparison connection order respect
relation excess the a an its their our gaap""".split())
IN_PLACE_RE = re.compile(r"(?<![\w-])in\s+(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})"
                         r"(?![\w'’.-]|\s*&|\s+[A-Z]|\s+(?i:dollars?|currency)\b)")  # never a name going on


def place_after_in(text: str) -> tuple[int, int, str] | None:
    """A place ``text`` names after 'in' in capitalized words no list holds ('revenue in Brazil', 'sales in South
    Korea'): its span and name, folded; None when the words name a period, a unit or a part of a filing ('in
    Fiscal 2021', 'in Millions', 'in Item 7'). The filing, not a list of places, then says whether it prints that
    part's figures."""
    for m in IN_PLACE_RE.finditer(text):
        words = m.group("name").lower().split()
        if not any(w in NOT_PLACES for w in words):
            return m.start(), m.end(), " ".join(words)
    return None
