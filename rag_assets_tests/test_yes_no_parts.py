"""Yes/no questions decided by figures of a part of the company or against a bound in trillions (issue 45, class
7, in wording of our own): the part a question names stays on the figure ('Greater China' is no comparative, a
segment's loss is the segment's), and a bound's scale word is read whatever its size."""

from __future__ import annotations

import pytest

from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan

LIB = default_library()
PARTS = ("Commercial Airplanes", "Greater China", "Defense Systems")


def _formula(question: str) -> str:
    return company_plan(question, "boolean", ("Globex",), LIB, parts=PARTS).formula


@pytest.mark.parametrize("question", [
    "Did Globex's Greater China revenues grow in fiscal 2019?",
    "Did Globex's revenues in Greater China grow in fiscal 2019?",
    "Was Globex's Greater China revenue higher in 2019 than in 2018?",
])
def test_a_region_whose_name_opens_with_greater_is_the_region(question):
    assert _formula(question) == "revenue [greater china] 2019 vs revenue [greater china] 2018"


def test_greater_as_a_comparative_still_compares():
    assert _formula("Was Globex's revenue greater in 2019 than in 2018?") == "revenue 2019 vs revenue 2018"


@pytest.mark.parametrize("question", [
    "Did Globex's Commercial Airplanes segment post an operating loss in 2022?",
    "Did the Commercial Airplanes segment of Globex have an operating loss in 2022?",
    "Was Globex's Commercial Airplanes segment profitable in 2022?",
])
def test_a_segments_loss_or_profit_is_the_segments_operating_income(question):
    assert _formula(question) == "operating income [commercial airplanes] 2022"


def test_the_companys_net_loss_is_its_net_income():
    assert _formula("Did Globex report a net loss in 2022?") == "net income 2022"


@pytest.mark.parametrize("question, bound", [
    ("Did Globex's total deposits exceed USD 2.3 trillion at June 30, 2023?", "2.3e+12"),
    ("Did Globex's total assets exceed $3.9 tn in 2023?", "3.9e+12"),
    ("Did Globex's capital expenditures exceed USD 20 billion in 2023?", "2e+10"),
])
def test_a_bound_in_trillions_is_read_in_its_scale(question, bound):
    lines = company_plan(question, "boolean", ("Globex",), LIB, parts=PARTS).lines()
    assert any(line.endswith(f"against {bound} [a figure criterion (more)]") for line in lines)


GROWTH = "((revenue [{0}] 2022 - revenue [{0}] 2021) / revenue [{0}] 2021)"


@pytest.mark.parametrize("question, formula", [
    ("Did Globex's Commercial Airplanes segment grow faster than its Defense Systems segment in 2022?",
     f"({GROWTH.format('commercial airplanes')} - {GROWTH.format('defense systems')})"),
    ("Did Globex's Greater China business grow faster than the company as a whole in 2022?",
     f"({GROWTH.format('greater china')} - ((revenue 2022 - revenue 2021) / revenue 2021))"),
    ("Did Globex's Defense Systems segment grow in 2022?", "revenue [defense systems] 2022 vs revenue [defense systems] 2021"),
])
def test_a_part_that_grows_is_its_sales(question, formula):
    """'Did the X segment grow faster than its Y segment': the two parts' sales growth (no figure was named, and
    a line item 'faster' of the part was looked for: the model's p(yes) decided)."""
    assert _formula(question) == formula
