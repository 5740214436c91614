"""The difference of two figures of one period, in any wording, is the first less the second ('the difference
between Globex's net interest income and its noninterest revenue in Q2 2023' had been read as the change of one
figure 'net interest income and noninterest revenue' between two years, and with 'its' before the second figure
as no plan at all). A difference between two periods of one figure stays a change between them. Wording of our
own."""

from __future__ import annotations

import pytest

from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan


def _plan(question: str):
    return company_plan(question, "number", ("Globex",), default_library())


@pytest.mark.parametrize("question", [
    "What was the difference between Globex's net interest income and its noninterest revenue in Q2 2023, in USD "
    "millions?",
    "Q2 2023: what was the difference between Globex's net interest income and noninterest revenue, in USD millions?",
    "By how much did Globex's net interest income exceed its noninterest revenue in the second quarter of 2023?",
    "How much more was Globex's net interest income than its noninterest revenue in 2Q23, in USD millions?",
])
def test_the_difference_of_two_figures_is_the_first_less_the_second_in_every_wording(question):
    plan = _plan(question)
    assert plan.formula == "(net interest income 2023 (Q2) - noninterest revenue 2023 (Q2))"
    assert plan.how == "a difference of two figures"


def test_a_difference_of_library_items_of_a_year():
    plan = _plan("What is the difference between Globex's operating cash flow and its capital expenditures in "
                 "fiscal 2022, in USD millions?")
    assert plan.formula == "(cash from operations 2022 - capital expenditure 2022)"
    # the asking words already read ('by how much' gone), a company whose name starts with a figure
    plan = company_plan("By how much did 4Front's net sales exceed its cost of sales in 2022, in USD millions?",
                        "number", ("4Front",), default_library())
    assert plan.formula == "(revenue 2022 - cost of goods sold 2022)"


@pytest.mark.parametrize("question, formula", [
    ("By how much did Globex's revenue in 2022 exceed that of 2021, in USD millions?", "(revenue 2022 - revenue 2021)"),
    ("How much higher was Globex's revenue in 2022 than in 2021, in USD millions?", "(revenue 2022 - revenue 2021)"),
])
def test_a_difference_between_two_years_of_one_figure_stays_a_change(question, formula):
    plan = _plan(question)
    assert plan.formula == formula and plan.how == "a change between two years"
