"""A 10-K's quarterly data, in the layouts its text layer prints: quarter names over the years (one year for the
table, or the years repeated in each quarter's block), a year named on a line above each block of quarters, and
columns that add up from the year's start, which are no quarters. Made-up pages."""

from __future__ import annotations

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.question.formulas import Item
from rag_assets.answer.question.metric_library import default_library

LIB = default_library()

# quarter names, then 'Quarter' under each with the table's one year, and the whole year's column last
ONE_YEAR = ("NOTE 21. Quarterly Data (Unaudited)\n\n"
            "| (Millions, except per-share amounts) | | First | | Second | | Third | | Fourth | | Year | |\n"
            "| | 2024 | Quarter | | Quarter | | Quarter | | Quarter | | | 2024 |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            "| Net sales | $ | | 7,310 | $ | 7,420 | $ | 7,530 | $ | 7,640 | $ | 29,900 |\n"
            "| Cost of sales | | | 3,710 | | 3,720 | | 3,730 | | 3,740 | | 14,900 |\n"
            "| (Millions, except per-share amounts) | | First | | Second | | Third | | Fourth | | Year | |\n"
            "| | 2023 | Quarter | | Quarter | | Quarter | | Quarter | | | 2023 |\n"
            "| Net sales | $ | | 6,910 | $ | 7,020 | $ | 7,130 | $ | 7,240 | $ | 28,300 |\n")

# each quarter's block holds the two years; a margin row of percentages
REPEATED_YEARS = ("## SELECTED QUARTERLY FINANCIAL DATA\n\n"
                  "| (UNAUDITED) | | 1ST QUARTER | | 2ND QUARTER | | 3RD QUARTER | | 4TH QUARTER | |\n"
                  "| (In millions, except per share data) | | 2024 | 2023 | 2024 | 2023 | 2024 | 2023 | 2024 | 2023 |\n"
                  "|---|---|---|---|---|---|---|---|---|---|\n"
                  "| Revenues | $ | 5,100 | 4,900 | 5,200 | 4,800 | 5,300 | 4,700 | 5,400 | 4,600 |\n"
                  "| Gross margin | | 41.2% | 40.1% | 41.3% | 40.2% | 41.4% | 40.3% | 41.5% | 40.4% |\n"
                  "| Earnings (loss) per common share: | | | | | | | | | |\n"
                  "| Basic | | 0.61 | 0.52 | 0.62 | 0.53 | 0.63 | 0.54 | 0.64 | 0.55 |\n"
                  "| Diluted | | 0.60 | 0.51 | 0.61 | 0.52 | 0.62 | 0.53 | 0.63 | 0.54 |\n")

# the year on a line above the first block and in a row above the second
YEAR_LINES = ("Note 17 - Summary of Quarterly Information (Unaudited)\n\n(in millions)\n\n2024 Quarters\n\n"
              "| | | First | | Second | | Third | | Fourth |\n|---|---|---|---|---|---|---|---|---|\n"
              "| Net sales | $ | 11,100 | $ | 11,200 | $ | 11,300 | $ | 11,400 |\n"
              "| Net earnings | | 910 | | 920 | | 930 | | 940 |\n"
              "| | | | | 2023 Quarters | | | | |\n"
              "| | | First | | Second | | Third | | Fourth |\n"
              "| Net sales | $ | 10,100 | $ | 10,200 | $ | 10,300 | $ | 10,400 |\n")

# the columns add up from the year's start: no column is one quarter's
CUMULATIVE = ("2024\n\n| (Cumulative) | Q1 | | Q2 | | Q3 | | Full year |\n|---|---|---|---|---|---|---|---|\n"
              "| Revenue (millions of yen) | | 282,000 | | 550,000 | | 846,000 | | 1,128,000 |\n")


def _dated(text: str, label: str) -> list[list[tuple[str, int, int]]]:
    return [[(f.period, f.months, f.quarter) for f in c.figures]
            for c in page_candidates(text, "k", 40) if c.label == label]


def _read(text: str, item: str, year: int, quarter: int = 0):
    months = 3 if quarter else 0
    found = find_operand(Item(item, year, months=months, quarter=quarter), LIB.items[item],
                         [SourcePage("k", 40, text, False)], quarters={"k": 0})
    return found.value if found else None


def test_quarter_names_over_one_year_date_each_quarter_and_the_whole_year():
    assert _dated(ONE_YEAR, "Net sales") == [
        [("2024", 3, 1), ("2024", 3, 2), ("2024", 3, 3), ("2024", 3, 4), ("2024", 0, 0)],
        [("2023", 3, 1), ("2023", 3, 2), ("2023", 3, 3), ("2023", 3, 4), ("2023", 0, 0)]]
    assert _read(ONE_YEAR, "revenue", 2024, quarter=3) == 7_530e6
    assert _read(ONE_YEAR, "cost of goods sold", 2024, quarter=1) == 3_710e6
    assert _read(ONE_YEAR, "revenue", 2023, quarter=2) == 7_020e6
    assert _read(ONE_YEAR, "revenue", 2024) == 29_900e6  # the year's column, never a quarter's


def test_years_repeated_in_each_quarters_block_date_each_column():
    assert _dated(REPEATED_YEARS, "Revenues") == [
        [("2024", 3, 1), ("2023", 3, 1), ("2024", 3, 2), ("2023", 3, 2), ("2024", 3, 3), ("2023", 3, 3),
         ("2024", 3, 4), ("2023", 3, 4)]]
    assert _read(REPEATED_YEARS, "revenue", 2023, quarter=2) == 4_800e6
    assert _read(REPEATED_YEARS, "revenue", 2024) is None  # no column is the fiscal year's
    (margin,) = _dated(REPEATED_YEARS, "Gross margin")
    assert margin[4] == ("2024", 3, 3)  # a row of percentages is dated like the amounts
    assert not [c for c in page_candidates(REPEATED_YEARS, "k", 40) if c.of_parts]  # quarters are no segments


def test_a_qualifier_under_a_per_share_heading_is_the_per_share_item():
    """'Earnings (loss) per common share:' over 'Diluted' is diluted earnings per share; so is 'Diluted' under
    'Earnings per share data'."""
    assert _read(REPEATED_YEARS, "diluted eps", 2024, quarter=4) == 0.63
    assert _read(REPEATED_YEARS, "basic eps", 2023, quarter=1) == 0.52
    data = ("Consolidated financial highlights\n\n2Q24 1Q24 4Q23\n\n| Earnings per share data | | | |\n"
            "|---|---|---|---|\n| Net income: Basic | 4.80 | 4.20 | 3.60 |\n| Diluted | 4.79 | 4.19 | 3.59 |\n")
    assert _read(data, "diluted eps", 2023, quarter=4) == 3.59


def test_a_year_on_a_line_above_a_block_of_quarters_dates_it():
    assert _dated(YEAR_LINES, "Net sales") == [
        [("2024", 3, 1), ("2024", 3, 2), ("2024", 3, 3), ("2024", 3, 4)],
        [("2023", 3, 1), ("2023", 3, 2), ("2023", 3, 3), ("2023", 3, 4)]]
    assert _read(YEAR_LINES, "net income", 2024, quarter=2) == 920e6
    assert _read(YEAR_LINES, "revenue", 2023, quarter=4) == 10_400e6


def test_columns_that_add_up_from_the_years_start_are_no_quarters():
    assert _dated(CUMULATIVE, "Revenue (millions of yen)") == [[("", 0, 0)] * 4]
    assert _read(CUMULATIVE, "revenue", 2024, quarter=2) is None
