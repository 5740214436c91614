"""Quarters named in other words, written as the quarters they are, before the period is read: two quarters of
one year written as a move from one to the other ('from the third quarter to the fourth quarter of 2017', 'from
the second to the third quarter of 2017') are 'the third and fourth quarters of 2017'; the first two or three
quarters of a year are its first six or nine months (the year-to-date columns interim filings print); the last
two quarters, or the second half, of a year are its third and fourth quarters."""

from __future__ import annotations

import re

ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_ORD = "|".join(ORDINAL)
_QUARTER = r"(?:[\s-]+(?:fiscal[\s-]+)?quarter)"
# 'from the third quarter to the fourth quarter', 'between the second and the third quarter', 'from Q3 to Q4'
MOVE_RE = re.compile(rf"\b(?:from|between)\s+(?:the\s+)?(?:(?P<a>{_ORD}){_QUARTER}?|Q(?P<qa>[1-4]))\s+(?:to|and)\s+"
                     rf"(?:the\s+)?(?:(?P<b>{_ORD}){_QUARTER}s?|Q(?P<qb>[1-4]))(?=\s+(?:of\s+)?(?:fiscal\s+|FY\s?)?"
                     rf"(?:19|20)\d\d\b)", re.I)
FIRST_QUARTERS_RE = re.compile(r"\b(?:the\s+)?first\s+(two|three|2|3)\s+(?:fiscal\s+)?quarters\b", re.I)
LATER_HALF_RE = re.compile(r"\b(?:(?:the\s+)?(?:last|final|latter)\s+(?:two|2)\s+(?:fiscal\s+)?quarters|"
                           r"(?:the\s+)?(?:second|2nd|latter)\s+half|H2|2H)(?=\s+(?:of\s+)?(?:fiscal\s+|FY\s?)?"
                           r"(?:19|20)\d\d\b)", re.I)
_WORD = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_MONTHS = {"two": "six", "2": "six", "three": "nine", "3": "nine"}


def quarters_in_words(text: str) -> str:
    """``text`` with the quarters it names in other words written as quarters or as the months they hold."""
    text = MOVE_RE.sub(_move, text)
    text = FIRST_QUARTERS_RE.sub(lambda m: f"the first {_MONTHS[m.group(1).lower()]} months", text)
    return LATER_HALF_RE.sub("the third and fourth quarters", text)


def _move(m: re.Match) -> str:
    """Two quarters of one year, earlier first; a move back ('from the fourth to the first quarter') stays."""
    a = ORDINAL[m.group("a").lower()] if m.group("a") else int(m.group("qa"))
    b = ORDINAL[m.group("b").lower()] if m.group("b") else int(m.group("qb"))
    return f"between the {_WORD[a]} and {_WORD[b]} quarters" if a < b else m.group(0)
