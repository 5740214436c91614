"""A figure of the whole company without one part of it or one printed line: the whole's figure less the part's
(or the line's), each read as printed; an adjustment no row names stays unread."""

from __future__ import annotations

import pytest

from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan


@pytest.mark.parametrize("question, formula", [
    ("What was Globex's operating income excluding the Orbital segment in 2021, in USD millions?",
     "(operating income 2021 - operating income [orbital] 2021)"),
    ("Globex FY2021 net sales other than those of its Orbital division (USD mn)",
     "(revenue 2021 - revenue [orbital] 2021)"),
    # a ratio without a part: each of its figures less the part's, the rest's margin
    ("What was Globex's operating margin excluding the Orbital segment in 2021, in percent?",
     "((operating income 2021 - operating income [orbital] 2021) / (revenue 2021 - revenue [orbital] 2021))"),
    ("What were Globex's operating expenses excluding depreciation and amortization in 2021?",
     "(operating expenses 2021 - depreciation and amortization 2021)"),
])
def test_a_figure_excluding_a_part_or_a_line_is_the_whole_less_it(question, formula):
    assert company_plan(question, "number", ("Globex",), default_library()).formula == formula


def test_a_part_named_only_as_the_filing_names_it_is_excluded_too():
    plan = company_plan("Globex 2021 revenues excluding Harbor Tools, USD millions", "number", ("Globex",),
                        default_library(), parts=("Harbor Tools", "Zephyr Outdoor"))
    assert plan.formula == "(revenue 2021 - revenue [harbor tools] 2021)"


@pytest.mark.parametrize("question", [
    "What was Globex's net income excluding special items in 2021?",
    "What was Globex's revenue excluding currency effects in 2021?",
    "Globex 2021 adjusted EBITDA excluding restructuring costs",
])
def test_an_adjustment_no_row_names_stays_unread(question):
    assert company_plan(question, "number", ("Globex",), default_library()).formula == ""


@pytest.mark.parametrize("question, formula", [
    # outside a part: the whole's figure less the part's (it had been read as the part's own figure)
    ("What was Globex's revenue from outside the Americas segment in 2022?", "(revenue 2022 - revenue [americas] 2022)"),
    ("What share of Globex's 2022 revenue came from outside North America?",
     "((revenue 2022 - revenue [north america] 2022) / revenue 2022)"),
    ("What percentage of Globex's 2022 net sales were earned outside of Asia Pacific?",
     "((revenue 2022 - revenue [asia pacific] 2022) / revenue 2022)"),
    # the library's own words for a region stay that region: 'outside the United States' is the international part
    ("What percentage of Globex's 2022 net sales was generated outside the United States?",
     "(revenue [international] 2022 / revenue 2022)"),
    ("What were Globex's net sales generated outside the United States in 2022?", "revenue [international] 2022"),
])
def test_a_figure_outside_a_part_is_the_whole_less_the_part(question, formula):
    assert company_plan(question, "number", ("Globex",), default_library()).formula == formula
