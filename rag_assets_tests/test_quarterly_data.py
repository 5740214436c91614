"""A 10-K's quarterly data, in the layouts its text layer prints: quarter names over the years (one year for the
table, or the years repeated in each quarter's block), a year named on a line above each block of quarters, the
quarters' names on lines above the table, the ends of four quarters as dates (with or without their year), and
columns that add up from the year's start, which are no quarters. Made-up pages."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.evidence.quarter_columns import quarter_ends, quarter_names_above
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


# a sentence above names both years; a row of quarter names, a row of 'Fiscal Year' under each, then the years
SENTENCE_YEARS = ("Selected quarterly results for fiscal 2024 and fiscal 2023 are as follows:\n\n"
                  "| | | First Quarter | | | Second Quarter | | | Third Quarter | | | Fourth Quarter | |\n"
                  "| | | Fiscal Year | | | Fiscal Year | | | Fiscal Year | | | Fiscal Year | |\n"
                  "| In Millions, Except Per | | | | | | | | | | | | |\n"
                  "| Share Amounts | | 2024 | | 2023 | | 2024 | | 2023 | | 2024 | | 2023 | | 2024 | | 2023 |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                  "| Net sales | $ | 3,010.5 | $ | 2,990.1 | $ | 3,220.7 | $ | 3,100.2 | $ | 3,150.3 | $ | 3,080.9 | $ | "
                  "3,900.4 | $ | 3,050.8 |\n")


def test_quarter_names_under_a_sentence_naming_the_years_wait_for_the_row_of_years():
    """Two years named in a sentence above are no header: the quarter names are each block's, and the row of years
    below them says which column of a block is which year (it had split the four quarters between the two years:
    the first and second quarter 2024's, the third and fourth 2023's, the rest whole years)."""
    assert _dated(SENTENCE_YEARS, "Net sales") == [
        [("2024", 3, 1), ("2023", 3, 1), ("2024", 3, 2), ("2023", 3, 2), ("2024", 3, 3), ("2023", 3, 3),
         ("2024", 3, 4), ("2023", 3, 4)]]
    assert _read(SENTENCE_YEARS, "revenue", 2024, quarter=4) == 3_900.4e6
    assert _read(SENTENCE_YEARS, "revenue", 2024) is None  # no column is the fiscal year's


def test_columns_that_add_up_from_the_years_start_are_no_quarters():
    assert _dated(CUMULATIVE, "Revenue (millions of yen)") == [[("", 0, 0)] * 4]
    assert _read(CUMULATIVE, "revenue", 2024, quarter=2) is None


NAMES_ABOVE = ("Quarterly Results (Unaudited)\n\nFirst Quarter\n\nSecond Quarter\n\nThird Quarter\n\n"
               "Fourth Quarter Full Year\n\n(In millions except per share data) 2023\n\n"
               "| Net revenues | $ | 4,100 | $ | 4,450 | $ | 4,300 | $ | 3,950 | $ | 16,800 |\n"
               "|---|---|---|---|---|---|---|---|---|---|\n"
               "| Net income (loss) |  | 510 |  | 620 |  | 580 |  | (240) |  | 1,470 |\n"
               "|  | 2022 |  |  |  |  |  |  |  |  |\n"
               "| Net revenues | $ | 3,900 | $ | 4,200 | $ | 4,150 | $ | 4,050 | $ | 16,300 |\n"
               "| Net income (loss) |  | 470 |  | 555 |  | 540 |  | 500 |  | 2,065 |\n")

NAMES_LINE = ("NOTE 19. QUARTERLY DATA (UNAUDITED)\n\nSummarized quarterly data for fiscal 2023 and fiscal 2022 "
              "follows:\n\nFirst Quarter Second Quarter Third Quarter Fourth Quarter In Millions, Except Per Share "
              "Amounts\n\n| | Fiscal Year | | Fiscal Year | | Fiscal Year | | Fiscal Year | |\n"
              "| | 2023 | 2022 | 2023 | 2022 | 2023 | 2022 | 2023 | 2022 |\n|---|---|---|---|---|---|---|---|---|\n"
              "| Net sales | 2,110.5 | 1,980.2 | 2,240.8 | 2,105.0 | 2,190.3 | 2,050.6 | 2,305.9 | 2,150.1 |\n")

DATED_ENDS = ("22. Quarterly Financial Information (Unaudited)\n\nFor the Quarters Ended (Amounts in millions)\n\n"
              "| | December 31, 2023 (1) | September 30, 2023 | June 30, 2023 | March 31, 2023 |\n"
              "|---|---|---|---|---|\n| Net revenues | $ 1,840 | 1,310 | 1,275 | 1,560 |\n"
              "| Operating income | 520 | 240 | 265 | 410 |\n")

FISCAL_ENDS = ("Quarterly Financial Data (Unaudited)\n\n(In millions) Three Months Ended\n\n"
               "| | August 31, 2022 | November 30, 2022 | February 28, 2023 | May 31, 2023 |\n"
               "|---|---|---|---|---|\n| Revenues | 11,200 | 10,900 | 11,600 | 12,300 |\n")

BARE_ENDS = ("| 14. Selected Quarterly Financial Data (Unaudited) | | | |\n|---|---|---|---|\n"
             "| | December 31 September 30 | June 30 | March 31 |\n\n"
             "(in thousands, except for per share data) 2023\n\n"
             "| Total revenues | $ | 2,845,100 | $ | 2,701,330 | $ | 2,610,875 | $ | 2,498,260 |\n"
             "|---|---|---|---|---|---|---|---|---|\n"
             "| Net income | | 161,200 | | 120,415 | | 98,300 | | 140,760 |\n"
             "| | 2022 | | | | | | | |\n"
             "| Total revenues | $ | 2,300,400 | $ | 2,210,915 | $ | 2,150,020 | $ | 2,050,700 |\n")


def _figure(text: str, name: str, year: int, quarter: int = 0) -> float | None:
    lib = LIB
    item = Item(name, year, months=3, quarter=quarter) if quarter else Item(name, year)
    op = find_operand(item, lib.items[name], [SourcePage("k", 80, text, False)], quarters={"k": 0})
    return None if op is None else op.value


@pytest.mark.parametrize("text,name,year,quarter,value", [
    (NAMES_ABOVE, "revenue", 2023, 2, 4450e6), (NAMES_ABOVE, "revenue", 2023, 4, 3950e6),
    (NAMES_ABOVE, "net income", 2023, 4, -240e6), (NAMES_ABOVE, "revenue", 2022, 3, 4150e6),
    (NAMES_ABOVE, "revenue", 2023, 0, 16800e6), (NAMES_ABOVE, "revenue", 2022, 0, 16300e6),
    (NAMES_LINE, "revenue", 2023, 3, 2190.3e6), (NAMES_LINE, "revenue", 2022, 1, 1980.2e6),
    (DATED_ENDS, "revenue", 2023, 2, 1275e6), (DATED_ENDS, "revenue", 2023, 4, 1840e6),
    (DATED_ENDS, "operating income", 2023, 1, 410e6),
    (FISCAL_ENDS, "revenue", 2023, 1, 11200e6), (FISCAL_ENDS, "revenue", 2023, 4, 12300e6),
    (BARE_ENDS, "revenue", 2023, 3, 2701330e3), (BARE_ENDS, "revenue", 2022, 1, 2050700e3),
    (BARE_ENDS, "net income", 2023, 4, 161200e3),
])
def test_each_quarter_of_a_quarterly_data_note_is_read_in_its_own_column(text, name, year, quarter, value):
    """The second quarter's revenue is the second quarter's column, whichever way the note names its columns;
    the whole year is the 'Full Year' column, never a quarter's."""
    assert _figure(text, name, year, quarter) == pytest.approx(value)


