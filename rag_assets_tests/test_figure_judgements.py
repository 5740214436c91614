"""Yes/no questions Python decides from figures where the statements print no ready-made row: a gross margin
from revenue and the costs of products and services (no gross profit line), and a part's share of revenue
from the rows that add up to the revenue total. A synthetic 10-K ingested by the real pipeline, answered
without a model."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.shares import share_asked
from rag_assets_tests.filing_factory import answerer_over_10k

COMPANY = "Ostrander Aerofab Corp"
FIGURES = {  # in millions; no gross profit and no cost of sales row, as some manufacturers print them
    "Sales of products": {2021: 700, 2022: 760, 2023: 880},
    "Sales of services": {2021: 300, 2022: 240, 2023: 320},
    "Total revenues": {2021: 1000, 2022: 1000, 2023: 1200},
    "Cost of products": {2021: -560, 2022: -620, 2023: -700},
    "Cost of services": {2021: -200, 2022: -180, 2023: -230},
    "Total costs and expenses": {2021: -760, 2022: -800, 2023: -930},
    "Total assets": {2022: 3000, 2023: 3100},
}


@pytest.fixture(scope="module")
def answerer(tmp_path_factory):
    return answerer_over_10k(tmp_path_factory.mktemp("figures_data"), COMPANY, 2023, FIGURES)


def test_a_gross_margin_without_a_gross_profit_row_is_computed_from_its_costs(answerer):
    """2023: (1,200 - 930) / 1,200 = 22.5 %; 2022: (1,000 - 800) / 1,000 = 20 %: improving."""
    rec = answerer.answer(f"Does {COMPANY} have an improving gross margin profile as of FY2023?", "boolean")
    assert rec.value is True and rec.llm_calls == 0
    assert "(revenue 2023 - (cost of products 2023 + cost of services 2023))" in rec.computation["formula"]
    assert any("no statement row prints gross profit 2023: computed as" in n for n in rec.notes)
    operands = [(o["item"], o["year"]) for o in rec.computation["operands"]]
    assert len(operands) == len(set(operands)) == 6  # revenue is one operand, though two formulas use it
    rec = answerer.answer(f"What was {COMPANY}'s FY2023 gross profit? Answer in USD millions.", "number")
    assert rec.value == pytest.approx(270.0)


def test_a_share_of_revenue_is_decided_by_the_rows_that_add_up_to_the_total(answerer):
    """Products are 880 of 1,200 (73 %) in FY2023: over 20 %, not over 80 %."""
    rec = answerer.answer(f"Are there any product categories / service categories that represent more than 20% "
                          f"of {COMPANY}'s revenue for FY2023?", "boolean")
    assert rec.value is True and rec.llm_calls == 0
    assert {o["written"] for o in rec.computation["operands"]} == {"880", "1,200"}
    assert rec.references and rec.references[0]["page_index"] == 13  # the income statement, after 12 narratives
    rec = answerer.answer(f"Does any single product line account for more than 80% of {COMPANY}'s net sales in "
                          "FY2023?", "boolean")
    assert rec.value is False and any("73.3% of revenue 2023" in n for n in rec.notes)


def test_which_questions_ask_a_share_of_revenue():
    assert share_asked("Are there any product categories that represent more than 20% of X's revenue?") == 0.2
    assert share_asked("Does any segment account for over 50 percent of total net sales in FY2022?") == 0.5
    assert share_asked("Did any customer account for more than 10% of X's revenue in FY2022?") is None
    assert share_asked("Did X's revenue grow more than 20% in FY2022?") is None


def test_a_criterion_of_every_year_holds_only_when_each_year_does(answerer):
    """Revenue 1,000, 1,000, 1,200 (FY2021-FY2023): it grew from FY2021 to FY2023, but not every year."""
    rec = answerer.answer(f"Did {COMPANY}'s revenue grow from FY2021 to FY2023?", "boolean")
    assert rec.value is True and rec.llm_calls == 0
    rec = answerer.answer(f"Did {COMPANY}'s revenue grow every year from FY2021 to FY2023?", "boolean")
    assert rec.value is False and rec.llm_calls == 0
    assert rec.computation["how"] == "a figure criterion (up) in each of 2 years"
    for wording in ("post consecutive annual revenue increases", "grow its revenue in successive years"):
        rec = answerer.answer(f"Did {COMPANY} {wording} from FY2021 through FY2023?", "boolean")
        assert rec.value is False and rec.computation["how"] == "a figure criterion (up) in each of 2 years"
    rec = answerer.answer(f"Were {COMPANY}'s 'Sales of products' more than 70% of total revenues in each of FY2022 "
                          "and FY2023?", "boolean")
    assert rec.value is True and rec.llm_calls == 0  # 760 / 1,000 and 880 / 1,200



def test_a_criterion_of_years_named_one_by_one_holds_in_each_or_in_any_as_asked(answerer):
    """Revenue 1,000, 1,000, 1,200 and sales of services 300, 240, 320 (FY2021-FY2023): 'in both' and years
    named one by one ask each year (only the last had been tested: FY2023's 1,200 answered True); 'or' asks any."""
    rec = answerer.answer(f"Did {COMPANY}'s revenue increase in both FY2022 and FY2023?", "boolean")
    assert rec.value is False and rec.computation["how"] == "a figure criterion (up) in each of 2 years"
    rec = answerer.answer(f"Did {COMPANY}'s revenue increase in FY2022 or FY2023?", "boolean")
    assert rec.value is True and rec.computation["how"] == "a figure criterion (up) in any of 2 years"
    rec = answerer.answer(f"Were {COMPANY}'s 'Sales of services' above $250 million in FY2022 and FY2023?", "boolean")
    assert rec.value is False and rec.computation["how"] == "a figure criterion (more) in each of 2 years"
    rec = answerer.answer(f"Did {COMPANY} have more revenue than total costs and expenses in both FY2022 and "
                          "FY2023?", "boolean")
    assert rec.value is True and rec.llm_calls == 0 and rec.computation["how"].endswith("in each of 2 years")

@pytest.mark.parametrize("bound, expected", [("200 basis points", True), ("3 percentage points", False)])
def test_a_change_bounded_in_points_is_the_difference_of_the_ratio(answerer, bound, expected):
    """22.5 % in 2023 against 20 % in 2022: the gross margin expanded by 250 basis points (by 12.5 % of itself,
    which a bound in points is not)."""
    rec = answerer.answer(f"Did {COMPANY}'s gross margin expand by more than {bound} in 2023?", "boolean")
    assert rec.value is expected and rec.computation is not None, rec.notes
