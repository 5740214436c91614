"""Quarters, half years, nine months and years to date (issue 45, class 2): the question's period says how many
months its figure covers, the interim filing's column headers say how many each column covers ('Three months
ended June 30, Six months ended June 30,'), and Python reads the column of the months asked. In wordings and
pages of our own."""

from __future__ import annotations

import re

import pytest

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.operands import SourcePage, find_operand, year_figure
from rag_assets.answer.question.formulas import Item, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.period import TO_DATE, asked_period
from rag_assets.answer.question.plan import plan

LIB = default_library()


@pytest.mark.parametrize("text, quarter, months", [
    ("What was Globex's net income in the second quarter of 2023?", 2, 3),
    ("Globex's 3Q22 revenue", 3, 3),
    ("net income for the six months ended June 30, 2023", 2, 6),
    ("revenue in the first half of 2023", 2, 6),
    ("free cash flow for the nine months ended September 30, 2022", 3, 9),
    ("revenue year to date through the second quarter of 2023", 2, 6),  # the year to date of a quarter named
    ("revenue for the year to date", None, TO_DATE),
    ("provision for credit losses in the quarter ended June 30, 2023", 2, 3),  # the calendar quarter it closes
    ("revenue in fiscal 2023", None, 0),
    ("revenue in H2 2023", 4, 3),  # no column prints a second half: its third and fourth quarters, added
    ("net income for the 13 weeks ended July 2, 2023", 2, 3),  # a retailer's periods in weeks
    ("net income for the 26 weeks ended July 2, 2023", 2, 6),
    ("net income for the 52 weeks ended August 29, 2021", None, 0),
    # a fiscal quarter of 16 weeks (a 12-12-12-16 year, or 16-12-12-12) is a quarter, never the year
    ("net income for the 16 weeks ended August 29, 2021", None, 3),
    ("net income for the sixteen weeks ended June 30, 2023", 2, 3),
    ("sales for the 24 weeks ended February 14, 2021", 2, 6),
    ("sales for the 36 weeks ended September 30, 2023", 3, 9),
    ("sales for the 40 weeks ended November 4, 2023", 3, 9),
    ("Globex's 2Q FY2023 net income", 2, 3),
    ("revenue in the last quarter of fiscal 2019", 4, 3),  # a named year's last quarter is its fourth
    ("revenue in the final quarter of 2019", 4, 3),
    ("revenue in the last quarter", None, 0),  # the latest quarter, no year: not read as the fourth
    ("Globex's first-half 2023 sales", 2, 6),
    ("Globex's net income in the June 2023 quarter", 2, 3),  # a quarter named by the month it closes
    ("Globex's net earnings in the December quarter of 2022", 4, 3),
    ("sales in the September-quarter 2023", 3, 3),
    ("sales in May 2023", None, 0),  # a month alone is no quarter
    ("Globex's revenue in the quarter ending in June 2023", 2, 3),  # the month it ends, no day
    ("Globex's revenue for the quarter ended September 2022", 3, 3),
    ("Globex's revenue for the quarter ended May 2023", None, 3),  # no calendar quarter's end: its months only
])
def test_the_months_a_period_covers(text, quarter, months):
    period = asked_period(text)
    assert (period.quarter, period.months) == (quarter, months)


@pytest.mark.parametrize("text, as_of", [
    ("Globex's total deposits at 6/30/2023", (2023, 6)),  # a date in figures, in the US order
    ("Globex's total deposits as of 2023-09-30", (2023, 9)),
    ("Globex's total deposits as of September 30, 2023", (2023, 9)),
    ("Globex's EPS of 1/3 of a dollar in 2023", None),  # a fraction, no date
    ("Globex's shares outstanding as of January 2018", (2018, 1)),  # a month, no day
    ("Globex's cash at the end of June 2023", (2023, 6)),
    ("Globex's sales in May 2023", None),  # a month, not 'as of' it
    ("How many holders of record did Globex have in early 2020?", (2020, 1)),  # the year's first months
    ("Globex's revenue in 2020", None),
])
def test_a_date_written_in_figures_is_the_date_asked(text, as_of):
    assert asked_period(text).as_of == as_of


def test_a_month_asked_as_of_after_the_years_end_is_on_that_years_annual_report():
    """'shares outstanding as of January 2018' is printed on the cover of the fiscal 2017 10-K, filed then: that
    filing covers it (no day written had made it a question of fiscal 2018, which no filing covers: N/A)."""
    from rag_assets.answer.routing.filings import Filing, select

    filings = [Filing("a", "Globex", "annual", 2015), Filing("b", "Globex", "annual", 2017)]
    chosen, why = select(filings, asked_period("How many shares of Globex common stock were outstanding as of "
                                               "January 2018?"))
    assert [f.sha1 for f in chosen] == ["b"], why
    assert select(filings, asked_period("What was Globex's revenue in fiscal 2018?"))[0] == []  # no filing of it


def test_every_stage_reads_a_date_in_figures_as_the_filings_print_it():
    """The ranking and the model's prompt read the question as read (``as_read``), not only the plan: 'at
    6/30/2023' had the model pick another row than 'as of June 30, 2023' did."""
    from rag_assets.answer.question.text import as_read

    assert as_read("Globex's book value per share at 6/30/2023") == "Globex's book value per share at June 30, 2023"
    assert as_read("Globex's EPS of 1/3 of a dollar") == "Globex's EPS of 1/3 of a dollar"


def test_an_interim_figure_is_planned_in_its_months():
    assert show(plan("What was Globex's net income for the first half of 2023, in USD millions?", LIB).node) == \
        "net income 2023 (6 months)"
    assert show(plan("By what percent did Globex's worldwide sales change in the fourth quarter of 2022 versus the "
                     "fourth quarter of 2021?", LIB).node) == \
        "((revenue 2022 (Q4) - revenue 2021 (Q4)) / revenue 2021 (Q4))"  # worldwide sales are the revenue
    assert show(plan("What was Globex's revenue in the second half of 2023?", LIB).node) == \
        "(revenue 2023 (Q3) + revenue 2023 (Q4))"


TEN_Q = ("Globex Corp. Consolidated statements of income (unaudited)\n"
         "Three months ended June 30, Six months ended June 30,\n\n"
         "| (in millions) | | 2023 | 2022 | 2023 | 2022 |\n|---|---|---|---|---|---|\n"
         "| Total net revenue | $ | 4,120 $ | 3,870 $ | 8,010 $ | 7,455 |\n"
         "| Net income | $ | 612 $ | 540 $ | 1,190 $ | 1,002 |\n")
