"""The parts of a company its report names, and the sections of the report that are one part's: a question about
the whole company is never answered from them (a company's backlog had been read from its first segment's
'Backlog at year-end' row). Made-up pages."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.evidence.part_sections import part_section, parts_pages, report_parts
from rag_assets.answer.question.formulas import Item
from rag_assets.answer.question.metric_library import default_library

OVERVIEW = ("We operate in three business segments: Orbital Systems, Ground Control Networks (GCN) and Marine "
            "Robotics.\n\nOur Orbital Systems business segment designs satellites.")
ORBITAL = ("Orbital Systems\n\nOur Orbital Systems business segment designs and builds satellites for government "
           "and commercial customers.\n\n| | 2023 | 2022 |\n|---|---|---|\n| Net sales | $ 9,120 | $ 8,840 |\n"
           "| Backlog at year-end | $ 21,400 | $ 19,950 |\n")
GCN = ("Trends\n\nGround Control Networks\n\nOur GCN business segment runs ground stations. GCN’s operating results "
       "included the following (in millions):\n\n| | 2023 | 2022 |\n|---|---|---|\n"
       "| Backlog at year-end | $ 7,300 | $ 6,900 |\n")
SELECTED = ("ITEM 6. Selected Financial Data (in millions)\n\n| | 2023 | 2022 |\n|---|---|---|\n"
            "| Net sales | $ 24,500 | $ 23,100 |\n| Backlog | $ 41,800 | $ 38,700 |\n")


def test_a_report_names_its_parts_where_it_lists_them_and_where_it_calls_one_a_segment():
    parts = report_parts([OVERVIEW, ORBITAL, GCN])
    assert {"Orbital Systems", "Ground Control Networks", "GCN", "Marine Robotics"} <= set(parts)
    assert not {"Our", "The", "Total", "Trends"} & set(parts)


def test_two_parts_named_together_are_two_parts_and_a_name_with_and_of_its_own_is_one():
    risks = ("Sales in our Orbital Systems and Marine Robotics segments may fall. Rotary and Mission Systems "
             "segment builds helicopters.")
    parts = report_parts([OVERVIEW, risks])
    assert "Orbital Systems and Marine Robotics" not in parts and {"Orbital Systems", "Marine Robotics"} <= set(parts)
    assert "Rotary and Mission Systems" in parts  # no part 'Rotary' is named alone


@pytest.mark.parametrize("caption, section, part", [
    ("Orbital Systems", "", "Orbital Systems"),  # the part's heading just above the table
    ("GCN’s operating results included the following (in millions):", "", "GCN"),  # the part as the owner
    ("Backlog increased on higher orders. Trends Ground Control Networks", "", "Ground Control Networks"),
    ("Trends Ground Control Networks millions):", "", "Ground Control Networks"),  # a scale's tail after it
    ("", "Marine Robotics", "Marine Robotics"),  # a heading row inside the table
    ("ITEM 6. Selected Financial Data", "", ""),
    ("Net sales of Orbital Systems and Marine Robotics", "", ""),  # a phrase naming parts, no part's heading
    # the part's name written out in capitals as the page's heading, the report calling it by its acronym
    ("GROUND CONTROL NETWORKS Refer to page 12 for GCN's profile. Selected data (in millions)", "", "GCN"),
    ("GROUND CONTROL NETWORK FEES", "", ""),  # more words in capitals: another heading
    # the sentence above the table ends with the part it is of
    ("Sales rose. The following table provides net sales and net income for the Marine Robotics segment (in "
     "millions):", "", "Marine Robotics"),
    ("The following table presents a reconciliation of net income of reportable segments (in millions):", "", ""),
])
def test_a_candidate_is_in_a_parts_section_when_its_heading_is_the_parts(caption, section, part):
    parts = ("Orbital Systems", "Ground Control Networks", "GCN", "Marine Robotics")
    assert part_section(caption, section, parts) == part


def test_the_whole_companys_figure_is_never_read_in_a_parts_section():
    """'Backlog' of the company is the selected data's 41,800; each segment's 'Backlog at year-end' is its own."""
    parts = report_parts([OVERVIEW, ORBITAL, GCN])
    pages = [SourcePage("r", 40, ORBITAL, False, parts), SourcePage("r", 41, GCN, False, parts),
             SourcePage("r", 30, SELECTED, False, parts)]
    found = find_operand(Item("backlog", 2023), None, pages)
    assert found is not None and found.value == 41800e6 and found.page_index == 30
    alone = find_operand(Item("backlog", 2023), None, pages[:2])
    assert alone is None  # no whole-company row: not found, never a segment's


def test_the_number_reader_lists_no_parts_figure_for_the_whole_company():
    from rag_assets.answer.readers.number_reader import shortlist
    from rag_assets.retrieval.query import default_lexicon

    parts = {"r": report_parts([OVERVIEW, ORBITAL, GCN])}
    pages = [SourcePage("r", 40, ORBITAL, False), SourcePage("r", 30, SELECTED, False)]
    listed = shortlist(pages, "backlog", default_lexicon(), 8, parts=parts)
    assert [c.page_index for c in listed] == [30]
    assert [c.page_index for c in shortlist(pages, "backlog", default_lexicon(), 8)] == [40, 30]  # parts unknown


NOTE = ("Segment information (in millions)\n\nOrbital Systems\n\nGround Control Networks\n\nMarine Robotics Total\n\n"
        "| Net sales | $ 9,120 | $ 4,100 | $ 2,300 | $ 15,520 |\n|---|---|---|---|---|\n")
PROSE = ("Orbital Systems, Ground Control Networks and Marine Robotics each grew in 2023, as the discussion below of "
         "each of our business segments explains at some length.\n\n| Net sales | $ 15,520 | $ 14,800 |\n|---|---|---|\n")


def test_the_pages_printing_the_parts_side_by_side_are_those_naming_three_in_their_tables_or_short_lines():
    """A segment note the ranking missed is still searched for a part's figure: the pages naming three of the
    report's parts or more in their tables or lines of names; prose naming them all is no table of the parts."""
    parts = report_parts([OVERVIEW])
    pages = {3: OVERVIEW, 40: PROSE, 88: NOTE, 90: ORBITAL}
    assert parts_pages(pages, parts) == (88,)


