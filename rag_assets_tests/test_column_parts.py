"""A table that prints the company's parts as columns (a segment note: 'Avionics | Marine Systems | ... | Total'
over 'Segment net sales 4,210 2,105 ... 6,315') gives each part's figure from its column. The names come as a
header row of cells or as lines of text above the table (a PDF's text layer leaves them there, one or several to
a line); a block of rows is dated by a row 'For the year ended December 31, 2022'. Made-up filings (issue 45,
class 1)."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.column_parts import name_lines, part_column
from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.question.formulas import Item
from rag_assets.answer.question.metric_library import default_library

LIB = default_library()

# names one or two to a line above the table, a block of rows a year
NAMES_AS_LINES = ("The following provides historical segment information:\n\n## Segment Information (in millions)\n\n"
                  "Avionics\n\nMarine Systems\n\nSpace Launch Ground Radar\n\nRotary and Fixed Wing Aircraft (1) Total\n\n"
                  "| For the year ended December | | 31, | 2022 | | | | | |\n|---|---|---|---|---|---|---|---|---|\n"
                  "| Segment net sales | | $ | 4,210 | $ 2,105 | $ 930 | $ 744 | $ 1,311 | $ 9,300 |\n"
                  "| Net income | | $ | 512 | $ 188 | $ 61 | $ 40 | $ 99 | $ 900 |\n"
                  "| For the year ended December | | 31, | 2021 | | | | | |\n"
                  "| Segment net sales | | $ | 3,980 | $ 2,240 | $ 870 | $ 700 | $ 1,210 | $ 9,000 |\n")
# the names on one line, twice (the year's block and its change), then a second table headed by the rows the
# first one ends with
NAMES_ON_ONE_LINE = ("Information on the reportable segments is presented below (amounts in millions):\n\n"
                     "For the Year Ended December 31, 2022 Increase / (decrease) 2022 v 2021\n\n"
                     "Avionics Marine Radar Total Avionics Marine Radar Total\n\nSegment Revenues\n\n"
                     "| Segment net revenues | $ | 4,210 | $ | 2,105 | $ | 985 | $ | 7,300 | $ | 230 | $ | (135) | $ | 15 "
                     "| $ | 110 |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                     "| Segment operating income | $ | 512 | $ | 188 | $ | 70 | $ | 770 | $ | 42 | $ | (43) | $ | 1 | $ | 0 |\n"
                     "| | | For the Year Ended December | | | 31, | 2021 | | |\n"
                     "| | Avionics | | Marine | | Radar | | Total |\n\nSegment Revenues\n\n"
                     "| Segment net revenues | $ | 3,980 | $ | 2,240 | $ | 970 | $ | 7,190 |\n|---|---|---|---|---|---|---|---|---|\n"
                     "| Segment operating income | $ | 470 | $ | 231 | $ | 69 | $ | 770 |\n")


@pytest.mark.parametrize("part, item, year, value", [
    ("avionics", "revenue", 2022, 4_210e6),
    ("marine systems", "revenue", 2022, 2_105e6),
    ("ground radar", "revenue", 2022, 744e6),  # second of two names on a line, said by the part's own name
    ("space launch", "net income", 2022, 61e6),  # first of two names on a line
    ("rotary and fixed wing aircraft", "net income", 2022, 99e6),  # after a line of two names, before 'Total'
    ("marine systems", "revenue", 2021, 2_240e6),  # the block of rows under 'For the year ended ... 2021'
])
def test_a_parts_column_is_read_where_the_names_stand_a_line_each_or_two_to_a_line(part, item, year, value):
    found = find_operand(Item(item, year, part=part), LIB.items[item], [SourcePage("s", 101, NAMES_AS_LINES, False)])
    assert found is not None and (found.value, found.page_index, found.part) == (value, 101, part)


@pytest.mark.parametrize("part, item, year, value", [
    ("radar", "revenue", 2022, 985e6),  # one word a name: the first block's third column, not the change's
    ("marine", "operating income", 2022, 188e6),
    ("marine", "revenue", 2021, 2_240e6),  # the next table, headed by the rows the first one ends with
    ("radar", "operating income", 2021, 69e6),
])
def test_a_parts_column_is_read_from_names_on_one_line_or_a_header_row_carried_over(part, item, year, value):
    found = find_operand(Item(item, year, part=part), LIB.items[item], [SourcePage("s", 39, NAMES_ON_ONE_LINE, False)])
    assert found is not None and found.value == value


@pytest.mark.parametrize("part, item, year", [
    ("avionics", "revenue", 2020),  # no block of that year
    ("weather", "revenue", 2022),  # no such column
    ("marine systems", "operating income", 2022),  # no such row
])
def test_a_column_the_table_does_not_print_gives_nothing(part, item, year):
    assert find_operand(Item(item, year, part=part), LIB.items[item],
                        [SourcePage("s", 101, NAMES_AS_LINES, False)]) is None


def test_the_column_of_a_part_is_refused_where_the_names_cannot_be_told_apart():
    lines = name_lines("Alpha Beta\n\nGamma Delta Epsilon\n\nTotal\n")
    assert part_column((), lines, "epsilon", 4) == 2  # 'Alpha Beta', 'Gamma Delta', 'Epsilon', 'Total'
    assert part_column((), lines, "epsilon", 5) is None  # which piece holds two names?
    assert part_column((), lines, "beta", 5) == 1  # one word before it: one name; the rest hold the other
    assert part_column((), name_lines("Alpha Beta Gamma Total\n"), "gamma", 4) == 2
    assert part_column(("Segment", "Alpha", "Beta", "Total"), (), "beta", 3) == 1  # the label column's heading
    assert part_column(("Alpha", "Beta", "Total"), (), "beta", 5) is None  # not one name a figure


def test_a_sentence_or_a_figure_above_the_table_is_no_line_of_names():
    assert name_lines("Segment sales rose in the year.\nAlpha Beta\n2022 2021\n| a | b |\n## Segment Data\n") == \
        ("", "Alpha Beta", "", "", "")


BLOCKS_OF_PARTS = ("Segment results\n\nAs of or for the six months ended June 30, (in millions)\n\n"
                   "Retail Banking Wholesale Banking Wealth & Asset Management\n\n"
                   "| | | 2023 | | 2022 | | 2023 | | 2022 | | 2023 | | 2022 |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                   "| Net income | | 1,264 | | 439 | | 96 | | 504 | | 14 | | 6 |\n")


@pytest.mark.parametrize("part, year, value", [
    ("retail banking", 2023, 1_264e6), ("wholesale banking", 2022, 504e6), ("wealth & asset management", 2023, 14e6),
])
def test_a_block_of_columns_a_part_gives_the_parts_figure_in_the_years_column(part, year, value):
    found = find_operand(Item("net income", year, part=part, months=6), LIB.items["net income"],
                         [SourcePage("s", 12, BLOCKS_OF_PARTS, False)], quarters={"s": 2})
    assert found is not None and found.value == value
    assert find_operand(Item("net income", year, part=part), LIB.items["net income"],  # a full year: not these
                        [SourcePage("s", 12, BLOCKS_OF_PARTS, False)], quarters={"s": 2}) is None


def test_a_name_broken_across_lines_is_found_in_the_lines_joined():
    lines = name_lines("Display\n\nTechnologies\n\nOptical Communications Specialty\n\nMaterials Life\n\nSciences All Other Total\n")
    assert part_column((), lines, "display technologies", 6) == 0
    assert part_column((), lines, "life sciences", 6) == 3  # counted from the end: 'All Other', 'Total'
    assert part_column((), lines, "specialty materials", 6) is None  # neither side's names are sure


def test_a_caption_whose_nearest_sentence_names_another_item_is_not_the_items_table():
    """'Segment net income may not be consistent ... The following table presents segment net sales': a table of
    sales, never read as the segments' net income (a confident wrong yes/no before)."""
    text = ("Segment net income (loss) may not be consistent with measures used by other companies.\n\n"
            "The following table presents segment net sales by reportable segment (in millions):\n\n"
            "| | 2022 | 2021 |\n|---|---|---|\n| Avionics | $ 5,023 | $ 4,349 |\n| Marine Systems | 3,306 | 3,700 |\n")
    pages = [SourcePage("s", 27, text, False)]
    assert find_operand(Item("net income", 2022, part="avionics"), LIB.items["net income"], pages,
                        library_names=LIB.item_names) is None
    found = find_operand(Item("revenue", 2022, part="avionics"), LIB.items["revenue"], pages, library_names=LIB.item_names)
    assert found is not None and found.value == 5_023e6