RELEASE = ("SEGMENT SALES RESULTS\n\nQ2 % Change\n\n| ($ in Millions) | 2023 | 2022 | Reported |\n|---|---|---|---|\n"
           "| Worldwide | $4,120 | $3,870 | 6.5% |\n")
CASH_FLOWS = ("Consolidated statements of cash flows (unaudited)\nSix months ended June 30,\n"
              "| (in millions) | 2023 | 2022 |\n|---|---|---|\n| Net cash provided by operating activities | 1,404 | 1,220 |\n")


def test_each_column_knows_the_months_its_header_names():
    (net,) = [c for c in page_candidates(TEN_Q, "s", 5) if c.label == "Net income"]
    assert [(f.period, f.months) for f in net.figures] == [("2023", 3), ("2022", 3), ("2023", 6), ("2022", 6)]
    assert year_figure(net, 2023, 3).written.startswith("612")
    assert year_figure(net, 2023, 6).written.startswith("1,190")
    assert year_figure(net, 2022, TO_DATE).written.startswith("1,002")  # the longest interim column
    assert year_figure(net, 2023) is None  # a fiscal year is never read in a column of fewer months
    (cfo,) = page_candidates(CASH_FLOWS, "s", 9)
    assert year_figure(cfo, 2023, 6).written == "1,404"
    assert year_figure(cfo, 2023, 3) is None  # a statement of six months prints no quarter


def test_an_interim_operand_is_read_in_the_columns_of_its_months():
    spec = LIB.items["revenue"]
    pages = [SourcePage("s", 5, TEN_Q, True)]
    assert find_operand(Item("revenue", 2023, months=6), spec, pages).value == 8_010e6
    assert find_operand(Item("revenue", 2022, months=3), spec, pages).value == 3_870e6
    found = find_operand(Item("worldwide sales", 2023, months=3), None, [SourcePage("s", 1, RELEASE, False)])
    assert found.value == 4_120e6 and found.label == "Worldwide"  # 'sales' is a head noun the row leaves out


def test_more_forms_of_a_quarter_and_of_its_items():
    """'second-quarter 2023' is the second quarter; 'net interest income' is not net income (a noun between a
    name's words makes another item); a movement of an item the library does not know ('total deposits') is a
    criterion on that row."""
    from rag_assets.answer.question.criterion import criterion

    assert asked_period("the year-over-year change in Globex's second-quarter 2023 net income").months == 3
    assert show(plan("What was Globex's net interest income in the second quarter of 2023?", LIB).node) == \
        "net interest income 2023 (Q2)"
    c = criterion("Did Globex's total deposits decrease between December 31, 2022 and June 30, 2023?", LIB)
    assert (c.test, show(c.now), show(c.before)) == ("down", "total deposits 2023", "total deposits 2022")


def test_the_number_reader_keeps_only_figures_of_the_months_asked():
    """An annual report prints no quarter: 'revenue in the fourth quarter of fiscal 2019' is not the year's
    revenue (it was answered with it)."""
    from dataclasses import dataclass

    from rag_assets.answer.readers.number_reader import shortlist
    from rag_assets.retrieval.query import default_lexicon

    @dataclass
    class Page:
        sha1: str
        page_index: int
        text: str

    annual = Page("s", 30, "Years ended May 31,\n| (in millions) | 2019 | 2018 |\n| --- | --- | --- |\n"
                           "| Revenues | 39,117 | 36,397 |\n")
    assert shortlist([annual], "revenue fourth quarter fiscal 2019", default_lexicon(), 8, months=3) == []
    assert shortlist([annual], "revenue fiscal 2019", default_lexicon(), 8)  # a year's question reads it
    quarterly = Page("s", 5, TEN_Q)
    rows = shortlist([quarterly], "total net revenue", default_lexicon(), 8, months=6)
    assert rows and all(any(f.months == 6 for f in r.figures) for r in rows)


SENTENCES = ("Vandelay results. For the second quarter of 2024, Vandelay reported net income of $1.2 billion and "
             "diluted earnings per share of $2.10. For the six months ended June 30, 2024, net income was $2.3 "
             "billion and diluted earnings per share were $4.05. Nine-month diluted earnings per share were $6.00.")


@pytest.mark.parametrize("months, written", [(6, "$4.05"), (3, "$2.10"), (9, "$6.00")])
def test_a_sentence_is_a_figure_of_the_part_of_the_year_it_says(months, written):
    """'For the second quarter ..., earnings per share of $2.10' is no figure of the six months (it was read for
    'the six months ended June 30'): a sentence offers a part of the year only where it says that part."""
    from rag_assets.answer.readers.number_reader import shortlist
    from rag_assets.retrieval.query import default_lexicon
    from rag_assets_tests.pages import Page

    cands = shortlist([Page("v", 3, SENTENCES)], "diluted earnings per share", default_lexicon(), 8, months=months)
    assert [f.written for c in cands for f in c.figures if re.fullmatch(r"\$\d\.\d\d", f.written)] == [written]


RATIOS_A_CELL_OFF = ("Globex Bank\nFinancial highlights\n(unaudited) (in millions, except ratios)\n\n"
                     "Three months ended June 30, Six months ended June 30,\n\n"
                     "|  |  | 2023 |  |  | 2022 |  | Change |  |  | 2023 |  |  | 2022 |  | Change |\n"
                     "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                     "| Net income |  | 1,447 |  |  | 865 |  |  | 67 |  | 2,709 |  |  | 1,693 |  | 60 |\n"
                     "| Return on common equity |  |  | 20 % |  |  | 13 % |  |  |  |  | 19 % |  |  | 13 % |  |\n")


def test_percentages_a_cell_off_their_years_are_the_years_not_changes():
    """A row of the years' ratios printed one cell right of its year headings ('| | | 20 % | | | 13 % |' under
    '| | | 2023 | | | 2022 | | Change |') had been read as the blocks' changes, undated: a question of the
    quarter ended June 30, 2023 read 13 %. Two figures of one block are its years', not its change."""
    row = next(c for c in page_candidates(RATIOS_A_CELL_OFF, "g", 4) if c.label == "Return on common equity")
    assert [(f.written, f.period, f.months) for f in row.figures] == [
        ("20 %", "2023", 3), ("13 %", "2022", 3), ("19 %", "2023", 6), ("13 %", "2022", 6)]


