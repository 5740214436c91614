"""A part within a part, and a table's blocks (issue 45, in this round's own wording): a region of a segment
("Globex's U.S. Cloud sales", "the Cloud segment's sales outside the United States") is the region's row in
that segment's block; the company's region is the row after the last block's subtotal, never a segment's; a
name joined by 'and' that the filing prints as one part is one part; a dash keeps its column's place."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.evidence.part_rows import names_part
from rag_assets.answer.question.formulas import Item
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan

LIB = default_library()
PARTS = ("Cloud Services", "Devices", "Tools and Services")

# a release's sales by segment and region: the first segment's heading is the line above the table, each block
# ends with an unlabeled subtotal, the company's regions follow the last one; a dash stands for no currency effect
BY_SEGMENT = (
    "Supplementary Sales Data\n(Unaudited; Dollars in Millions)\n"
    "2022 2021 Total Operations Currency 2022 2021 Total Operations Currency\n"
    "Sales to customers by segment of business\n\nCloud Services (1)\n\n"
    "| U.S. | $ | 1,900 | 1,700 | 11.8 % | 11.8 | - | $ | 7,100 | 6,900 | 2.9 % | 2.9 | - |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    "| International |  | 2,100 | 2,250 | (6.7) | 2.0 | (8.7) |  | 8,300 | 8,500 | (2.4) | 4.1 | (6.5) |\n"
    "|  |  | 4,000 | 3,950 | 1.3 | 6.4 | (5.1) |  | 15,400 | 15,400 | 0.0 | 3.5 | (3.5) |\n"
    "| Devices (2) |  |  |  |  |  |  |  |  |  |  |  |  |\n"
    "| U.S. |  | 3,400 | 3,200 | 6.3 | 6.3 | - |  | 13,300 | 12,700 | 4.7 | 4.7 | - |\n"
    "| International |  | 3,300 | 3,600 | (8.3) | 2.5 | (10.8) |  | 14,000 | 14,300 | (2.1) | 6.5 | (8.6) |\n"
    "|  |  | 6,700 | 6,800 | (1.5) | 4.4 | (5.9) |  | 27,300 | 27,000 | 1.1 | 5.6 | (4.5) |\n"
    "| U.S. |  | 5,300 | 4,900 | 8.2 | 8.2 | - |  | 20,400 | 19,600 | 4.1 | 4.1 | - |\n"
    "| International |  | 5,400 | 5,850 | (7.7) | 2.3 | (10.0) |  | 22,300 | 22,800 | (2.2) | 5.5 | (7.7) |\n"
    "| Worldwide |  | 10,700 | 10,750 | (0.5) | 5.1 | (5.6) |  | 42,700 | 42,400 | 0.7 | 4.7 | (4.0) |\n")


def _sales(part: str) -> float | None:
    found = find_operand(Item("revenue", 2022, part=part, months=3), LIB.items["revenue"],
                         [SourcePage("s", 7, BY_SEGMENT, False, PARTS)], library_names=LIB.item_names)
    return found.value / 1e6 if found else None


@pytest.mark.parametrize("part, sales", [
    ("international", 5_400), ("us", 5_300),  # the company's regions: after the last block's subtotal
    ("cloud services > international", 2_100), ("cloud services > us", 1_900),  # the block the line above heads
    ("devices > united states", 3_400), ("devices > international", 3_300),  # a heading row's block
])
def test_a_region_is_read_in_the_block_of_the_part_it_is_of(part, sales):
    assert _sales(part) == sales


@pytest.mark.parametrize("part, sales", [("cloud services", 4_000), ("devices", 6_700)])
def test_a_blocks_unlabeled_subtotal_is_the_figure_of_the_part_that_heads_it(part, sales):
    assert _sales(part) == sales  # the heading row ('Devices (2)') or the line above ('Cloud Services (1)')


def test_an_unlabeled_subtotal_under_a_scale_or_under_no_heading_names_nothing():
    table = ("(In millions)\n\n| (In millions) |  |  |\n|---|---|---|\n| Product | 5 | 4 |\n| Service | 2 | 1 |\n"
             "|  | 7 | 5 |\n")
    assert [c.label for c in page_candidates("2022 2021\n" + table, "s", 1)] == ["Product", "Service"]


def test_a_region_of_a_part_the_table_does_not_print_is_not_found():
    assert _sales("tools and services > international") is None


def test_a_subtotal_closes_its_block_and_a_dash_keeps_its_columns_place():
    rows = [c for c in page_candidates(BY_SEGMENT, "s", 7) if c.source == "row"]
    us = [c for c in rows if c.label.startswith("U.S")]
    assert [c.section for c in us] == ["Cloud Services", "Devices (2)", ""]
    assert [(f.written, f.period) for f in us[0].figures[:2]] == [("1,900", "2022"), ("1,700", "2021")]


@pytest.mark.parametrize("question, formula", [
    ("What were Globex's U.S. Cloud Services sales in the fourth quarter of 2022?",
     "revenue [cloud services > us] 2022 (Q4)"),
    ("How much did Globex's Devices segment sell outside the United States in Q4 2022?",
     "revenue [devices > international] 2022 (Q4)"),
    ("Globex international Devices sales, Q4 2022, USD millions", "revenue [devices > international] 2022 (Q4)"),
    ("What were the net sales of Globex's Tools and Services business in 2022?", "revenue [tools and services] 2022"),
    ("What were Globex's international sales in the fourth quarter of 2022?", "revenue [international] 2022 (Q4)"),
])
def test_a_region_of_a_part_its_filing_names_is_planned_as_a_part_within_that_part(question, formula):
    assert company_plan(question, "number", ("Globex",), LIB, parts=PARTS).formula == formula


def test_the_complement_of_a_region_the_filing_calls_a_segment_is_no_region_within_it():
    """A filing whose segments are regions ('United States', 'Europe'): sales 'outside the United States' are the
    international ones, never 'the international sales of the United States segment' (no row prints that)."""
    plan = company_plan("What share of Globex's 2023 revenues came from outside the United States?", "number",
                        ("Globex",), LIB, parts=("United States", "Europe", "Asia Pacific"))
    assert plan.formula == "(revenue [international] 2023 / revenue 2023)"


def test_a_yes_no_on_a_region_of_a_part_compares_that_regions_figures():
    plan = company_plan("Did Globex's U.S. Devices sales decline in Q4 2022 compared with Q4 2021?", "boolean",
                        ("Globex",), LIB, parts=PARTS)
    assert plan.formula == "revenue [devices > us] 2022 (Q4) vs revenue [devices > us] 2021 (Q4)"


def test_a_region_written_with_commas_and_an_ampersand_is_the_region():
    plan = company_plan("How much revenue did Globex generate in Europe, Middle East & Africa in fiscal 2021?",
                        "number", ("Globex",), LIB)
    assert plan.part == "europe middle east & africa"
    assert names_part("Europe, Middle East & Africa", plan.part)


def test_a_names_last_word_after_and_is_not_the_name():
    assert names_part("U.S.", "united states") and names_part("Total Devices", "devices")
    assert not names_part("Services", "tools and services")
    assert names_part("Aeronautics", "lockheed martin aeronautics")  # the company's name before it


@pytest.mark.parametrize("question", [
    "What were Globex's Canadian operations' net sales in 2022?",
    "What was the total revenue of Globex's Canadian Operations in 2022?",
    "What were Globex's net sales in Canada in 2022?",
])
def test_a_part_the_filing_names_by_a_regions_adjective_is_that_region_not_a_region_within_it(question):
    parts = ("U.S., Canadian, and Other International", "Canadian", "U.S.")  # 'segments: U.S., Canadian, and ...'
    assert company_plan(question, "number", ("Globex",), LIB, parts=parts).formula == "revenue [canada] 2022"


@pytest.mark.parametrize("question", [
    "What was Globex's reported sales growth in the U.S. in the fourth quarter of 2022, in percent?",
    "What was Globex's sales growth in the US in Q4 2022, in percent?",
    "How much did Globex's U.S. sales grow in Q4 2022, in percent?",
    "What was the growth in Globex's U.S. sales in the fourth quarter of 2022, in percent?",
])
def test_growth_in_a_region_is_the_growth_of_the_regions_figure_not_of_the_region(question):
    assert company_plan(question, "number", ("Globex",), LIB, parts=PARTS).formula == \
        "((revenue [us] 2022 (Q4) - revenue [us] 2021 (Q4)) / revenue [us] 2021 (Q4))"


@pytest.mark.parametrize("question, formula", [
    ("What were the combined sales of Globex's Cloud Services and Devices segments in Q4 2022?",
     "(revenue [cloud services] 2022 (Q4) + revenue [devices] 2022 (Q4))"),
    ("What was the combined revenue of Globex's Cloud Services and Devices segments in Q4 2022?",
     "(revenue [cloud services] 2022 (Q4) + revenue [devices] 2022 (Q4))"),
    ("What was Globex's pre-tax margin in the fourth quarter of 2022, in percent?",
     "(income before taxes 2022 (Q4) / revenue 2022 (Q4))"),
])
def test_combined_figures_of_parts_and_a_pretax_margin_are_planned(question, formula):
    assert company_plan(question, "number", ("Globex",), LIB, parts=PARTS).formula == formula
