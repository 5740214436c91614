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