def test_a_header_row_whose_first_cell_is_empty_is_no_heading_of_the_rows_below():
    page = ("SEGMENT SALES RESULTS\nQ2 % Change\n| ($ in Millions) | 2023 | 2022 | Reported |\n|---|---|---|---|\n"
            "| | | | Operational |\n| MedTech | 7,788 | 6,898 | 12.9 |\n")
    (row,) = [c for c in page_candidates(page, "s", 1) if c.label == "MedTech"]
    assert row.section == "" and row.caption == "SEGMENT SALES RESULTS Q2 % Change"


HIGHLIGHTS = ("Globex Corp. Consolidated financial highlights (unaudited)\n(in millions)\n"
              "Six months ended June 30, 2Q23 1Q23 4Q22 3Q22 2Q22 2023 2022\nSelected income statement data\n"
              "| Total net revenue | $ | 4,120 | $ | 3,990 | $ | 3,640 | $ | 3,515 | $ | 3,870 | $ | 8,110 | $ | 7,455 |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
              "| Net income | | 612 | | 578 | | 455 | | 430 | | 540 | | 1,190 | | 1,002 |\n")


def test_a_table_of_quarters_gives_each_quarter_its_own_column():
    """'2Q23 1Q23 4Q22 ...': the first quarter of 2023 is its own column, never the filing's second quarter; the
    six months are the columns after the quarters; no quarter's column is a fiscal year."""
    (net,) = [c for c in page_candidates(HIGHLIGHTS, "s", 2) if c.label == "Net income"]
    assert [(f.period, f.months, f.quarter) for f in net.figures] == [
        ("2023", 3, 2), ("2023", 3, 1), ("2022", 3, 4), ("2022", 3, 3), ("2022", 3, 2), ("2023", 6, 0), ("2022", 6, 0)]
    pages = [SourcePage("s", 9, TEN_Q, True), SourcePage("s", 2, HIGHLIGHTS, False)]
    spec = LIB.items["net income"]
    assert find_operand(Item("net income", 2023, months=3, quarter=1), spec, pages, quarters={"s": 2}).value == 578e6
    assert find_operand(Item("net income", 2022, months=3, quarter=4), spec, pages, quarters={"s": 2}).value == 455e6
    assert find_operand(Item("net income", 2022), spec, pages) is None  # no column of the fiscal year 2022
    assert show(plan("What was Globex's net income in 1Q23, in USD millions?", LIB).node) == "net income 2023 (Q1)"


def test_a_quarter_is_never_an_annual_reports_year_column_nor_another_quarters():
    annual = SourcePage("a", 30, "CONSOLIDATED STATEMENTS OF INCOME\n| (in millions) | 2019 | 2018 |\n"
                                 "| --- | --- | --- |\n| Revenues | 39,117 | 36,397 |\n", True)
    spec = LIB.items["revenue"]
    assert find_operand(Item("revenue", 2019, months=3, quarter=4), spec, [annual], quarters={"a": 0}) is None
    assert find_operand(Item("revenue", 2023, months=3, quarter=1), spec, [SourcePage("q", 5, TEN_Q, True)],
                        quarters={"q": 2}) is None  # a second-quarter filing's three months are not the first
    assert find_operand(Item("revenue", 2023, months=3, quarter=2), spec, [SourcePage("q", 5, TEN_Q, True)],
                        quarters={"q": 2}).value == 4_120e6


QUARTERLY_DATA = ("Note 24 - Quarterly Financial Data (Unaudited)\n"
                  "| | | 2023 | | | | 2022 | | |\n| | 4th | 3rd | 2nd | 1st | 4th | 3rd | 2nd | 1st |\n"
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
                  "| Total revenues | $28,340 | $25,150 | $24,260 | $23,380 | $24,770 | $24,220 | $23,050 | $21,960 |\n"
                  "| Net earnings | 3,420 | 2,360 | 2,200 | 2,480 | 3,320 | 1,810 | 1,750 | 1,580 |\n")


def test_quarters_printed_under_their_years_date_each_column():
    """A 10-K's quarterly data: '2023 ... 2022' over '4th 3rd 2nd 1st 4th 3rd 2nd 1st' is one quarter of one year a
    column; the fiscal year is never read from it."""
    from rag_assets.answer.evidence.operands import SourcePage, find_operand
    from rag_assets.answer.question.formulas import Item
    from rag_assets.answer.question.metric_library import default_library

    lib = default_library()
    pages = [SourcePage("k", 116, QUARTERLY_DATA, False)]
    spec = lib.items["net income"]
    assert find_operand(Item("net income", 2023, months=3, quarter=4), spec, pages, quarters={"k": 0}).value == 3420
    assert find_operand(Item("net income", 2022, months=3, quarter=2), spec, pages, quarters={"k": 0}).value == 1750
    assert find_operand(Item("net income", 2023), spec, pages, quarters={"k": 0}) is None


LATE_HEADER = ("Condensed Consolidated Statement of Earnings\n\n(Unaudited; in Millions Except Per Share Figures)\n\n"
           "| | | Percent | | Percent | Increase |\n| | Amount | to Sales | Amount | to Sales | (Decrease) |\n"
           "|---|---|---|---|---|---|\n| Sales to customers | 21,400 $ | 100.0 | 20,100 $ | 100.0 | 6.5 |\n"
           "| Gross Profit | 14,520 | 67.9 | 13,470 | 67.0 | 7.8 |\n| Restructuring | 120 | 0.6 | 80 | 0.4 |\n"
           "| Net earnings | 4,300 $ | 20.1 | 3,900 $ | 19.4 | 10.3 |\n| Net earnings per share (Diluted) | 1.64 $ | "
           "1.49 $ | 10.1 |\n\nTHIRD QUARTER\n\n2023 2022\n\n"
           "* Fiscal third quarter other expense includes a one-time charge.\n")