# one name a line, the first block's year after the last name, the next blocks' years in a row of their own
NAMES_WITH_YEAR = ("(in millions)\n\nThe following table provides information for the reportable segments:\n\n"
                   "North Operations\n\nCoastal Operations\n\nOther Overseas Operations Total 2024\n\n"
                   "| Total revenue | $ | 90,100 | $ | 17,200 | $ | 16,300 | $ | 123,600 |\n|---|---|---|---|---|---|---|---|---|\n"
                   "| Operating income | | 2,710 | | 740 | | 810 | | 4,260 |\n| | 2023 | | | | | | | |\n"
                   "| Total revenue | $ | 81,000 | $ | 15,900 | $ | 14,100 | $ | 111,000 |\n"
                   "| Operating income | | 2,430 | | 580 | | 620 | | 3,630 |\n")


@pytest.mark.parametrize("part, item, year, value", [
    ("coastal operations", "operating income", 2024, 740e6),  # a line a name: never three words counted as three
    ("north operations", "revenue", 2024, 90_100e6),
    ("other overseas operations", "operating income", 2024, 810e6),  # the name before 'Total 2024'
    ("other overseas operations", "revenue", 2023, 14_100e6),  # the block under the row '2023'
    ("other overseas", "operating income", 2024, 810e6),  # the part as a question names it: 'its Other Overseas
    ("coastal", "revenue", 2023, 15_900e6),  # operations', 'Coastal operations'; the noun is the column's
])
def test_names_a_line_each_with_the_year_after_the_last_give_each_parts_column(part, item, year, value):
    found = find_operand(Item(item, year, part=part), LIB.items[item], [SourcePage("s", 63, NAMES_WITH_YEAR, False)])
    assert found is not None and found.value == value


