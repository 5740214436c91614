"""A part of the company the question names as its filing names it, without a part noun: read as that part, the
filing (not a list of words) saying which names are parts."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.part_sections import report_parts
from rag_assets.answer.question.filing_parts import marked_part, named_part
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan

# a filing's own words (written for this test): its segments listed, one called a segment in a heading
OVERVIEW = ("We manage our business in three reportable segments: Zephyr Outdoor, Harbor Tools, and Global "
            "Brand Services. Results of the Kestrel division are reported within Harbor Tools.")
PARTS = report_parts([OVERVIEW])


def test_the_filing_names_the_parts_the_question_may_name_without_a_part_noun():
    assert {"Zephyr Outdoor", "Harbor Tools", "Global Brand Services", "Kestrel"} <= set(PARTS)


@pytest.mark.parametrize("question, formula", [
    ("How much revenue did Zephyr Outdoor contribute to Globex in fiscal 2021? USD millions.",
     "revenue [zephyr outdoor] 2021"),
    ("Revenues from Harbor Tools for Globex in FY2021, in USD millions", "revenue [harbor tools] 2021"),
    ("Globex operating income earned by Kestrel in 2021", "operating income [kestrel] 2021"),
    ("What was the operating income of Globex's Harbor Tools business in 2021?",
     "operating income [harbor tools] 2021"),
])
def test_a_part_the_filing_names_is_read_as_the_part(question, formula):
    plan = company_plan(question, "number", ("Globex",), default_library(), parts=PARTS)
    assert plan.formula == formula
    assert plan.part == formula.split("[")[1].split("]")[0]


def test_a_yes_no_by_figures_of_a_part_the_filing_names_compares_that_parts_figures():
    for question in ("Did Globex's revenue from Zephyr Outdoor grow in fiscal 2021?",
                     "Did revenue from the Zephyr Outdoor segment of Globex grow in fiscal 2021?"):  # 'from' no period
        plan = company_plan(question, "boolean", ("Globex",), default_library(), parts=PARTS)
        assert plan.formula == "revenue [zephyr outdoor] 2021 vs revenue [zephyr outdoor] 2020"
    plan = company_plan("Did Globex's revenue grow from fiscal 2019 to fiscal 2021?", "boolean", ("Globex",),
                        default_library(), parts=PARTS)
    assert plan.formula == "revenue 2021 vs revenue 2019"


@pytest.mark.parametrize("question, parts", [
    ("How much revenue did Zephyr Outdoor contribute to Globex in fiscal 2021?", ()),  # the filing names none
    ("How much revenue did Zephyr Outdoor contribute to Globex in fiscal 2021?", ("Harbor Tools",)),
    ("What was Globex's revenue from harbor tools in fiscal 2021?", PARTS),  # not written as the filing prints it
    ("What was Globex Harbor's revenue in fiscal 2021?", ("Globex Harbor",)),  # the company's own name
])
def test_no_part_is_read_where_the_filing_names_none_as_the_question_writes_it(question, parts):
    written = ("Globex Harbor", "Globex") if "Globex Harbor" in question else ("Globex",)
    plan = company_plan(question, "number", written, default_library(), parts=parts)
    assert plan.part == ""


def test_a_part_read_by_its_part_noun_is_not_read_again():
    plan = company_plan("What were Globex's Harbor Tools segment net sales in 2021?", "number", ("Globex",),
                        default_library(), parts=PARTS)
    assert plan.part == "harbor tools" and not any("its filing names" in c for c in plan.checks)


def test_the_name_is_marked_with_the_part_noun_the_reader_knows():
    assert marked_part("revenue earned by Kestrel in 2021", "Kestrel") == "revenue earned by Kestrel segment in 2021"
    assert marked_part("Globex's Kestrel business in 2021", "Kestrel") == "Globex's Kestrel segment in 2021"
    assert named_part("the Kestrel Harbor Tools line", PARTS) == "Harbor Tools"
    assert named_part("U.S. Kestrel.com sales", ("Kestrel",)) == ""  # part of another word, not the name
    # the name where the question writes it as the part, not inside the company's own name
    assert marked_part("Kestrel Holdings' revenue from Kestrel in 2021", "Kestrel", ("Kestrel Holdings",)) == \
        "Kestrel Holdings' revenue from Kestrel segment in 2021"