def test_a_release_whose_header_is_printed_after_its_tables_dates_its_amount_columns():
    """An earnings release's statement extracted with its header last ('THIRD QUARTER / 2023 2022' after the
    tables) and columns of two kinds ('Amount | Percent to Sales'): the amounts are the quarter's of each year,
    the percentages and the change no year's; a row without its change ('Restructuring 120 0.6 80 0.4') is dated
    in the columns left; a row that does not fit the columns (no percentages of sales) is left undated."""
    from rag_assets.answer.evidence.operands import SourcePage, find_operand
    from rag_assets.answer.question.formulas import Item
    from rag_assets.answer.question.metric_library import default_library

    lib = default_library()
    pages, quarters = [SourcePage("e", 9, LATE_HEADER, False)], {"e": 3}
    read = {(name, year): find_operand(Item(name, year, months=3, quarter=3), lib.items[name], pages,
                                       quarters=quarters) for name in ("gross profit", "net income")
            for year in (2023, 2022)}
    assert read[("gross profit", 2023)].value == 14_520e6 and read[("net income", 2022)].value == 3_900e6
    assert find_operand(Item("net income", 2023), lib.items["net income"], pages, quarters=quarters) is None
    rows = {c.label: c for c in page_candidates(LATE_HEADER, "e", 9)}
    assert [f.period for f in rows["Gross Profit"].figures] == ["2023", "", "2022", "", ""]
    assert [f.period for f in rows["Restructuring"].figures] == ["2023", "", "2022", ""]
    assert find_operand(Item("restructuring costs", 2022, months=3, quarter=3), lib.items["restructuring costs"],
                        pages, quarters=quarters).value == 80e6
    assert not any(f.period for f in rows["Net earnings per share (Diluted)"].figures)


