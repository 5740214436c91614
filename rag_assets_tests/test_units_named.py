"""A ratio asked in no unit is answered as its name states it: a margin, a rate, a share of a whole or a growth in
percent ('an operating margin of 11.3 %'), a ratio or a multiple as a ratio ('a current ratio of 1.54'); a ratio
the filing prints in percent as printed; a quarter's return on assets as the filing prints it (annualized), never
the quarter's flow over the average balance."""

from __future__ import annotations

import pytest

from rag_assets.answer.question.formulas import Item, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.plan import dimension_problem, plan
from rag_assets.answer.question.unit import asked_unit

LIB = default_library()


@pytest.mark.parametrize("question", [
    "What was the operating margin of Globex's Snacks division in 2021?",
    "What share of Globex's 2021 operating income came from its Cloud segment?",
    "What was the Cloud segment's proportion of Globex's revenue in FY2022?",  # a share in other words
    "What was Tarn's effective tax rate in fiscal 2019?",
    "How fast did Tarn's revenues grow in 2022?",
    "What was Tarn's gross margin in 2022? Round to two decimal places."])
def test_a_ratio_named_as_a_percentage_is_answered_in_percent_when_no_unit_is_asked(question):
    unit = asked_unit(question)
    assert unit.named_percent and unit.ratio(0.15484) == pytest.approx(15.484, abs=0.01)


@pytest.mark.parametrize("question", [
    "What was Tarn's current ratio at the end of 2022?",
    "What was Tarn's fixed asset turnover in 2022?",
    "What was Tarn's gross margin in 2022, as a decimal?",
    "What was Tarn's gross margin in 2022 in decimal form?",
    "What was Tarn's operating margin in 2022, in basis points?",
    "What was Tarn's interest coverage ratio in 2022?",
    "What was the euro exchange rate Tarn used in 2022?"])
def test_a_ratio_asked_as_a_ratio_a_multiple_a_decimal_or_in_points_is_not_made_a_percent(question):
    unit = asked_unit(question)
    assert not unit.named_percent
    assert unit.ratio(0.15484) in (pytest.approx(0.15484), pytest.approx(1548.4))


def test_a_ratio_the_filing_prints_in_percent_is_answered_as_printed_when_no_unit_is_asked():
    """'Return on common equity 20 %' read as an operand is 0.2; asked with no unit it is answered 20, as
    printed; asked as a decimal, 0.2."""
    assert asked_unit("What was Tarn's return on common equity in 2Q23?").ratio(0.2, printed_percent=True) == 20
    assert asked_unit("What was Tarn's return on common equity in 2Q23, as a decimal?").ratio(
        0.2, printed_percent=True) == pytest.approx(0.2)


@pytest.mark.parametrize("question, expected", [
    ("What was Tarn's return on assets in the second quarter of 2023?", "return on assets 2023 (Q2)"),
    ("What was Tarn's ROA for the six months ended June 30, 2023?", "return on assets 2023 (6 months)"),
    ("What was Tarn's return on assets in 2022?", "(net income 2022 / mean(total assets 2021, total assets 2022))"),
    ("Change in Tarn's return on assets between the second quarter of 2022 and the second quarter of 2023, in basis "
     "points", "(return on assets 2023 (Q2) - return on assets 2022 (Q2))")])
def test_a_quarters_return_on_an_average_balance_is_the_printed_ratio_a_years_is_computed(question, expected):
    """Net income of a quarter over average assets is a quarter of the annual ratio the filing prints (0.38 %
    against 1.51 %): over a part of the year the plan is the printed row; over a year the library's formula."""
    found = plan(question, LIB)
    assert show(found.node) == expected


def test_a_decimal_asked_is_no_word_of_the_figure():
    assert show(plan("What was Tarn's return on common equity in the second quarter of 2023, as a decimal?",
                     LIB).node) == "return on common equity 2023 (Q2)"
    assert show(plan("What was Tarn's FY2022 gross profit as a fraction of net sales?", LIB).node) == \
        "(gross profit 2022 / revenue 2022)"


@pytest.mark.parametrize("question", [
    "What were Tarn's FY2019 revenues in billions of dollars, rounded to two decimals?",
    "What were Tarn's 2019 revenues, rounded to one decimal place?",
    "Report Tarn's FY2019 revenues, to 2 d.p., in USD billions.",
    "What were Tarn's 2019 revenues (rounded to the nearest whole number)?",
    "Tarn's 2019 revenues in USD millions and round to two decimal places",
    "What was Tarn's 2019 revenue, rounding it to three significant figures?"])
def test_a_rounding_asked_is_no_word_of_the_figure(question):
    """How the number is to be rounded, wherever the question writes it, says nothing of which figure it is: a line
    item asked with a rounding is the item asked without one (not a row named 'revenues rounded to two decimals')."""
    assert show(plan(question, LIB).node) == "revenue 2019"


