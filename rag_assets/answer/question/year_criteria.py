"""A yes/no asked of every year of a span, or of any of them ('above 45% in each of 2016, 2017 and 2018', 'did
revenue grow every year from FY2017 to FY2019', 'positive in both 2021 and 2022', 'a net loss in 2021 or 2022'):
the criterion read in each year, never the last year's alone."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.question.criteria import Criterion
from rag_assets.answer.question.formulas import shifted
from rag_assets.answer.question.period import AskedPeriod

EACH_RE = re.compile(r"\b(?:each|every)\s+(?:single\s+)?(?:of\s+)?(?:the\s+)?(?:(?:fiscal\s+)?years?\b|(?:19|20)\d\d|fy|fiscal)|"
                     r"\b(?:in\s+)?all\s+(?:of\s+)?(?:the\s+)?(?:(?:two|three|four|five)\s+)?years\b|\bconsistently\b|"
                     r"\byear\s+after\s+year\b|\b(?:each|every)\s+year\b|\bconsecutive\b|\bsuccessive\b|"
                     r"\bwithout\s+interruption\b|\bboth\b", re.I)

# 'a net loss in 2021 or 2022', 'in either year', 'in any year from 2019 to 2021': one year's holding is a yes
ANY_YEAR_RE = re.compile(r"(?:19|20)\d\d\s*,?\s+or\s+(?:in\s+)?(?:fy\s?|fiscal\s+)?(?:19|20)\d\d|"
                         r"\b(?:either|any|at\s+least\s+one)\s+(?:of\s+)?(?:the\s+)?(?:(?:two|three|four|five)\s+)?"
                         r"(?:fiscal\s+)?(?:years?\b|(?:19|20)\d\d|fy)", re.I)


def each_year(found: Criterion, body: str, asked: AskedPeriod) -> Criterion:
    """A criterion asked of every year of the span ('above 45% in each of 2016, 2017 and 2018', 'did revenue grow
    every year from FY2017 to FY2019', 'positive in both 2021 and 2022'): a level in each year (the years named one
    by one ask each, with or without 'each': 'positive in 2021 and 2022'), a movement over each year from the one
    before (over each year named, or over each year of a range after its first); as found when the question asks it
    once."""
    span = asked.span
    any_of = ANY_YEAR_RE.search(body) is not None
    if len(span) < 2 or not (EACH_RE.search(body) or any_of or asked.listed and found.before is None):
        return found
    last = max(span)
    if found.before is None:
        each = tuple(replace(found, now=shifted(found.now, y - last)) for y in span)
    elif found.test in ("up", "down"):
        moved = span if asked.listed else span[1:]
        each = tuple(replace(found, now=shifted(found.now, y - last), before=shifted(found.now, y - 1 - last))
                     for y in moved)
    else:
        return found
    return replace(found, each=each, any_of=any_of)
