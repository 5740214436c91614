"""A part asked as a segment that the company's filings do not have (issue 45: N/A only with a reason): the question
calls it a segment or a division, and neither the names the filings call parts nor their pages know it. In wordings
and pages of our own."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.unprinted_parts import unprinted_part
from rag_assets.answer.question.filing_parts import called_segment
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan

PAGES = ["Operating revenues | Wireless service revenue | 74,354 | 72,105",
         "Our wireless business faces competition from cable operators."]


@pytest.mark.parametrize("question, part, called", [
    ("What was Globex's Wireless segment revenue in 2022?", "wireless", True),
    ("What was the operating margin of Globex's Cloud Services business segment in 2021?", "cloud services", True),
    ("net sales of the Snacks division in 2020", "snacks", True),
    ("What were Globex's Cloud Services revenues in 2021?", "cloud services", False),  # no part noun
    ("What was Globex's ZX business revenue in 2021?", "zx", False),  # 'business' is no segment
])
def test_a_part_is_called_a_segment_only_where_its_name_is_followed_by_the_noun(question, part, called):
    assert called_segment(question, part) is called


def test_the_plan_records_that_its_part_was_called_a_segment_but_not_a_region():
    lib = default_library()
    assert company_plan("What was Globex's Wireless segment revenue in 2022?", "number", ("Globex",), lib).segment
    assert not company_plan("What was Globex's International segment revenue in 2022?", "number", ("Globex",),
                            lib).segment  # a region is printed whether or not it is a segment
    assert not company_plan("What was Globex's revenue in 2022?", "number", ("Globex",), lib).segment


def test_a_segment_no_name_nor_page_of_the_filings_knows_is_refused_with_the_names_they_print():
    why = unprinted_part("wireless", ("Consumer", "Business", "Corporate and Other"), PAGES)
    assert why == "no 'wireless' segment or division: its filings name Consumer, Business, Corporate and Other"


@pytest.mark.parametrize("part, parts, pages", [
    ("wireless", ("Consumer", "Business"), PAGES + ["Results of the Wireless segment were ..."]),  # printed so
    ("consumer & community banking", ("CCB", "CIB", "AWM"), PAGES),  # its initials are a part
    ("domestic streaming", ("Domestic DVD", "International"), PAGES),  # a word of a part (an incomplete list)
    ("wireless", (), PAGES),  # the filings name no parts: nothing to check against
])
def test_a_segment_the_filings_may_have_is_not_refused(part, parts, pages):
    assert unprinted_part(part, parts, pages) == ""
