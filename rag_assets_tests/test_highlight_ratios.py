"""A quarterly filing's highlights (issue 45, quarters, in wording and pages of our own): quarter columns
('2Q24 1Q24 4Q23 ...' then the six months), a block of ratios whose first row alone prints '%', a ratio asked
'at' the date that ends the filing's quarter, and sentences about other quarters. Python reads the figure; the
model is shown each column's quarter or months, never two columns named alike."""

from __future__ import annotations


from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.readers.metric_words import metric_query
from rag_assets.answer.readers.number_reader import read_number, shortlist
from rag_assets.answer.readers.sure_pick import sure_pick
from rag_assets.retrieval.query import default_lexicon
from rag_assets_tests.pages import Page
from rag_assets_tests.llm_fakes import NeverCalled

HIGHLIGHTS = (
    "Globex Bancorp Consolidated financial highlights (unaudited)\n\n"
    "As of or for the period ended, (in millions, except per share and ratio data)\n\n"
    "Six months ended June 30, 2Q24 1Q24 4Q23 3Q23 2Q23 2024 2023\n\n"
    "| Net income |  | $ | 5,210 |  | $ | 4,980 | $ | 4,400 | $ | 4,120 | $ | 3,900 |  | $ | 10,190 |  | $ | 7,700 |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    "| Selected ratios and metrics |  |  |  |  |  |  |  |  |  |  |  |  |  |  |  |  |  |  |\n"
    "| Return on common equity |  |  |  | 17 % |  |  | 16 % |  | 15 % |  | 14 % |  | 13 % |  |  | 16 % |  |  | 12 % |\n"
    "| Efficiency ratio |  |  | 55 |  |  | 57 |  | 58 |  | 60 |  | 61 |  |  | 56 |  |  | 62 |\n"
    "| Common equity tier 1 capital ratio |  |  | 12.9 |  |  | 12.7 |  | 12.4 |  | 12.1 |  | 11.8 |  |  | 12.9 |  |  "
    "| 11.8 |\n"
    "| Book value per share |  |  | 88.10 |  |  | 86.40 |  | 84.90 |  | 83.20 |  | 82.00 |  |  | 88.10 |  |  | 82.00 |\n"
    "| Headcount |  |  | 41,200 |  |  | 40,900 |  | 40,100 |  | 39,800 |  | 39,500 |  |  | 41,200 |  |  | 39,500 |\n")
TARGET = ("Capital targets\n\nThe Firm's target for its common equity tier 1 capital ratio for the first quarter of "
          "2025 remains at 11.5%.")


def _row(label: str):
    return next(c for c in page_candidates(HIGHLIGHTS, "q", 2) if c.label.startswith(label))


def test_a_ratio_printed_bare_under_a_blocks_first_percent_is_a_percentage():
    assert all(f.percent for f in _row("Efficiency ratio").figures)
    assert all(f.percent for f in _row("Common equity tier 1").figures)
    assert not any(f.percent for f in _row("Headcount").figures)  # a count in the block is not a ratio


def test_a_row_of_percentages_is_dated_by_the_quarter_columns_and_the_six_months():
    roe = _row("Return on common equity").figures
    assert [(f.period, f.quarter, f.months) for f in roe[:2]] == [("2024", 2, 3), ("2024", 1, 3)]
    assert [(f.period, f.months) for f in roe[-2:]] == [("2024", 6), ("2023", 6)]


def test_the_model_is_shown_each_columns_quarter_or_months():
    shown = _row("Efficiency ratio").shown()
    assert "2024 Q2: 55 | 2024 Q1: 57" in shown and "2023 6 months: 62" in shown


def test_a_ratio_asked_at_the_date_that_ends_the_filings_quarter_is_its_quarter_column():
    reading = read_number(NeverCalled(), "What was Globex's CET1 capital ratio at June 30, 2024, in percent?",
                          "common equity tier 1 capital ratio at June 30, 2024", [Page("q", 2, HIGHLIGHTS)],
                          default_lexicon(), year=2024, own_quarters={"q": 2}, percent=True, as_of=(2024, 6))
    assert reading.value == 12.9 and reading.percent


def test_a_date_that_ends_another_quarter_is_not_read_from_the_filings_quarter_column():
    query = "common equity tier 1 capital ratio"
    cands = shortlist([Page("q", 2, HIGHLIGHTS)], query, default_lexicon(), 8, percent=True)
    metric = metric_query(query, default_lexicon(), True)
    pick = lambda as_of: sure_pick(cands, metric, 2024, 0, None, {"q": 2}, as_of=as_of)  # noqa: E731
    assert pick((2024, 6))[1].written == "12.9"
    assert pick((2024, 3))[1].written == "12.7"  # the first quarter's end: its column '1Q24'
    assert pick((2024, 12)) is None and pick((2024, 5)) is None  # a quarter the table does not print; no quarter's end
    assert sure_pick(cands, metric, 2024, 0, None, {"q": 0}, as_of=(2024, 6)) is None  # an annual report's


def test_a_sentence_about_another_quarter_is_not_offered_for_the_quarter_asked():
    pages = [Page("q", 9, TARGET), Page("q", 2, HIGHLIGHTS)]
    found = shortlist(pages, "common equity tier 1 capital ratio second quarter 2024", default_lexicon(), 8,
                      months=3, quarter=(2024, 2), percent=True)
    assert [c.page_index for c in found] == [2]
    assert shortlist(pages, "common equity tier 1 capital ratio first quarter 2025", default_lexicon(), 8,
                     months=3, quarter=(2025, 1), percent=True)[0].page_index == 9


def test_a_currency_asked_is_no_word_of_the_figures_name():
    reading = read_number(NeverCalled(), "What was Globex's book value per share at March 31, 2024, in USD?",
                          "book value per share at March 31, 2024, in USD", [Page("q", 2, HIGHLIGHTS)],
                          default_lexicon(), year=2024, own_quarters={"q": 2}, as_of=(2024, 3))
    assert reading.value == 86.40  # the row names the figure though it prints no 'USD': Python reads it