SEGMENT_COLUMNS = ("Segment results\n\nAs of or for the six months ended June 30, (in millions)\n\n"
                   "Retail Banking Wholesale Banking Wealth Management\n\n"
                   "| | | 2023 | | 2022 | | 2023 | | 2022 | | 2023 | | 2022 |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                   "| Provision for credit losses | | 1,264 | | 439 | | 96 | | 504 | | 14 | | 6 |\n")
SIX_MONTHS = ("Consolidated financial highlights\n\nSix months ended June 30,\n\n"
              "| (in millions) | 2023 | 2022 |\n|---|---|---|\n| Provision for credit losses | 1,374 | 949 |\n")


def test_a_table_whose_blocks_of_years_are_segments_gives_no_figure_of_the_whole_company():
    (row,) = [c for c in page_candidates(SEGMENT_COLUMNS, "s", 40) if c.label == "Provision for credit losses"]
    assert row.of_parts  # three blocks of 2023 | 2022 under one 'six months': a segment's each
    item = Item("provision for credit losses", 2023, months=6)
    spec = LIB.items.get("provision for credit losses")
    pages = [SourcePage("s", 40, SEGMENT_COLUMNS, False), SourcePage("s", 2, SIX_MONTHS, False)]
    found = find_operand(item, spec, pages)
    assert (found.page_index, found.written) == (2, "1,374")
    assert find_operand(item, spec, pages[:1]) is None  # never the first segment's figure for the whole


def test_a_quarter_and_a_year_to_date_block_are_not_segments():
    (net,) = [c for c in page_candidates(TEN_Q, "s", 5) if c.label == "Net income"]
    assert not net.of_parts


@pytest.mark.parametrize("text, quarter, months", [
    ("What were Globex's full-year 2022 net earnings per its Q4 2022 earnings release?", 4, 12),
    ("What was Globex's full year 2022 revenue according to the fourth-quarter 2022 results?", 4, 12),
    ("What were Globex's net earnings in the Q4 2022 earnings release?", 4, 3),  # the release's own quarter
    # a fiscal year named, the quarter only the document's (its year unwritten): the year's figure
    ("What was Globex's diluted EPS for the fiscal year 2022, according to its fourth-quarter earnings release?", 4, 12),
    ("What was Globex's FY2022 diluted EPS per its fourth-quarter press release?", 4, 12),
    ("What were Globex's Q4 sales for fiscal 2022 in its fourth-quarter earnings release?", 4, 3),  # a quarter asked
    # a fourth quarter's release prints the year it closes: a year or a year's end date asked is that year's
    ("What were Globex's net sales for the fiscal year ended January 1, 2023, according to its fourth-quarter "
     "earnings release?", 4, 12),
    ("What were Globex's net sales in 2022 according to its Q4 2022 earnings release?", 4, 12),
    ("What were Globex's net sales in 2022 according to its Q2 2022 earnings release?", 2, 3),  # no year printed
    ("What were Globex's six-month net sales in 2022 per its Q4 2022 release?", 4, 6),  # a part of the year asked
])
def test_a_full_year_asked_of_a_quarters_document_is_read_in_its_twelve_month_columns(text, quarter, months):
    period = asked_period(text)
    assert (period.years, period.quarter, period.months) == ((2022,), quarter, months)


SEGMENT_RELEASE = ("SEGMENT SALES RESULTS\n\nQ4 % Change\n\n"
                   "| ($ in Millions) | 2022 | 2021 | Reported | | Operational1,2 | |\n|---|---|---|---|---|---|---|\n"
                   "| | | | | | Operational1,3 | |\n"
                   "| Home Care4 | $3,767 | $3,728 | | 1.0% | | 6.4 |\n"
                   "| Devices | 6,776 | 6,859 | | (1.2) | | 4.9 |\n"
                   "| Worldwide | $23,706 | $24,804 | | (4.4)% | | 0.9 |\n")


def test_a_footnote_mark_glued_to_a_segments_name_still_names_it():
    item = Item("revenue", 2022, part="home care", months=3, quarter=4)
    found = find_operand(item, LIB.items["revenue"], [SourcePage("r", 1, SEGMENT_RELEASE, False)], quarters={"r": 4},
                         library_names=LIB.item_names)
    assert (found.written, found.value) == ("$3,767", 3767e6)
    assert show(plan("What were Globex's Home Care segment sales in Q4 2022, in USD millions?", LIB).node) == \
        "revenue [home care] 2022 (Q4)"


def test_a_year_to_date_figure_is_the_item_without_its_period_words():
    assert show(plan("What were Globex's year-to-date 2023 worldwide sales through the second quarter, in USD "
                     "millions?", LIB).node) == "revenue 2023 (6 months)"


FOURTH_QUARTER_RELEASE = (
    "CONSOLIDATED STATEMENT OF EARNINGS\n\nFourth Quarter\n\n| (in millions) | 2022 | 2021 | Percent |\n|---|---|---|---|\n"
    "| Sales to customers | $23,706 | $24,804 | (4.4)% |\n\nFull Year\n\n"
    "| (in millions) | 2022 | 2021 | Percent |\n|---|---|---|---|\n| Sales to customers | $94,943 | $93,775 | 1.3% |\n")


def test_the_full_year_of_a_fourth_quarter_release_is_its_twelve_month_column():
    node = plan("What were Globex's worldwide sales for the full year 2022, according to its fourth-quarter 2022 "
                "earnings release, in USD millions?", LIB).node
    assert show(node) == "revenue 2022 (12 months)"
    page, spec = [SourcePage("r", 1, FOURTH_QUARTER_RELEASE, True)], LIB.items["revenue"]
    assert find_operand(node, spec, page, quarters={"r": 4}).written == "$94,943"
    quarter = plan("What were Globex's worldwide sales in Q4 2022, in USD millions?", LIB).node
    assert find_operand(quarter, spec, page, quarters={"r": 4}).written == "$23,706"


REGIONS_RELEASE = (
    "REGIONAL SALES RESULTS\n\nQ4 % Change\n\n| ($ in Millions) | 2022 | 2021 | Reported |\n|---|---|---|---|\n"
    "| U.S. | $12,516 | $12,163 | 2.9% |\n| International | 11,190 | 12,641 | (11.5) |\n"
    "| Worldwide | $23,706 | $24,804 | (4.4)% |\n\n1 Non-GAAP financial measure\n\n2 Excludes currency\n\n"
    "Note: values may have been rounded\n\nFull Year % Change\n\n| ($ in Millions) | 2022 | 2021 | Reported |\n"
    "|---|---|---|---|\n| U.S. | $48,580 | $47,156 | 3.0% |\n| Worldwide | $94,943 | $93,775 | 1.3% |\n")


def test_a_table_under_a_heading_in_capitals_is_captioned_by_it():
    rows = [c for c in page_candidates(REGIONS_RELEASE, "r", 1) if c.label.startswith("U.S")]
    assert [c.caption.startswith("REGIONAL SALES RESULTS") for c in rows] == [True, True]
    node = plan("What were Globex's U.S. sales for the full year 2022 in its Q4 2022 earnings release, in USD "
                "millions?", LIB).node
    found = find_operand(node, LIB.items["revenue"], [SourcePage("r", 1, REGIONS_RELEASE, False)],
                         quarters={"r": 4}, library_names=LIB.item_names)
    assert found.written == "$48,580"


def test_worldwide_sales_are_the_companys_revenue_read_in_the_columns_asked():
    assert show(plan("What were Globex's worldwide sales for the first six months of 2023, in USD millions?",
                     LIB).node) == "revenue 2023 (6 months)"
    node = plan("What were Globex's year-to-date 2023 worldwide sales through the second quarter?", LIB).node
    (found,) = [find_operand(node, LIB.items["revenue"], [SourcePage("s", 5, TEN_Q, True)], quarters={"s": 2})]
    assert found.written.startswith("8,010")  # the six months' column, never the quarter's 4,120


SEGMENT_RESULTS = ("RETAIL BANKING\n\nSelected income statement data\n\nThree months ended June 30, Six months ended June 30, "
                   "(in millions) 2023 2022 Change 2023 2022 Change\n\nRevenue\n\n"
                   "| Card income | | 201 | | 170 | 18 | | | 374 | | 337 | 11 |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                   "| Net income | $ | 1,208 | $ | 994 | | 22 % | $ | 2,555 | $ | 1,844 | | 39 % |\n")


def test_a_header_line_of_years_and_change_columns_dates_each_column_by_its_place():
    """'2023 2022 Change 2023 2022 Change' under 'Three months ... Six months': the n-th figure is the n-th
    column's, a change unmarked by '%' ('18') included, so the six months' figures are read."""
    from rag_assets.answer.evidence.change_columns import column_pattern

    assert column_pattern("(in millions) 2023 2022 Change 2023 2022 Change") == ["2023", "2022", "", "2023", "2022", ""]
    assert column_pattern("Increase / (decrease) 2019 v 2018") == []  # a change between years, no column of each
    assert column_pattern("2023 2022") == []
    rows = {c.label: c for c in page_candidates(SEGMENT_RESULTS, "q", 36)}
    assert [(f.written, f.period, f.months) for f in rows["Card income"].figures if f.period] == \
        [("201", "2023", 3), ("170", "2022", 3), ("374", "2023", 6), ("337", "2022", 6)]
    found = find_operand(Item("net income", 2023, months=6), LIB.items["net income"],
                         [SourcePage("q", 36, SEGMENT_RESULTS, False)], quarters={"q": 2})
    assert found is not None and found.value == 2_555e6


# a release's regional table: the header line prints its block of columns twice (the years, then three change
# columns named in words), and the months come from a header printed after the table
NAMED_CHANGE_COLUMNS = ("Supplementary Sales Data\n\n(Unaudited; Dollars in Millions) Percent Change 2024 2023 Total "
                   "Operations Currency 2024 2023 Total Operations Currency Sales to customers by geographic area\n\n"
                   "| U.S. | $ | 14,100 | 12,900 | % 9.3 9.3 | | - | $ | 27,000 | 24,600 | % 9.8 9.8 | | - |\n"
                   "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                   "| Europe | | 6,010 | 6,200 | (3.1) | (3.9) | 0.8 | | 12,400 | 12,300 | 0.8 | 1.0 | (0.2) |\n"
                   "| Worldwide | | $ 26,300 | 24,700 | 6.5 % | 7.5 | (1.0) | $ | 52,000 | 48,900 | 6.3 % | 8.2 | (1.9) |\n\n"
                   "SECOND QUARTER SIX MONTHS Percent Change\n")


def test_a_header_line_repeating_its_years_and_named_change_columns_dates_each_column():
    """'2024 2023 Total Operations Currency' twice: ten columns, the years' amounts in the first two of each
    block, the three changes undated; the late 'SECOND QUARTER SIX MONTHS' gives each block its months."""
    (europe,) = [c for c in page_candidates(NAMED_CHANGE_COLUMNS, "r", 8) if c.label == "Europe"]
    assert [(f.period, f.months) for f in europe.figures] == [
        ("2024", 3), ("2023", 3), ("", 0), ("", 0), ("", 0), ("2024", 6), ("2023", 6), ("", 0), ("", 0), ("", 0)]
    page = [SourcePage("r", 8, NAMED_CHANGE_COLUMNS, False)]
    spec = LIB.items["revenue"]
    six = find_operand(Item("revenue", 2024, months=6, quarter=2, part="europe"), spec, page, quarters={"r": 2})
    assert six.value == 12_400e6
    quarter = find_operand(Item("revenue", 2023, months=3, quarter=2, part="europe"), spec, page, quarters={"r": 2})
    assert quarter.value == 6_200e6


# a segment's results: the header line prints three years, then two changes of an amount and a percent each
YEARS_THEN_CHANGES = ("Northern Segment\n\nAs of/ Year Ended December 31, Change\n\n2019 2018 2017 2019 vs. 2018 "
                      "2018 vs. 2017\n\n(in thousands, except percentages)\n\n"
                      "| Revenues | $ | 5,200,000 | $ | 4,100,000 | $ | 3,500,000 | $ | 1,100,000 | 27% | $ | 600,000 | 17 % |\n"
                      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                      "| Members at end of period | | 48,100 | | 44,000 | | 40,500 | | 4,100 | 9% | | 3,500 | 9 % |\n")
# two columns a year ('Income before tax | Net income'), then the change of each: no change of the years'
TWO_A_YEAR = ("Income before tax Net income 2019 2018 2019 vs. 2018\n\n"
              "| Realized gain, net | $ | 400 | $ | 310 | $ | 60 | $ | 45 | $ | 340 | $ | 265 |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
              "| Total gain, net | $ | 420 | $ | 330 | $ | 410 | $ | 320 |\n")


def test_a_header_line_of_years_then_changes_dates_the_years_figures_of_every_row():
    """'2019 2018 2017 2019 vs. 2018 2018 vs. 2017' over rows of seven figures: the first three are the years',
    since the fourth is the change of the first two (5,200,000 less 4,100,000); rows of two figures a year are
    left undated, their fifth figure no change of the first two."""
    rows = {c.label: c for c in page_candidates(YEARS_THEN_CHANGES, "n", 21)}
    assert [(f.written, f.period) for f in rows["Revenues"].figures if f.period] == \
        [("5,200,000", "2019"), ("4,100,000", "2018"), ("3,500,000", "2017")]
    found = find_operand(Item("revenue", 2018), LIB.items["revenue"], [SourcePage("n", 21, YEARS_THEN_CHANGES, False)])
    assert found is not None and found.value == 4_100_000e3
    rows = {c.label: c for c in page_candidates(TWO_A_YEAR, "t", 25)}
    assert not any(f.period for c in rows.values() for f in c.figures)


AVERAGE_BALANCES = ("The following tables provide a summary of the average balances of deposits.\n\n(in millions)\n\n"
                    "Average balances\n\nThree months ended Six months ended\n\n"
                    "| | June 30, 2024 | June 30, 2023 | June 30, 2024 | June 30, 2023 |\n|---|---|---|---|---|\n"
                    "| Total deposits | 2,387,400 | 2,532,300 | 2,354,100 | 2,523,900 |\n")
PERIOD_END = ("Consolidated balance sheets\n\n(in millions)\n\n| | June 30, 2024 | December 31, 2023 |\n|---|---|---|\n"
              "| Total deposits | 2,398,900 | 2,340,100 |\n")


def test_a_balance_at_a_quarters_end_is_never_read_from_a_table_of_average_balances():
    """'Average balances / Three months ended' prints the quarter's average deposits, not those at its end,
    though its label is the item's exactly."""
    item = Item("total deposits", 2024, months=3, quarter=2)
    pages = [SourcePage("q", 57, AVERAGE_BALANCES, False), SourcePage("q", 97, PERIOD_END, True)]
    found = find_operand(item, None, pages, quarters={"q": 2})
    assert found is not None and (found.value, found.page_index) == (2_398_900e6, 97)
    assert find_operand(item, None, [SourcePage("q", 57, AVERAGE_BALANCES, False)], quarters={"q": 2}) is None


@pytest.mark.parametrize("text, years, quarter, months", [
    # a 52/53-week year that ends in the first days of January is the year before's, as its columns print it
    ("Globex's net earnings for the fiscal year ended January 3, 2027", (2026,), None, 0),
    ("Globex's sales for the fiscal quarter ended January 3, 2027", (2026,), 4, 3),
    ("the change in net earnings from the fiscal year ended January 4, 2026 to the fiscal year ended January 3, "
     "2027", (2025, 2026), None, 0),
    ("Globex's net earnings for the three months ended July 4, 2027", (2027,), 2, 3),  # the second quarter's end
    ("revenue for the quarter ended September 30, 2026", (2026,), 3, 3),
    ("revenue for the fiscal year ended May 31, 2026", (2026,), None, 0),  # unchanged: a date late in its month
    ("revenue for the quarter ended August 31, 2026", (2026,), None, 3),  # no calendar quarter: not guessed
    ("total assets as of January 2, 2027", (2026,), None, 0),
])
def test_a_period_named_by_its_end_date_is_the_fiscal_year_and_quarter_it_closes(text, years, quarter, months):
    period = asked_period(text)
    assert (period.years, period.quarter, period.months) == (years, quarter, months)


@pytest.mark.parametrize("question", [
    "Did Globex's net income rise in the second quarter of 2023 compared with the first quarter of 2023?",
    "Was Globex's net interest income in 2Q23 higher than in 1Q23?"])
def test_a_yes_no_between_two_quarters_of_one_year_compares_those_quarters(question):
    """The two quarters named, not the later one and the same quarter a year before (2Q23 against 2Q22 had been
    compared: a right answer only by chance)."""
    from rag_assets.answer.question.criterion import criterion

    found = criterion(question, default_library())
    assert found.test == "up"
    assert (show(found.now).split(" 2023")[1], show(found.before).split(" 2023")[1]) == (" (Q2)", " (Q1)")


# a release's reconciliation: the years repeat for the quarter's and the year's blocks, the line naming those blocks
# is printed below the table, and the last row prints the current year's figures only
RECONCILIATION = (
    "Reconciliation of Non-GAAP Financial Measures\n\n"
    "| (Dollars in Millions Except Per Share Data) | 2024 |  | 2023 |  | 2024 |  | 2023 |  |\n"
    "|---|---|---|---|---|---|---|---|---|\n"
    "| Net earnings, as reported |  | $1,910 |  | $2,340 |  | $8,120 |  | $9,050 |\n"
    "| Adjusted net earnings per share (Diluted) |  | $1.42 |  | $1.31 |  | $5.96 |  | $5.70 |\n"
    "| Operational adjusted net earnings per share (Diluted) |  | $1.47 |  |  |  | $6.08 |  |  |\n\n"
    "Notes: 1\n\n2\n\nFourth Quarter Twelve Months Ended\n\nAcquisition related costs for 2024 include the costs of "
    "integrating the businesses acquired during the year and other one-time charges.\n")


def test_blocks_named_below_the_table_and_a_row_of_the_current_year_only_are_dated():
    rows = {c.label: c.figures for c in page_candidates(RECONCILIATION, "r", 11)}
    adjusted = rows["Adjusted net earnings per share (Diluted)"]
    assert [(f.written, f.period, f.months) for f in adjusted] == [
        ("$1.42", "2024", 3), ("$1.31", "2023", 3), ("$5.96", "2024", 12), ("$5.70", "2023", 12)]
    operational = rows["Operational adjusted net earnings per share (Diluted)"]
    assert [(f.written, f.period, f.months) for f in operational] == [("$1.47", "2024", 3), ("$6.08", "2024", 12)]


@pytest.mark.parametrize("asked, formula", [
    (Item("revenue", 2023, months=3, quarter=1), ["(revenue 2023 (6 months) - revenue 2023 (Q2))"]),
    (Item("revenue", 2023, months=3, quarter=2), ["(revenue 2023 (6 months) - revenue 2023 (Q1))"]),
    (Item("revenue", 2023, months=3, quarter=3), ["(revenue 2023 (9 months) - revenue 2023 (6 months))"]),
    (Item("revenue", 2023, months=3, quarter=4), ["(revenue 2023 - revenue 2023 (9 months))"]),
    (Item("revenue", 2023, months=6), ["(revenue 2023 (Q1) + revenue 2023 (Q2))",
                                       "(revenue 2023 - (revenue 2023 (Q3) + revenue 2023 (Q4)))"]),
    (Item("revenue", 2023, months=9), ["((revenue 2023 (Q1) + revenue 2023 (Q2)) + revenue 2023 (Q3))",
                                       "(revenue 2023 - revenue 2023 (Q4))"]),
    (Item("revenue", 2023), []),  # a fiscal year is printed or not: never derived
    (Item("revenue", 2023, months=3), []),  # a quarter not named
])
def test_a_span_no_column_prints_is_derived_from_the_spans_filings_print(asked, formula):
    """Issue 45, class 2: a first quarter is six months less the second, a fourth the year less nine months; six
    or nine months are their quarters added, or the year less the quarters after them."""
    from rag_assets.answer.question.period_spans import spans_of

    assert [show(f) for f in spans_of(asked)] == formula


def test_a_three_month_column_of_an_interim_filing_is_its_own_quarter_never_another():
    """The second quarter's 10-Q prints 'Three months ended June 30': asked the first quarter, the number reader is
    offered none of its three-month figures, nor the undated ones beside them (the first quarter had been answered
    with a pro forma second quarter's figure)."""
    from dataclasses import dataclass

    from rag_assets.answer.readers.number_reader import shortlist
    from rag_assets.retrieval.query import default_lexicon

    @dataclass
    class Page:
        sha1: str
        page_index: int
        text: str

    page = Page("q", 5, TEN_Q)
    asked = dict(months=3, quarter=(2023, 1))
    assert shortlist([page], "total net revenue first quarter 2023", default_lexicon(), 8, **asked, own={"q": 2}) == []
    second = shortlist([page], "total net revenue second quarter 2023", default_lexicon(), 8, months=3,
                       quarter=(2023, 2), own={"q": 2})
    assert [f.written for f in second[0].figures if f.period == "2023"] == ["4,120"]


@pytest.mark.parametrize("question, expected", [
    ("What was the sum of Tarn's net sales in the first and second quarters of 2024?",
     "(revenue 2024 (Q1) + revenue 2024 (Q2))"),
    ("What were Tarn's combined net sales for Q1 and Q2 2024?", "(revenue 2024 (Q1) + revenue 2024 (Q2))"),
    ("What was Tarn's total net income for the first, second and third quarters of 2024?",
     "((net income 2024 (Q1) + net income 2024 (Q2)) + net income 2024 (Q3))"),
    # two quarters of one year compared: the later less the earlier, never a year before
    ("How did Tarn's net sales change between the first and second quarters of 2024?",
     "(revenue 2024 (Q2) - revenue 2024 (Q1))"),
    ("What was Tarn's net sales in the second quarter of 2024?", "revenue 2024 (Q2)"),
])
def test_quarters_of_one_year_named_together_are_added_or_compared(question, expected):
    """Issue 45, class 2: 'the first and second quarters of 2024' named at once had read as the fiscal year."""
    found = plan(question, LIB)
    assert found is not None and show(found.node) == expected
    assert asked_period(question).quarter == (3 if "third" in question else 2)


@pytest.mark.parametrize("question, expected", [
    # a move from one quarter to a later one of the same year: the later less the earlier, never a year before
    ("By how much did Tarn's net sales grow from the third quarter to the fourth quarter of 2024, in USD millions?",
     "(revenue 2024 (Q4) - revenue 2024 (Q3))"),
    ("What was Tarn's net sales growth from the second to the third quarter of 2024, in percent?",
     "((revenue 2024 (Q3) - revenue 2024 (Q2)) / revenue 2024 (Q2))"),
    ("How much did Tarn's net income change from Q1 to Q2 2024?", "(net income 2024 (Q2) - net income 2024 (Q1))"),
    # the first two or three quarters are the six or nine months to date; the later half is its two quarters added
    ("What were Tarn's net sales in the first two quarters of fiscal 2024 combined?", "revenue 2024 (6 months)"),
    ("What was Tarn's net income for the first three quarters of 2024?", "net income 2024 (9 months)"),
    ("What was Tarn's net income in the second half of 2024?", "(net income 2024 (Q3) + net income 2024 (Q4))"),
    ("What were Tarn's net sales in the last two quarters of fiscal 2024?", "(revenue 2024 (Q3) + revenue 2024 (Q4))"),
    ("What were Tarn's net sales in the third and fourth quarters of 2024?", "(revenue 2024 (Q3) + revenue 2024 (Q4))"),
])
def test_quarters_named_in_other_words_are_the_quarters_they_are(question, expected):
    """Issue 45, class 2: 'from the third quarter to the fourth quarter of 2017' had read as the fourth quarter
    against the year before's, 'the first two quarters of fiscal 2018' as the fiscal year, 'the second half' as
    nothing any column prints."""
    found = plan(question, LIB)
    assert found is not None and show(found.node) == expected


def test_a_quarter_named_without_its_year_beside_one_named_with_it_is_of_that_year():
    from rag_assets.answer.question.criterion import criterion

    found = criterion("Were Tarn's net sales higher in the fourth quarter than in the third quarter of 2024?", LIB)
    assert found is not None and show(found.now) == "revenue 2024 (Q4)" and show(found.before) == "revenue 2024 (Q3)"


# a quarter's cash-flow statement whose text layer ran the header into the first rows and cut the table in two
CASH_FLOWS_10Q = (
    "Globex Corp. Consolidated statements of cash flows (unaudited)\n\n"
    "Six months ended June 30, (in millions) 2024 2023 Operating activities Net income $ 2,709 $ 1,693 Adjustments "
    "to reconcile net income to net cash used in operating activities:\n\n"
    "| Provision for credit losses | 517 | 256 |\n|---|---|---|\n| Depreciation and amortization | 215 | 360 |\n"
    + "".join(f"| Other operating item {k} | {k}0 | {k}1 |\n" for k in range(1, 25)) +
    "\nFinancing activities Net change in:\n\n"
    "| Deposits | (2,778) | 584 |\n|---|---|---|\n| Short-term borrowings | 310 | (95) |\n")
BALANCES_10Q = (
    "Globex Corp. Consolidated balance sheets (unaudited)\n\n(in millions) | June 30, 2024 | December 31, 2023\n\n"
    "| Deposits with banks | 46,905 | 53,953 |\n|---|---|---|\n"
    "| Deposits (included $5,156 and $2,862 at fair value) | 239,896 | 234,017 |\n")


def test_a_header_run_into_the_rows_dates_every_table_of_its_statement_page():
    """'Six months ended June 30, (in millions) 2024 2023 Operating activities Net income ...' is one long line:
    its months are the columns' of the table below and of the page's next table, far below it, which names no
    years of its own; the change in deposits of six months is no balance of a year (it had answered a change between two
    balance-sheet dates with two of its figures, the sign of one dropped)."""
    rows = {c.label: c for c in page_candidates(CASH_FLOWS_10Q, "q", 99) if c.source == "row"}
    assert [(f.period, f.months) for f in rows["Provision for credit losses"].figures] == [("2024", 6), ("2023", 6)]
    assert [(f.period, f.months) for f in rows["Deposits"].figures] == [("2024", 6), ("2023", 6)]
    pages = [SourcePage("q", 99, CASH_FLOWS_10Q, False), SourcePage("q", 97, BALANCES_10Q, False)]
    found = find_operand(Item("total deposits", 2023), None, pages, quarters={"q": 2})
    assert found is not None and (found.page_index, found.written) == (97, "234,017")


def test_a_rows_aside_printing_figures_is_no_word_of_its_label_for_an_item_the_library_does_not_know():
    pages = [SourcePage("q", 97, BALANCES_10Q, False)]
    found = find_operand(Item("deposits", 2024), None, pages, quarters={"q": 2})
    assert found is not None and found.written == "239,896"  # not 'Deposits with banks'


def _given(crit, values: dict[tuple[str, int, int], float]) -> dict:
    """Each operand of ``crit``'s quarters as if read from a quarterly table: (item, year, quarter) -> value."""
    from rag_assets.answer.evidence.operands import Operand
    from rag_assets.answer.question.formulas import items_of

    items = {i for one in crit.each for n in (one.now, one.before) if n is not None for i in items_of(n)}
    return {i: Operand(i.name, i.year, values[(i.name, i.year, i.quarter)], "x", i.name, "s", 20, 1e6, "",
                       months=i.months, quarter=i.quarter) for i in items}


def test_a_yes_no_asked_of_each_or_any_quarter_is_decided_by_every_quarters_figure():
    """Issue 45, class 7: 'above 43% in each quarter of fiscal 2024' had been decided by the fiscal year's
    margin (43.8 %), though one quarter's was 43.0 %; 'in any quarter' holds when one quarter does."""
    from rag_assets.answer.evidence.decisions import decide
    from rag_assets.answer.question.criterion import criterion

    margins = {1: (3_962, 9_070), 2: (3_678, 8_554), 3: (3_938, 8_984), 4: (4_378, 9_789)}  # 43.7, 43.0, 43.8, 44.7 %
    values = {(name, 2024, q): v for q, pair in margins.items() for name, v in zip(("gross profit", "revenue"), pair)}
    each = criterion("Was Tarn's gross margin above 43% in each quarter of fiscal 2024?", LIB)
    assert [show(one.now) for one in each.each][0] == "(gross profit 2024 (Q1) / revenue 2024 (Q1))"
    assert decide(each, None, [], LIB, None, given=_given(each, values)).value is False
    higher = criterion("Was Tarn's gross margin above 44.5% in any quarter of fiscal 2024?", LIB)
    assert higher.any_of and decide(higher, None, [], LIB, None, given=_given(higher, values)).value is True
    grew = criterion("Did Tarn's revenue grow in every quarter of 2024 compared with the same quarter of 2023?", LIB)
    assert [(show(one.now), show(one.before)) for one in grew.each][3] == ("revenue 2024 (Q4)", "revenue 2023 (Q4)")


@pytest.mark.parametrize("question, expected", [
    ("What was Tarn's net income over the first nine months of 2024?", "net income 2024 (9 months)"),
    ("What was Tarn's revenue over the second quarter of 2024?", "revenue 2024 (Q2)"),
    ("What was Tarn's net income over revenue in 2024?", "(net income 2024 / revenue 2024)"),  # still a division
])
def test_over_a_part_of_the_year_is_its_period_not_a_division(question, expected):
    found = plan(question, LIB)
    assert found is not None and show(found.node) == expected
