"""The words of the metric a number question's query names, as candidates are matched against them: without the
period's words (the columns say the period), the scale asked ('in USD millions'), the asked currency, and, where
a percentage of a change is asked, the change's and the unit's words (the item's row prints its '% Change')."""

from __future__ import annotations

import re

from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.evidence.units import ASKED_CURRENCY_RE
from rag_assets.answer.question.period import FULL_YEAR_RE, INTERIM_PHRASE_RE, MONTH_NUMBERS
from rag_assets.answer.question.sources import without_source
from rag_assets.answer.question.unit import without_answer_form
from rag_assets.retrieval.query import Lexicon

CHANGE_WORDS_RE = re.compile(r"\b(?:(?:percent(?:age)?\s+)?(?:growth|change)(?:\s+rate)?|grow[sn]?|grew|changed|"
                             r"increased?|decreased?|declined?|rise|rose|risen|expand(?:ed)?|expansion|"
                             r"contract(?:ed|ion)?|improved?|improvement|move[ds]?)\b", re.I)
# the unit asked, as '%' is: not the figure's name
PERCENT_WORDS_RE = re.compile(r"\b(?:basis|percentage|per\s?cent(?:age)?s?)(?:[\s-]+points?)?\b|\bbps?\b|\bpp\b|"
                              r"\bpoints?\b", re.I)


# a date a balance is asked at ('as of December 31, 2017'): when, never a word the figure's line prints
MONTH_DAY_RE = re.compile(rf"\b(?:{'|'.join(sorted(MONTH_NUMBERS, key=len, reverse=True))})\.?\s+\d{{1,2}}\b(?:,?\s+\d{{4}})?",
                          re.I)


def without_full_year(query: str, percent: bool = False) -> str:
    """``query`` without the words that say which part of the year, or that it is the whole year: 'full-year
    adjusted EPS' names the row 'Adjusted EPS', 'operational sales in the second quarter' the row 'Operational
    Sales' (a sentence is not the better match for printing 'Second-Quarter'); the period is read from columns.
    A percentage asked (``percent``) of a change ('adjusted operational sales growth') names the item's row,
    whose '% Change' column prints it."""
    out = INTERIM_PHRASE_RE.sub(" ", FULL_YEAR_RE.sub(" ", query))
    return PERCENT_WORDS_RE.sub(" ", CHANGE_WORDS_RE.sub(" ", out)) if percent else out


def metric_query(query: str, lexicon: Lexicon | None, percent: bool = False) -> MetricQuery:
    """The metric's words a chosen line must print (``line_checks.prints_metric``) and a sure row names: the
    query without the period's words, the date asked ('as of December 31, 2017') and the scale asked ('in USD
    millions' is no word of the metric)."""
    return MetricQuery.of(MONTH_DAY_RE.sub(" ", without_full_year(without_answer_form(without_source(query)), percent)),
                          lexicon)


def metric_text(query: str, percent: bool = False) -> str:
    """The metric a question asks for: its retrieval query without the asked currency ('(in USD)') and the words
    of a full year (``without_full_year``)."""
    return re.sub(r"\(\s*\)", " ", ASKED_CURRENCY_RE.sub(" ", without_full_year(without_source(query), percent)))