# two tables of parts on one page, each under a line ending with its fiscal year, the names one to a line
YEAR_ABOVE_NAMES = ("The following tables represent segment information for the year ended December 31, 2024 :As "
                    "of/Year ended December 31, 2024\n\nNorthern Rail\n\nSouthern Rail\n\nFreight Consolidated\n\n"
                    "(in thousands)\n\n| Revenues | $ | 5,100,000 | $ | 3,200,000 | $ | 540,000 | $ | 8,840,000 |\n"
                    "|---|---|---|---|---|---|---|---|---|\n| Cost of revenues | | 2,800,000 | | 2,900,000 | | 260,000 | "
                    "| 5,960,000 |\n\nThe following tables represent segment information for the year ended December 31, "
                    "2023 : As of/Year ended December 31, 2023\n\nNorthern Rail\n\nSouthern Rail\n\n"
                    "Freight Consolidated\n\n(in thousands)\n\n| Revenues | $ | 4,200,000 | $ | 1,950,000 | $ | 650,000 "
                    "| $ | 6,800,000 |\n|---|---|---|---|---|---|---|---|---|\n")


@pytest.mark.parametrize("part, year, value", [("northern rail", 2024, 5_100_000e3), ("southern rail", 2023, 1_950_000e3),
                                               ("freight", 2023, 650_000e3)])
def test_a_table_of_parts_under_a_line_ending_with_its_year_is_of_that_year(part, year, value):
    """'... year ended December 31, 2023' above 'Northern Rail' / 'Southern Rail' / 'Freight Consolidated': the
    second table's columns are 2023's, the first's 2024's."""
    page = SourcePage("s", 61, YEAR_ABOVE_NAMES, False)
    found = find_operand(Item("revenue", year, part=part), LIB.items["revenue"], [page])
    assert found is not None and found.value == value
    assert find_operand(Item("revenue", 2022, part=part), LIB.items["revenue"], [page]) is None


# the block's year before the names, and a total's name run into the first row group's heading (a PDF's text layer)
YEAR_BEFORE_NAMES = ("The following tables provide financial information for our two reportable segments: (dollars in "
                     "millions)\n\n{year} Retail Wholesale\n\nTotal Reportable Segments External Operating Revenues\n\n"
                     "| Stores | $ | 7,100 | $ | — | $ | 7,100 |\n|---|---|---|---|---|---|---|\n"
                     "| Distributors | | — | | 2,300 | | 2,300 |\n"
                     "| Total Operating Revenues | | 7,100 | | 2,300 | | 9,400 |\n"
                     "| Total Operating Expenses | | 6,000 | | 2,050 | | 8,050 |\n"
                     "| Operating Income | $ | {retail} | $ | {wholesale} | $ | {total} |\n")


@pytest.mark.parametrize("part, year, value", [("wholesale", 2023, 250e6), ("retail", 2023, 1_100e6),
                                               ("wholesale", 2022, 310e6)])
def test_names_after_the_blocks_year_and_a_totals_name_run_into_a_heading_give_each_parts_column(part, year, value):
    """'2022 Consumer Business' / 'Total Reportable Segments External Operating Revenues' over three columns had
    been no line of names (it opens with a year), and the total's words were cut into two more names."""
    text = "\n\n".join(YEAR_BEFORE_NAMES.format(year=y, retail=r, wholesale=w, total=r + w)
                       for y, r, w in ((2023, 1_100, 250), (2022, 990, 310)))
    found = find_operand(Item("operating income", year, part=part), LIB.items["operating income"],
                         [SourcePage("s", 88, text, False)])
    assert found is not None and (found.value, found.part) == (value, part)


