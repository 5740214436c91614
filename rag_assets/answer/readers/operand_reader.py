"""An operand of a formula that no statement row prints ('the CET1 capital ratio at June 30, 2023' in a table
whose columns the rows do not date, a segment's sales in a sentence): read by the number reader (the model
chooses among the figures Python found on the pages ranked for that operand alone, Python checks the choice), so
Python still computes the formula with every operand cited. A ratio is read only from a percentage and an amount
never from one, and a part's amount never from a figure printing no currency and no scale (a region's
warehouses); at most ``MODEL_OPERANDS`` operands of a question are read so (each is a model call)."""

from __future__ import annotations

import re
from typing import Callable

from rag_assets.answer.evidence.operands import Operand
from rag_assets.answer.question.counts import countable
from rag_assets.answer.question.formulas import Item, money, read_in_percent, show
from rag_assets.answer.readers.line_checks import MONEY_AT_RE
from rag_assets.answer.readers.number_reader import NumberReading
from rag_assets.answer.readers.record import NOT_READ

CURRENCY_WORD_RE = re.compile(r"\b(?:dollars?|euros?|pounds?|sterling|yen|francs?|kron[ae]r?)\b", re.I)
MODEL_OPERANDS = 2  # the most operands of one formula the model reads (each ~10-40 s of prompt on 2 cores)
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
SPAN = {6: "first six months of", 9: "first nine months of", -1: "year to date of"}


def operand_question(company: str, item: Item, printed: bool = False) -> str:
    """The question one operand answers: "What was Globex's Cloud revenue in the second quarter of 2023?"; an
    item as ``printed`` (not the library's) named by a plural noun is counted ("How many employees did Globex
    have in 2023?"), which the number reader reads beside its noun."""
    if printed and countable(item.name) and not item.part:
        return f"How many {item.name} did {company} have in {item.year}?"
    whose = f"{company}'s {item.part} " if item.part else f"{company}'s "
    if item.quarter:
        when = f"in the {ORDINAL[item.quarter]} quarter of {item.year}"
    elif item.months in SPAN:
        when = f"in the {SPAN[item.months]} {item.year}"
    elif item.months == 3:
        when = f"in the quarter of {item.year}"
    else:
        when = f"in {item.year}"
    return f"What was {whose}{item.name} {when}?"


def operand_from(item: Item, reading: NumberReading) -> tuple[Operand | None, str]:
    """The figure read as ``item``'s operand, or None and why: nothing read, or a figure of the wrong kind (a
    ratio is printed as a percentage, an amount is not)."""
    chosen = reading.candidate
    if chosen is None or not isinstance(reading.value, float):
        return None, (reading.notes[-1] if reading.notes else "no figure read")
    ratio = read_in_percent(item)
    if ratio != reading.percent:
        return None, (f"{item.name} is {'a ratio' if ratio else 'an amount'}, the figure read "
                      f"({reading.written}) {'is' if reading.percent else 'is not'} a percentage")
    if item.part and money(item) and not countable(item.name) and not _money_read(chosen, reading.written):
        return None, (f"{item.part}'s {item.name} is an amount of money, the figure read ({reading.written}) prints "
                      f"no currency and no scale: a count or another unit (stores, staff by region)")
    value = reading.value / 100 if ratio else reading.value
    scale, words = (1.0, "") if ratio else (chosen.scale, chosen.scale_words)
    return Operand(item.name, item.year, value, reading.written, chosen.label[:300], chosen.sha1, chosen.page_index,
                   scale, words, part=item.part, months=item.months, quarter=item.quarter, chosen=True), ""


def _money_read(chosen, written: str) -> bool:
    """The figure read is printed as money: with a currency ('$3.2 million', a '$' cell), in a table or page that
    declares a scale ('in millions'), or beside words naming a currency ('U.S. dollars')."""
    text = f"{written} {chosen.label} {chosen.caption}"
    return chosen.scale != 1.0 or bool(chosen.scale_words) or MONEY_AT_RE.search(text) is not None or \
        CURRENCY_WORD_RE.search(text) is not None


def read_missing(unfound: list[Item], read: Callable[[Item], NumberReading]
                 ) -> tuple[dict[Item, Operand] | None, list[NumberReading], list[str]]:
    """Each of ``unfound`` read by the number reader (``read``): the operands (None when one is not read, or
    there are more than ``MODEL_OPERANDS``), every reading made (its model call to account) and what was said
    of each. A failed call stops the reading (its reading carries the error)."""
    if not unfound or len(unfound) > MODEL_OPERANDS:
        return None, [], []
    given, readings, notes = {}, [], []
    for item in unfound:
        reading = read(item)
        readings.append(reading)
        if reading.error:
            return None, readings, notes
        found, why = operand_from(item, reading)
        twin = next((o for o in given.values() if o.item == found.item and _same_figure(o, found)), None) \
            if found else None
        if twin is not None:  # one printed figure is not the item in two periods
            found, why = None, f"the figure read ({found.written}, page {found.page_index}) is the one read for " \
                               f"{twin.year}"
        if found is None:
            notes.append(f"{NOT_READ} {show(item)}: {why}")
            return None, readings, notes
        given[item] = found
        how = "the model's choice among the figures Python found, checked" if reading.result is not None else \
            "the count every sentence printing one agrees on"
        notes.append(f"{show(item)} read by the number reader: {found.written} ({found.label[:80]!r}, page "
                     f"{found.page_index}), {how}")
    return given, readings, notes


def _same_figure(a: Operand, b: Operand) -> bool:
    return (a.sha1, a.page_index, a.label, a.written) == (b.sha1, b.page_index, b.label, b.written)