@pytest.fixture(scope="module")
def wexford(tmp_path_factory):
    from rag_assets_tests.filing_factory import answerer_over_10k

    figures = {"Revenue": {2021: 900, 2022: 1000, 2023: 1150}, "Operating income": {2021: 99, 2022: 123, 2023: 130},
               "Income before income taxes": {2022: 110, 2023: 120}, "Provision for income taxes": {2022: 22, 2023: 30}}
    return answerer_over_10k(tmp_path_factory.mktemp("units_named"), "Wexford Pumps Inc", 2023, figures)


@pytest.mark.parametrize("question, expected", [
    ("What was Wexford Pumps' operating margin in 2023?", 100 * 130 / 1150),
    ("What was Wexford Pumps' operating margin in 2023, as a decimal?", 130 / 1150),
    ("What was Wexford Pumps' effective tax rate in 2023?", 25.0),
    ("What was Wexford Pumps' operating margin in 2023, in percent?", 100 * 130 / 1150)])
def test_a_margin_or_rate_asked_with_no_unit_is_answered_in_percent_end_to_end(wexford, question, expected):
    rec = wexford.answer(question, "number")
    assert rec.value == pytest.approx(expected), rec.notes


def test_a_line_item_asked_with_a_rounding_is_answered_end_to_end(wexford):
    rec = wexford.answer("What were Wexford Pumps' 2023 revenues in USD millions, rounded to one decimal place?", "number")
    assert rec.value == pytest.approx(1150), rec.notes


def test_a_margin_asked_in_a_currency_is_its_printed_amount_not_a_percent():
    """'gross margin in dollars' asks the amount a 'Gross margin' row prints, as 'in USD millions' does."""
    for question in ("What was Tarn's gross margin in dollars in fiscal 2019?", "What was Tarn's gross margin in USD in 2019?"):
        unit = asked_unit(question)
        assert unit.money and not unit.named_percent
        found = plan(question, LIB)
        assert show(found.node) == "gross margin 2019" and found.node.amount


def test_a_change_in_points_of_a_ratio_written_in_the_plural_keeps_its_words():
    """'net earnings as a percent of sales' read as written (revenue), not singularized into a row 'sale'; the
    plural of a ratio's own name is still the ratio ('gross margins')."""
    assert show(plan("By how many percentage points did Tarn's net earnings as a percent of sales change from Q2 2022 "
                     "to Q2 2023?", LIB).node) == \
        "((net income 2023 (Q2) / revenue 2023 (Q2)) - (net income 2022 (Q2) / revenue 2022 (Q2)))"
    assert show(plan("By how many basis points did Tarn's gross margins change from 2021 to 2022?", LIB).node) == \
        "((gross profit 2022 / revenue 2022) - (gross profit 2021 / revenue 2021))"


def test_a_banks_printed_ratio_asked_by_its_abbreviation_is_a_ratio_read_as_printed():
    """'ROTCE ... in percent' had been refused (the abbreviation read as an amount, a percent asked of it): it is
    the printed ratio, a percentage that no statement scale applies to."""
    from rag_assets.answer.question.formulas import money

    found = plan("What was Tarn's ROTCE for the six months ended June 30, 2023, in percent?", LIB)
    assert show(found.node) == "return on tangible common equity 2023 (6 months)" and not money(found.node)


@pytest.mark.parametrize("question, answer", [
    ("What was Globex's 2022 revenue in USD, rounded to the nearest billion?", 67_000_000_000),
    ("Globex 2022 revenue in dollars, to the nearest million", 66_608_000_000),
    ("What was Globex's 2022 revenue, to the nearest million?", 66_608),  # no unit named: in millions
    ("Globex 2022 revenue in USD millions, rounded to the nearest million", 66_608),
])
def test_a_currency_asked_with_a_rounding_to_a_scale_is_full_units_rounded(question, answer):
    """'in USD, rounded to the nearest billion' names the unit (dollars) and its precision (billions): the amount
    in dollars, rounded; 'to the nearest million' alone is the amount in millions."""
    assert asked_unit(question).amount(66_608e6) == answer


@pytest.mark.parametrize("question, formula", [
    ("What was Tarn's return on average equity in 2022?", "(net income 2022 / mean(total equity 2021, total equity 2022))"),
    ("What was Tarn's 2022 return on shareholders' equity?",
     "(net income 2022 / mean(total equity 2021, total equity 2022))"),
    ("What was Tarn's return on average assets in 2022?", "(net income 2022 / mean(total assets 2021, total assets 2022))"),
])
def test_a_return_on_a_balance_is_the_librarys_ratio_never_the_balance(question, formula):
    """'return on average equity' is the return on equity, never 'total equity' (the longest item its words
    hold): an amount is no answer to a return on something."""
    assert show(plan(question, LIB).node) == formula
    assert dimension_problem(Item("total equity", 2022), question) is not None