def test_a_table_of_quarters_answers_no_fiscal_year_it_has_no_column_for():
    assert _figure(DATED_ENDS, "revenue", 2023) is None
    assert _figure(NAMES_LINE, "revenue", 2023) is None


def test_the_ends_of_four_quarters_name_the_quarters_of_the_fiscal_year_the_last_one_ends():
    assert quarter_ends(["", "December 31, 2023", "September 30, 2023", "June 30, 2023", "March 31, 2023"]) == \
        ("2023", (4, 3, 2, 1))
    assert quarter_ends(["Three Months Ended", "Aug. 31, 2022", "Nov. 30, 2022", "Feb. 28, 2023", "May 31, 2023"]) \
        == ("2023", (1, 2, 3, 4))
    assert quarter_ends(["", "December 31 September 30", "June 30", "March 31"]) == ("", (4, 3, 2, 1))


@pytest.mark.parametrize("cells", [
    ["", "December 31, 2023", "December 31, 2022"],  # a balance sheet's two year ends
    ["", "June 30, 2023", "March 31, 2023", "December 31, 2022", "September 30, 2022", "June 30, 2022"],  # five
    ["", "June 30, 2023", "June 30, 2022", "June 30, 2021", "June 30, 2020"],  # one quarter over four years
    ["", "December 31, 2023", "June 30, 2023", "March 31, 2023", "September 30, 2022"],  # not in a row
])
def test_dates_that_are_not_four_quarters_in_a_row_name_no_quarters(cells):
    assert quarter_ends(cells) is None


def test_a_sentence_on_a_quarter_above_a_table_names_no_column():
    before = ("Sales rose in the first quarter and again in the second quarter of the year.\n\n"
              "(In millions) 2023 2022\n\n")
    assert quarter_names_above(before) == ()
    assert quarter_names_above("First Quarter\n\nSecond Quarter\n\nThird Quarter\n\nFourth Quarter Full Year\n") \
        == (1, 2, 3, 4, 0)


def test_a_balance_sheet_beside_a_quarterly_note_keeps_its_years():
    text = ("Consolidated Balance Sheets\n\n| | December 31, 2023 | December 31, 2022 |\n|---|---|---|\n"
            "| Total assets | 52,400 | 49,800 |\n")
    row = next(c for c in page_candidates(text, "k", 3) if c.label == "Total assets")
    assert [(f.period, f.quarter) for f in row.figures] == [("2023", 0), ("2022", 0)]
