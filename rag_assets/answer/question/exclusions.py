"""A figure of the whole company without one part of it or one printed line ('operating income excluding the
Health Care segment', 'revenues other than those of Global Services', 'revenue from outside the Americas segment',
'operating expenses excluding depreciation'):
the whole's figure less the part's (a ratio: each of its figures less the part's, 'the operating margin excluding
the Space segment' is the rest's margin), or less the line's, each read as printed. What no row names ('excluding
special items', 'excluding currency effects') stays an adjusted figure, unread."""

from __future__ import annotations

import re
from dataclasses import replace

from rag_assets.answer.question.formulas import Item, MetricPlan, Op, Parser, items_of, money, of_library, substitute
from rag_assets.answer.question.parts import read_part, region_named_otherwise
from rag_assets.answer.question.phrases import read_metric

EXCLUDING_RE = re.compile(r"^(?P<what>.+?)\s*,?\s+\(?(?:excluding|exclusive\s+of|except(?:\s+for)?|other\s+than|"
                          r"apart\s+from|not\s+counting|without|outside(?:\s+of)?)\s+(?:(?:that|those)\s+of\s+|"
                          r"(?:from|in)\s+)?(?P<out>.+)$", re.I)

SHARE_RE = re.compile(r"\b(?:share|percentage|percent|proportion|fraction|portion)\s+of\b|%\s+of\b", re.I)


def excluded(clause: str, parser: Parser) -> MetricPlan | None:
    """The whole's figure the clause names less the part (or the printed line) it excludes, or None when it
    excludes nothing a filing prints as a part or a line item."""
    m = EXCLUDING_RE.search(clause)
    if m is None or SHARE_RE.search(m["what"]) or region_named_otherwise(clause, parser.library):
        return None  # 'what share of sales came from outside Europe' is a share; 'outside the US' a region's name
    whole = read_metric(m["what"], parser)
    if whole is None or any(i.part for i in items_of(whole)):
        return None
    part = read_part(m["out"], parser.library)[0]
    if part:
        rest = substitute(whole, {i: Op("-", i, replace(i, part=part)) for i in items_of(whole)})
        return MetricPlan(rest, "the whole company's figure less one part's")
    line = read_metric(m["out"], parser)
    if isinstance(line, Item) and line != whole and money(line) and money(whole) and of_library(line, parser.library):
        return MetricPlan(Op("-", whole, line), "a figure less one printed line")
    return None