# a report whose parts are regions, listed with semicolons (their names hold commas), each with its own table of
# product lines under the region's name in capitals; the company's own table of the same lines prints its years one
# column a line above it, as a PDF's text layer extracts such a header
REGIONS = ("The Company's reportable operating segments for the Widget Brand are: North America; Europe, Middle "
           "East & Africa (EMEA); Greater China; and Asia Pacific & Latin America (APLA), and include results for "
           "its brands.")
CONSOLIDATED = ("## CONSOLIDATED OPERATING RESULTS\n\n(Dollars in millions)\n\nFISCAL 2019\n\nFISCAL 2018 (1)\n\n"
                "% CHANGE\n\n% CHANGE EXCLUDING CURRENCY CHANGES (2)\n\nFISCAL 2017 (1)\n\n% CHANGE\n\n"
                "% CHANGE EXCLUDING CURRENCY CHANGES (2)\n\nWidget Brand Revenues by:\n\n"
                "| Footwear | $ | 24,222 $ | 22,268 |  | 9 % | 12 % $ |  |  | 21,081 |  | 6 % |  | 4 % |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
                "| Apparel |  | 11,550 | 10,733 |  | 8 % |  |  | 11 % | 9,654 |  | 11 % |  | 9 % |\n")
NORTH_AMERICA = ("## NORTH AMERICA\n\n(Dollars in millions) FISCAL 2019 FISCAL 2018 % CHANGE\n\n% CHANGE EXCLUDING "
                 "CURRENCY CHANGES FISCAL 2017 % CHANGE\n\nRevenues by:\n\n"
                 "| Footwear | $ | 10,045 $ | 9,322 | 8% | 8% $ |  | 9,684 | -4 % | -4 % |\n|---|---|---|---|---|---|---|---|---|---|\n")


def test_parts_listed_with_semicolons_are_each_a_part_with_its_acronym():
    parts = report_parts([REGIONS])
    assert {"North America", "Europe, Middle East & Africa", "EMEA", "Greater China", "Asia Pacific & Latin America",
            "APLA"} <= set(parts)
    assert not {"Widget Brand are", "and Asia Pacific & Latin America"} & set(parts)


@pytest.mark.parametrize("caption, part", [
    ("NORTH AMERICA % CHANGE EXCLUDING CURRENCY CHANGES Revenues by:", "North America"),
    ("EUROPE, MIDDLE EAST & AFRICA % CHANGE FISCAL 2017", "Europe, Middle East & Africa"),
    ("NORTH AMERICA RETAIL Revenues by:", ""),  # another heading in capitals
    ("North American footwear revenues rose", ""),
])
def test_a_parts_name_in_capitals_heading_the_table_makes_it_the_parts(caption, part):
    assert part_section(caption, "", report_parts([REGIONS])) == part


def test_the_companys_line_is_read_under_years_printed_a_column_a_line_never_a_regions():
    """The company's footwear revenues are its own table's 24,222 (its header printed one column a line), never
    North America's 10,045 (a part's table); with the company's table alone the region's row is still not read."""
    parts = report_parts([REGIONS])
    pages = [SourcePage("r", 32, NORTH_AMERICA, False, parts), SourcePage("r", 28, CONSOLIDATED, False, parts)]
    found = find_operand(Item("footwear revenues", 2019), None, pages)
    assert found is not None and found.value == 24222e6 and found.page_index == 28
    assert find_operand(Item("footwear revenues", 2017), None, pages).value == 21081e6
    assert find_operand(Item("footwear revenues", 2019), None, pages[:1]) is None


CONSUMER_SEGMENT = ("## U.S. CONSUMER SERVICES\n\nTABLE 9: USCS SELECTED INCOME STATEMENT DATA\n\n"
                    "| Years Ended December 31, | | | |\n| --- | --- | --- | --- |\n"
                    "| (Millions, except percentages) | 2024 | 2023 | Change |\n"
                    "| Total revenues net of interest expense | 12,914 | 10,922 | 18 % |\n"
                    "| Pretax segment income | $ 3,400 | $ 3,958 | (14)% |\n")


def test_a_parts_heading_with_dotted_initials_is_the_parts_caption():
    """'U.S. CONSUMER SERVICES' heads the part 'us consumer services' (its dots had folded to 'u s': every figure
    of the segment's table was refused as no part's)."""
    lib = default_library()
    parts = report_parts(["We principally engage in businesses comprising four reportable operating segments: U.S. "
                          "Consumer Services (USCS), Commercial Services (CS), International Card Services (ICS) and "
                          "Global Merchant and Network Services (GMNS)."])
    pages = [SourcePage("r", 53, CONSUMER_SEGMENT, False, parts)]

    def pretax(part: str):
        return find_operand(Item("income before taxes", 2024, part=part), lib.items["income before taxes"], pages,
                            library_names=lib.item_names)

    found = pretax("us consumer services")
    assert found is not None and found.value == 3400e6
    assert pretax("international card services") is None