# wrapped names a line each, the one-line names together on the last line ending with the total; the block's year on
# a line of its own; more than twelve lines of the page above the table
A_NAME_A_LINE = ("Information about our operating segments for the years ended December 31 is as follows (in "
                 "millions):\n\nNorthern Europe, Baltics & Nordics\n\nSouth America\n\nPacific Rim\n\n"
                 "Fleet Leasing Corporate Eliminations Consolidated\n\n2023\n\nNet operating revenues:\n\n"
                 "| Third party | $ | 5,100 | $ | 2,200 | $ | 3,300 | $ | 1,800 | $ | 40 | $ | (500) | $ | 11,940 |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                 "| Intersegment | | 20 | | 10 | | 30 | | 15 | | 0 | | (75) | | 0 |\n"
                 "| Total net operating revenues | | 5,120 | | 2,210 | | 3,330 | | 1,815 | | 40 | | (575) | | 11,940 |\n"
                 "| Operating income (loss) | | 1,400 | | 610 | | 820 | | (90) | | (300) | | (40) | | 2,400 |\n")


@pytest.mark.parametrize("part, item, value", [
    ("northern europe baltics & nordics", "revenue", 5_120e6), ("south america", "revenue", 2_210e6),
    ("pacific rim", "operating income", 820e6),
    ("fleet leasing", "revenue", 1_815e6),  # first on the last line: after the four lines of one name each
])
def test_names_a_line_each_then_the_rest_on_a_line_ending_with_the_total_give_each_parts_column(part, item, value):
    """A name with a comma had been no line of names, the block's year on its own line no year, and the lines
    above a table's last twelve never looked at; counted from the end, 'Corporate Eliminations' was one name."""
    found = find_operand(Item(item, 2023, part=part), LIB.items[item], [SourcePage("s", 140, A_NAME_A_LINE, False)])
    assert found is not None and (found.value, found.part) == (value, part)


# a table of year blocks (the first block's year closes the line above it, the next block's stands in a row of its
# own) whose columns are segments and a total: a row of the whole company's customers or deliveries is the total's
YEAR_BLOCKS = ("Net sales by customer category for each of our business segments were as follows (in millions): 2024\n\n"
               "| | Avionics | | | Marine | | Total | |\n|---|---|---|---|---|---|---|---|\n"
               "| Net sales by customer | | | | | | | |\n"
               "| U.S. Government | $ | 9,120 | $ | | 3,410 | | 12,530 |\n"
               "| International | | 2,200 | | | 1,100 | | 3,300 |\n"
               "| | | | | 2023 | | | |\n"
               "| Net sales by customer | | | | | | | |\n"
               "| U.S. Government | $ | 8,900 | $ | | 3,020 | | 11,920 |\n"
               "| International | | 2,050 | | | 990 | | 3,040 |\n")
DELIVERIES = ("Airplane deliveries as of December 31 were as follows:\n\n"
              "| | | 100 | 200 | 300 | Total | |\n|---|---|---|---|---|---|---|\n"
              "| | 2024 | | | | | |\n| Cumulative deliveries | | 1,210 | 340 | 95 | | |\n"
              "| Deliveries | | 61 | 22 | 9 | | 92 |\n| | 2023 | | | | | |\n"
              "| Cumulative deliveries | | 1,149 | 318 | 86 | | |\n| Deliveries | | 55 | 20 | 7 | | 82 |\n")


@pytest.mark.parametrize("part, year, value", [("us government", 2024, 12_530e6), ("us government", 2023, 11_920e6),
                                               ("international", 2023, 3_040e6)])
def test_a_customers_row_in_a_table_of_year_blocks_is_read_in_its_blocks_total_column(part, year, value):
    found = find_operand(Item("revenue", year, part=part), LIB.items["revenue"], [SourcePage("s", 78, YEAR_BLOCKS, False)],
                         library_names=LIB.item_names)
    assert found is not None and found.value == value


def test_only_the_total_column_of_a_year_block_is_dated_never_a_row_that_stops_short_of_it():
    rows = [(c.label, [(f.written, f.period) for f in c.figures if f.period])
            for c in page_candidates(DELIVERIES, "s", 27) if c.source == "row" and "deliveries" in c.label.lower()]
    assert rows == [("Cumulative deliveries", []), ("Deliveries", [("92", "2024")]),
                    ("Cumulative deliveries", []), ("Deliveries", [("82", "2023")])]
