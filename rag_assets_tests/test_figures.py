"""The figures a sentence prints, as ``evidence.figures`` reads them: each dated by the year after it or by the
'respectively' list that gives the years in order; a day or year of a date is no figure, an amount before 'at
December 31' is one. Made-up sentences."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.figures import text_figures


def _read(sentence: str) -> list[tuple[str, str]]:
    return [(f.written, f.period) for f in text_figures(sentence)]


@pytest.mark.parametrize("sentence, figures", [
    ("Europe included German net sales of $1.204 billion, $1.118 billion and $0.987 billion in 2023, 2022, and "
     "2021, respectively.", [("$1.204 billion", "2023"), ("$1.118 billion", "2022"), ("$0.987 billion", "2021")]),
    ("German net property, plant and equipment was $312 million and $298 million at December 31, 2023 and 2022, "
     "respectively.", [("$312 million", "2023"), ("$298 million", "2022")]),
    ("Organic growth was 4.1% and 3.2% in 2023 and 2022, respectively.", [("4.1%", "2023"), ("3.2%", "2022")]),
    ("Sales grew 5% in 2023 and 7% in 2022.", [("5%", "2023"), ("7%", "2022")]),  # each year after its figure
])
def test_a_sentence_dates_each_figure_by_its_year(sentence, figures):
    assert _read(sentence) == figures


def test_a_respectively_list_dates_only_figures_of_one_kind_as_many_as_its_years():
    mixed = "Net sales were $4.2 billion and 6% of the total in 2023 and 2022, respectively."  # two kinds
    assert all(period != "2022" for _, period in _read(mixed))
    short = "Net sales were $4.2 billion, the highest ever, in the years 2023, 2022 and 2021, respectively."
    assert _read(short) == [("$4.2 billion", "")]  # one figure for three years


def test_an_amount_before_a_date_is_a_figure_and_a_day_of_a_date_is_not():
    assert [w for w, _ in _read("Globex had $6.5 billion of notes outstanding at December 31, 2023.")] == \
        ["$6.5 billion"]
    assert [w for w, _ in _read("On March 15, 2023, Globex paid $12 million.")] == ["$12 million"]
