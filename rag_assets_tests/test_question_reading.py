"""Reading a question into a plan Python runs (answer/question/): the period, the unit, the formula and the yes/no
criterion, in wordings of their own for each failure class of issue 37 (none is a development question), and on
the development sets: a reworded question gets its original's plan."""

from __future__ import annotations

import json
import random
import re

import pytest

from rag_assets.answer.routing.filings import Filing, select, uncovered
from rag_assets.answer.question.formulas import Item, evaluate, items_of, money, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.criterion import criterion
from rag_assets.answer.question.period import asked_period
from rag_assets.answer.question.plan import dimension_problem, plan
from rag_assets.answer.question.unit import asked_unit

LIB = default_library()


def formula(question: str) -> str | None:
    found = plan(question, LIB)
    return show(found.node) if found else None


def test_the_asked_clause_is_the_question_not_the_boilerplate_after_it():
    q = ("How much did Initech's net sales grow from FY2020 to FY2021, in percent? Work out what was asked from the "
         "statement of operations.")
    assert formula(q) == "((revenue 2021 - revenue 2020) / revenue 2020)"
    assert asked_unit(q).percent


def test_a_definition_is_substituted_into_what_is_asked_never_the_whole_answer():
    q = "For FY2021, what was Umbrella Corp's EBITDA minus capex, with EBITDA defined as operating income plus D&A?"
    assert formula(q) == ("((operating income 2021 + depreciation and amortization 2021) - "
                          "capital expenditure 2021)")
    q = ("What was Umbrella's average EBITDA margin over FY2019 to FY2021, in percent, where EBITDA is operating "
         "profit plus depreciation and amortization?")
    node = plan(q, LIB).node
    assert show(node).startswith("mean(((operating income 2019 + depreciation and amortization 2019) / revenue 2019)")
    assert not money(node) and len(node.terms) == 3
    q = "What is Acme's FY2022 return on assets? ROA is defined as: FY2022 net income / FY2022 total assets."
    assert formula(q) == "(net income 2022 / total assets 2022)"  # the question's ROA, not the library's average


@pytest.mark.parametrize("written", ["as a share of", "as a proportion of", "as a percentage of", "divided by"])
def test_a_definition_in_brackets_is_the_ratio_in_any_words_for_a_division(written):
    """'gross margin (gross profit as a share of sales)' is gross profit over sales, once: the brackets define the
    margin, they are no share of it."""
    q = f"By how many basis points did Umbrella's gross margin (gross profit {written} sales) change from 2Q22 to 2Q23?"
    assert formula(q) == ("((gross profit 2023 (Q2) / revenue 2023 (Q2)) - "
                          "(gross profit 2022 (Q2) / revenue 2022 (Q2)))")
    q = f"What was Umbrella's operating margin (operating income {written} net sales) in fiscal 2022?"
    assert formula(q) == "(operating income 2022 / revenue 2022)"


def test_a_ratio_or_percent_asked_is_never_answered_with_an_amount():
    assert formula("What were Acme's capital expenditures relative to its revenue in fiscal 2022, in percent?") == \
        "(capital expenditure 2022 / revenue 2022)"
    assert formula("What was Acme's gross margin for FY2022 in percent?") == "(gross profit 2022 / revenue 2022)"
    q = ("What is Acme's FY2021 debt-to-equity ratio, with debt defined as long-term debt plus short-term borrowings? "
         "Round to two decimal places.")
    assert formula(q) == "((total debt 2021 + short term borrowings 2021) / total equity 2021)"
    assert dimension_problem(Item("total assets", 2022), "What were Acme's FY2022 total assets in percent?")
    assert plan("What was Acme's FY2022 total assets ratio in percent?", LIB) is None


def test_a_percent_change_is_a_relative_change_and_a_difference_only_when_no_rate_is_asked():
    assert formula("By what percentage did Acme's net sales change between FY2020 and FY2021?") == \
        "((revenue 2021 - revenue 2020) / revenue 2020)"
    assert formula("What was the change in Acme's total assets between FY2021 and FY2022? Answer in USD millions.") \
        == "(total assets 2022 - total assets 2021)"
    assert formula("How much did Acme's sales grow year over year in FY22? Give the growth rate in percent.") == \
        "((revenue 2022 - revenue 2021) / revenue 2021)"


@pytest.mark.parametrize("question", [
    "Acme FY2022 revenue YoY growth %",  # the qualifier and the percent sign after the growth, as analysts write
    "Acme's revenue growth YoY in FY2022",
    "What was Acme's revenue growth y/y for 2022?",
    "Acme's 2022 revenue growth in %",
])
def test_a_growth_qualified_after_its_word_is_the_years_relative_change(question):
    assert formula(question) == "((revenue 2022 - revenue 2021) / revenue 2021)"


@pytest.mark.parametrize("question, expected", [
    ("Globex's revenues, FYE May 31, 2019, USD mn", "revenue 2019"),  # 'FYE': the fiscal year ended
    ("What was Globex's FYE2021 net income?", "net income 2021"),
    ("Globex's net income, FY2021", "net income 2021"),  # the period after a comma ends the item's name
    ("Globex's revenues, Q4 2017", "revenue 2017 (Q4)"),
])
def test_a_fiscal_year_named_by_its_end_or_after_a_comma_is_the_items_period(question, expected):
    assert formula(question) == expected


@pytest.mark.parametrize("question, expected", [
    ("What is the value of the line item Purchases of property and equipment in Globex's 2017 cash flow statement?",
     "capital expenditure 2017"),  # a row named as printed, unquoted: its label, not 'cash flow statement'
    ("In its 2022 income statement, what did Globex report under Selling, general and administrative expense?",
     "selling general and administrative 2022"),
    ("What number does Globex's 2018 cash flow statement print for Net cash provided by (used in) financing activities?",
     "net cash provided by used in financing activities 2018"),
    ("What was Globex's revenue as reported for FY2021?", "revenue 2021"),  # a period is no row
])
def test_a_row_named_as_the_filing_prints_it_is_read_by_its_label(question, expected):
    assert formula(question) == expected


@pytest.mark.parametrize("question, expected", [
    ("What was Initech's diluted net income (loss) per share in the fourth quarter of 2024?", "diluted eps 2024 (Q4)"),
    ("State Initech's basic earnings/(loss) per share for FY2023.", "basic eps 2023"),
    ("What was Initech's (loss) income from operations in 2023, in USD millions?", "operating income 2023"),
    ("Initech's operating profit (losses) for fiscal 2022?", "operating income 2022"),
])
def test_a_loss_written_beside_its_income_names_the_one_signed_line(question, expected):
    """'(loss)' beside an income is the same line's sign, as its row prints it: 'diluted net income (loss) per
    share' is diluted EPS (it had been read as net income: the words after the loss were lost)."""
    from rag_assets.answer.question.planning import plan_question
    assert plan_question(question, "number", LIB).formula == expected


@pytest.mark.parametrize("question, kind, expected", [
    ("Did Initech's free cash flow (operating cash flow minus purchases of PP&E) exceed $2 billion in 2024?",
     "boolean", "(cash from operations 2024 - capital expenditure 2024)"),
    ("What was Initech's 2024 operating cash flow less additions to PP&E, in USD millions?",
     "number", "(cash from operations 2024 - capital expenditure 2024)"),
    ("Did Initech's operating cash flow minus capital expenditures exceed $2 billion in 2024?",
     "boolean", "(cash from operations 2024 - capital expenditure 2024)"),
    ("Was Initech's revenue less cost of sales above $900 million in 2024?",
     "boolean", "(revenue 2024 - cost of goods sold 2024)"),
    ("Was Initech's net income less than $2 billion in 2024?", "boolean", "net income 2024"),
])
def test_a_difference_written_before_a_bound_and_purchases_of_pp_and_e(question, kind, expected):
    """A difference written out before a bound ('operating cash flow minus capital expenditures exceed $2
    billion') is the figure bounded: only its last operand had been read ('revenue minus cost of sales': cost of
    sales). 'Purchases of PP&E' is capital expenditure, an amount spent: it had been read as a row so named,
    printed negative in the cash flow statement, so 'operating cash flow minus purchases of PP&E' added it."""
    from rag_assets.answer.question.planning import plan_question
    assert plan_question(question, kind, LIB).formula.startswith(expected)


def test_vocabulary_a_one_word_item_never_stands_for_a_longer_phrase_and_abbreviations_are_known():
    assert formula("What was Acme's FY2022 cash flow from operating activities?") == "cash from operations 2022"
    assert formula("What was Acme's FY2022 membership fee revenue?") == "membership fee revenue 2022"
    assert formula("What was Acme's net AR at the end of FY2022?") == "accounts receivable 2022"
    assert formula("What were Acme's FY2022 restructuring costs, in USD million?") == "restructuring costs 2022"
    assert formula("What was Acme's in-process research and development expense in FY2022?") == \
        "in-process research and development 2022"  # its own line, never research and development's
    assert formula("What was Acme's research and development expense in FY2022?") == "research and development 2022"
    assert formula("What was Acme's FY2022 tax provision over pre-tax income?") == \
        "(income tax expense 2022 / income before taxes 2022)"
    assert asked_unit("in USD million").scale == 1e6


def test_periods_in_every_common_form():
    assert asked_period("Acme's FY22 revenue").years == (2022,)
    assert asked_period("the three years FY17-FY19").years == (2017, 2018, 2019)
    assert asked_period("fiscal 2023 (the year ended January 28, 2023)").target == 2023
    assert asked_period("did it fall in 3Q22 versus 3Q21?") == asked_period("in Q3 2022 versus Q3 2021")
    assert asked_period("in Q3 2022 versus Q3 2021").quarter == 3
    assert asked_period("Was revenue higher in '21 than in ’20?").years == (2021, 2020)
    assert asked_period("Acme's '90s results and Acme's 2021 revenue").years == (2021,)  # a decade, a possessive


def test_two_quarter_end_dates_of_one_year_are_those_quarters():
    """'Between March 31, 2023 and June 30, 2023' had read as a change between 2022 and 2023 (the 10-Q's
    December 31, 2022 balance was subtracted); a pair across years, or of months closing no calendar quarter,
    stays a change between years."""
    dated = asked_period("How much did Acme's total deposits change between March 31, 2023 and June 30, 2023?")
    assert (dated.points, dated.quarter, dated.months) == (((2023, 1), (2023, 2)), 2, 3)
    assert dated == asked_period("How much did Acme's total deposits change from 1Q23 to 2Q23?")
    assert formula("How much did Acme's total deposits change between March 31, 2023 and June 30, 2023?") == \
        "(total deposits 2023 (Q2) - total deposits 2023 (Q1))"
    assert asked_period("between December 31, 2022 and June 30, 2023").years == (2022, 2023)
    assert asked_period("between May 31, 2018 and May 31, 2019").points == ()
    assert asked_period("between March 31, 2023 and December 31, 2023").points == ()
    assert asked_period("between March 31, 2023 and May 31, 2023").points == ()  # had raised a TypeError


def test_the_latest_year_is_the_year_of_the_report_that_answers():
    """'In its most recent fiscal year' named no year, so nothing was computed; it is the year of the company's
    latest annual report (the one routed), and a question naming a year keeps its own."""
    from rag_assets.answer.question.period import with_latest_year

    q = with_latest_year("What was Vandelay's operating margin in its most recent fiscal year?", 2022)
    assert formula(q) == "(operating income 2022 / revenue 2022)"
    assert formula(with_latest_year("What was Vandelay's revenue last fiscal year?", 2021)) == "revenue 2021"
    assert with_latest_year("Did revenue in FY2020 beat the latest year?", 2022) == \
        "Did revenue in FY2020 beat the latest year?"
    assert with_latest_year("Did revenue grow compared with last year?", 2022) == \
        "Did revenue grow compared with last year?"  # the year before the one asked: not the report's year


def test_a_part_of_a_year_is_never_answered_with_the_fiscal_years_figure():
    """'H1 2022 revenue' was planned as the fiscal year's revenue: a confident wrong answer. A half year, nine
    months or a year to date is read in the interim columns of its months (test_interim_periods.py), never the
    fiscal year's; a second half, which no column prints, is its third and fourth quarters added."""
    for q, months in (("What was Vandelay's revenue in H1 2022?", "6 months"),
                      ("What were Vandelay's net sales in the first half of 2022?", "6 months"),
                      ("What was Vandelay's operating income for the six months ended June 30, 2022?", "6 months"),
                      ("What was Vandelay's year-to-date revenue in 2022?", "year to date")):
        assert asked_period(q).part_year and formula(q).endswith(f"2022 ({months})"), q
    assert formula("What was Vandelay's revenue in H2 2022?") == "(revenue 2022 (Q3) + revenue 2022 (Q4))"
    assert formula("What was Vandelay's revenue in FY2022?") == "revenue 2022"
    c = criterion("Did Vandelay's revenue rise in the first half of 2022?", LIB)
    assert (show(c.now), show(c.before)) == ("revenue 2022 (6 months)", "revenue 2021 (6 months)")


def test_a_year_no_filing_of_the_company_covers_is_na_not_another_years_figure():
    filings = [Filing("a", "Acme", "annual", 2019), Filing("b", "Acme", "annual", 2021)]
    assert uncovered(filings, asked_period("What was Acme's FY2023 revenue?"))
    assert select(filings, asked_period("What was Acme's FY2023 revenue?"))[0] == []
    assert [f.sha1 for f in select(filings, asked_period("FY2018 revenue"))[0]] == ["a"]  # printed as a prior year
    quarter = [Filing("q", "Acme", "quarterly", 2023, 2)]
    assert select(quarter, asked_period("net income in the third quarter of 2023"))[0] == []
    assert select(quarter, asked_period("net income in the second quarter of 2022"))[0] == quarter
    assert select(filings, asked_period("What is Acme's expected FY2022 revenue?"), forward=True)[0]  # guidance


def test_a_span_longer_than_one_reports_columns_reads_its_first_years_in_the_companys_other_reports():
    """'Revenue decline between 2018 and 2022' routes to the FY2022 report, which prints 2020-2022 only; FY2018 was
    missing (N/A). The company's other annual reports are listed by the years they print: the year's own report
    first, then the nearer later one; the chosen report and interim filings are not among them."""
    from rag_assets.answer.routing.filing_routes import FilingRoutes
    from rag_assets.answer.routing.router import Route

    filings = {"a18": Filing("a18", "Acme", "annual", 2018), "a19": Filing("a19", "Acme", "annual", 2019),
               "a22": Filing("a22", "Acme", "annual", 2022), "q22": Filing("q22", "Acme", "quarterly", 2022, 2),
               "o22": Filing("o22", "Other", "annual", 2022)}
    routes = FilingRoutes({s: f.company for s, f in filings.items()}, None, filings)
    by_year = routes.year_filings(Route("Acme", ("a22",), 0))
    assert by_year[2018] == ("a18", "a19") and by_year[2017] == ("a18", "a19") and by_year[2019] == ("a19",)
    assert by_year[2016] == ("a18",) and 2020 not in by_year and 2022 not in by_year


def test_the_most_recent_quarter_is_the_latest_quarter_the_companys_filings_report():
    """'Acme's net income in the most recent quarter' names no period: it is the latest quarter Acme's filings
    report (an interim filing's quarter, an annual report's fourth), read as that quarter and routed to its
    filing; a question naming a year keeps it."""
    from rag_assets.answer.question.period import asks_latest_quarter, with_latest_quarter
    from rag_assets.answer.routing.filing_routes import FilingRoutes

    filings = {"a22": Filing("a22", "Acme", "annual", 2022), "e22": Filing("e22", "Acme", "earnings", 2022, 4),
               "e23": Filing("e23", "Acme", "earnings", 2023, 2), "o21": Filing("o21", "Other", "annual", 2021)}
    routes = FilingRoutes({s: f.company for s, f in filings.items()}, None, filings)
    assert routes.latest_quarter("Acme") == (2023, 2) and routes.latest_quarter("Other") == (2021, 4)
    question = with_latest_quarter("What was Acme's net income in the most recent quarter?", (2023, 2))
    assert question == "What was Acme's net income in Q2 2023?"
    assert asked_period(question).quarter == 2 and asked_period(question).months == 3
    assert select([filings["a22"], filings["e22"], filings["e23"]], asked_period(question))[0] == [filings["e23"]]
    assert with_latest_quarter("What were Acme's sales in its latest reported quarter?", (2022, 4)) == \
        "What were Acme's sales in Q4 2022?"
    notes = []
    assert routes.at_latest_quarter("What was Acme's net income in its latest quarter?", notes) == \
        "What was Acme's net income in Q2 2023?" and "read as Q2 2023" in notes[-1]
    assert routes.at_latest_quarter("What was Acme's net income in 2022?", notes) == "What was Acme's net income in 2022?"
    assert not asks_latest_quarter("What was Acme's revenue in the last quarter of fiscal 2019?")
    assert with_latest_quarter("What was Acme's revenue in 2022?", (2023, 2)) == "What was Acme's revenue in 2022?"


def test_a_change_written_as_a_multiple_is_a_change_in_percent():
    """'More than double', 'tripled', 'halved' are changes of 100 %, 200 %, -50 %: they were not read."""
    def crit(q):
        c = criterion(q, LIB)
        return c.test, show(c.now), show(c.before), c.bound
    assert crit("Did Vandelay's revenue more than double between 2013 and 2017?") == \
        ("up_by", "revenue 2017", "revenue 2013", 1.0)
    assert crit("Has Vandelay's net income tripled from FY2019 to FY2022?") == \
        ("up_by", "net income 2022", "net income 2019", 2.0)
    assert crit("Was Vandelay's operating income halved in 2022 compared with 2021?") == \
        ("down_by", "operating income 2022", "operating income 2021", 0.5)
    assert criterion("Did Vandelay report double-digit revenue growth in 2022?", LIB) is None


@pytest.mark.parametrize("question, test", [
    ("Was Vandelay's operating margin higher in 2019 than in 2023?", "down"),
    ("Was Vandelay's net income lower in FY2019 compared with FY2023?", "up"),
    ("Was Vandelay's operating margin higher in 2023 than in 2019?", "up"),
    ("Were Vandelay's net sales lower in 2023 than in 2019?", "down"),
])
def test_a_year_compared_with_a_later_one_runs_the_movement_back_in_time(question, test):
    """'Higher in 2019 than in 2023' says the figure went down from 2019 to 2023: it had been read as a rise
    from 2019 to 2023, whichever year the comparison named first."""
    c = criterion(question, LIB)
    assert (c.test, set(re.findall(r"\d{4}", show(c.now))), set(re.findall(r"\d{4}", show(c.before)))) == \
        (test, {"2023"}, {"2019"})


def test_x_to_y_names_a_ratio_when_both_sides_are_whole_names():
    """'Net debt to EBITDA' was read as EBITDA alone; 'X to Y' is X / Y when the words on each side are an item's or
    metric's whole name ('net debt' is the library's standard metric, not 'debt'), never 'from 2021 to 2022'."""
    assert formula("What was Vandelay's net debt to EBITDA in FY2022?") == \
        "((total debt 2022 - cash and cash equivalents 2022) / (operating income 2022 + depreciation and " \
        "amortization 2022))"
    assert formula("What was Vandelay's capex-to-depreciation in FY2022?") == \
        "(capital expenditure 2022 / depreciation and amortization 2022)"
    assert formula("What was Vandelay's adjusted debt to EBITDA in FY2022?") is None  # a modified name
    assert formula("What was Vandelay's revenue from 2021 to 2022?") == "revenue 2022"
    assert formula("What is Vandelay's debt to equity at the end of FY2022?") == "(total debt 2022 / total equity 2022)"
    # a one-word metric after the company's possessive is that metric ('EBITDA margin' was left unplanned)
    assert formula("What was Vandelay's EBITDA margin in FY2022?") == \
        "((operating income 2022 + depreciation and amortization 2022) / revenue 2022)"


def test_yes_no_on_a_growth_bound_two_growth_rates_or_one_figure_exceeding_another():
    """'Revenue growth above 10%' was read as any rise; 'grow faster than revenue' and 'debt exceed equity' were
    left to the model."""
    def crit(q):
        c = criterion(q, LIB)
        return c.test, show(c.now), show(c.before) if c.before is not None else None, c.bound
    assert crit("Was Vandelay's revenue growth in FY2022 above 10%?") == ("up_by", "revenue 2022", "revenue 2021", 0.1)
    assert crit("Was the decline in Vandelay's net income in FY2022 less than 5 percent?")[0::3] == ("down_less", 0.05)
    assert crit("Did Vandelay's operating expenses grow faster than its revenue in FY2022?") == (
        "positive", "(((operating expenses 2022 - operating expenses 2021) / operating expenses 2021) - "
        "((revenue 2022 - revenue 2021) / revenue 2021))", None, 0.0)
    assert crit("Did Vandelay's total debt exceed its total equity at the end of FY2022?") == \
        ("positive", "(total debt 2022 - total equity 2022)", None, 0.0)
    assert crit("Did Vandelay's revenue exceed $12.5 billion in FY2022?") == ("more", "revenue 2022", None, 12.5e9)


def test_a_part_of_the_company_is_never_planned_by_the_model_either():
    """With the model's plan switched on, 'revenue of the Data Center segment' was planned by the model as the
    company's revenue (3,991 where the filings print no such segment: gold N/A). Python reads a named part as its
    own rows (never the company's total) and refuses an adjusted figure, before any model call (the model object
    here is never touched)."""
    from rag_assets.answer.question.planning import plan_question

    never_called = object()  # any use of it raises AttributeError
    planned = plan_question("What revenue did Vandelay's Data Center segment report for FY2015? Answer in USD "
                            "millions.", "number", LIB, never_called)
    assert (planned.source, planned.formula, planned.part, planned.model_calls) == \
        ("rules", "revenue [data center] 2015", "data center", [])
    planned = plan_question("What was Vandelay's adjusted operating income in FY2015?", "number", LIB, never_called)
    assert (planned.source, planned.metric, planned.model_calls) == ("", None, [])


def test_yes_no_decided_by_figures_in_the_forms_analysts_write():
    def crit(q):
        c = criterion(q, LIB)
        return c.test, show(c.now), show(c.before) if c.before is not None else None, c.bound
    assert crit("Did Acme's net PP&E grow from FY2020 to FY2021?") == \
        ("up", "net ppe 2021", "net ppe 2020", 0.0)
    assert crit("Was Acme's net profit larger in fiscal 2023 than in fiscal 2022?") == \
        ("up", "net income 2023", "net income 2022", 0.0)
    assert crit("At the end of FY2022, did Acme hold more current assets than current liabilities?") == \
        ("positive", "(total current assets 2022 - total current liabilities 2022)", None, 0.0)
    assert crit("Did Acme's revenue exceed $12.5 billion in FY2022?") == ("more", "revenue 2022", None, 12.5e9)
    assert crit("Was Acme's effective tax rate below 21% in FY2022?")[0::3] == ("less", 0.21)
    test, now, before, bound = crit("Did Acme's operating income drop by more than a third in FY2022 compared with "
                                    "FY2021?")
    assert (test, now, before) == ("down_by", "operating income 2022", "operating income 2021")
    assert bound == pytest.approx(0.333)


@pytest.mark.parametrize("when", ["at December 31, 2022", "as of Dec. 31, 2022", "at year-end 2022", "in 2022"])
def test_two_items_compared_at_a_date_are_two_figures_of_that_date_not_a_movement(when):
    """'greater than its total equity at December 31, 2022': the debt against the equity of that date; the date
    after the second item is no second period."""
    c = criterion(f"Was Acme's long-term debt greater than its total equity {when}?", LIB)
    assert (c.test, show(c.now), c.before) == ("positive", "(total debt 2022 - total equity 2022)", None)


def test_percent_is_asked_by_the_word_wherever_it_stands_and_a_printed_percent_is_a_quantity():
    assert asked_unit("By what percent did Vandelay's exports rise in FY2021?").percent
    assert asked_unit("What is Vandelay's FY2021 gross margin percentage?").percent
    assert asked_unit("Vandelay's FY2021 capex as % of sales?").percent
    assert not asked_unit("Did Vandelay's tax rate exceed 25% in FY2021?").percent  # a bound, not the unit
    assert not asked_unit("Vandelay's FY2021 payout ratio? Give it as a decimal, not as a percentage.").percent


def test_a_decimal_fraction_of_a_whole_is_the_part_over_the_whole_as_a_decimal():
    from rag_assets.answer.question.planning import plan_question

    asked = plan_question("What was Vandelay's fiscal 2021 net income as a decimal fraction of revenues?", "number", LIB)
    assert (asked.formula, asked.percent) == ("(net income 2021 / revenue 2021)", False)


def test_a_share_of_a_whole_is_the_part_over_the_whole_in_either_order_of_writing():
    assert formula("What share of Vandelay's FY2021 net sales came from subscription fees? Answer in percent.") == \
        "(subscription fees 2021 / revenue 2021)"
    assert formula("What percentage of Vandelay's fiscal 2021 revenue did SG&A account for?") == \
        "(selling general and administrative 2021 / revenue 2021)"
    assert formula("How large was Vandelay's R&D spending relative to net sales in FY2021, in percent?") == \
        "(research and development 2021 / revenue 2021)"


def test_so_much_per_dollar_of_a_whole_is_the_part_over_the_whole():
    """'Per dollar of' asks a ratio; it was read as a scope like 'per share' and left unplanned."""
    assert formula("How many dollars of revenue did Vandelay generate per dollar of total assets in FY2021?") == \
        "(revenue 2021 / total assets 2021)"
    assert formula("What was Vandelay's net income for every dollar of revenue in FY2021?") == \
        "(net income 2021 / revenue 2021)"
    assert formula("What was Vandelay's revenue per share in FY2021?") is None  # a scope: per share


def test_an_item_is_found_in_any_order_and_inflection_of_its_words():
    assert formula("For Vandelay, how much cash did operations generate in FY2021?") == "cash from operations 2021"
    assert formula("What were Vandelay's cash flows generated from operating activities in FY2021?") == \
        "cash from operations 2021"
    assert formula("What was Vandelay's cash balance at the end of FY2021?") == "cash and cash equivalents 2021"
    assert formula("What was Vandelay's FY2021 cash divided by operating expenses?") is None  # never across '/'


def test_yes_no_bounds_losses_and_movements_in_other_words():
    def crit(q):
        c = criterion(q, LIB)
        return (c.test, show(c.now), c.bound) if c else None
    assert crit("Is Vandelay's current ratio below one at the end of FY2021?") == \
        ("less", "(total current assets 2021 / total current liabilities 2021)", 1.0)
    assert crit("Was Vandelay's debt-to-equity ratio greater than 0.8 at the end of FY2021?") == \
        ("more", "(total debt 2021 / total equity 2021)", 0.8)
    assert crit("Did Vandelay report a net loss in FY2021?") == ("negative", "net income 2021", 0.0)
    assert crit("Did Vandelay post an operating loss in FY2021?") == ("negative", "operating income 2021", 0.0)
    assert crit("Was Vandelay profitable in FY2021?") == ("positive", "net income 2021", 0.0)
    assert crit("Did Vandelay record a loss on the sale of its plant in FY2021?") is None
    assert crit("Did Vandelay's inventories go down in FY2021?")[0] == "down"
    assert crit("Were Vandelay's sales in FY2021 higher than FY2020?")[0] == "up"  # a year, not a bound


def test_something_done_in_the_year_is_its_amount_not_zero():
    def crit(q):
        c = criterion(q, LIB)
        return (c.test, show(c.now)) if c else None
    assert crit("Did Vandelay pay a cash dividend to its common shareholders in FY2021?") == \
        ("nonzero", "dividends paid 2021")
    assert crit("Did Vandelay repurchase any of its shares in 2022?") == ("nonzero", "share repurchases 2022")
    assert crit("Has Vandelay bought back stock during fiscal 2020?") == ("nonzero", "share repurchases 2020")
    assert crit("Did Vandelay buy back shares in 2020?") == ("nonzero", "share repurchases 2020")
    assert crit("Did Vandelay pay more in dividends than it spent on capex in 2021?") == \
        ("positive", "(dividends paid 2021 - capital expenditure 2021)")  # two figures compared, not one done
    assert crit("Did Vandelay report a net loss in FY2021?") == ("negative", "net income 2021")


def test_changes_sums_and_statement_references_in_other_words():
    assert formula("What was the difference between Vandelay's operating income in FY2021 and FY2020?") == \
        "(operating income 2021 - operating income 2020)"
    assert formula("How much higher was Vandelay's net profit in FY2021 than in FY2020, in USD millions?") == \
        "(net income 2021 - net income 2020)"
    assert formula("What was Vandelay's sales decline, in percent, between FY2019 and FY2021?") == \
        "((revenue 2019 - revenue 2021) / revenue 2019)"  # the size of the fall: positive when sales fell
    assert formula("What was Vandelay's annual revenue growth rate in FY2021?") == \
        "((revenue 2021 - revenue 2020) / revenue 2020)"
    assert formula("What was the sum of Vandelay's R&D and SG&A expenses in FY2021?") == \
        "(research and development 2021 + selling general and administrative 2021)"
    assert formula("What were Vandelay's net property, plant and equipment in FY2021?") == "net ppe 2021"
    assert formula("Find the amount of inventories on Vandelay's balance sheet at the end of FY2021.") == \
        "inventory 2021"


def test_two_figures_compared_in_either_order_of_writing():
    def crit(q):
        c = criterion(q, LIB)
        return (c.test, show(c.now), c.bound) if c else None
    assert crit("Were Vandelay's current liabilities larger than its current assets at the end of FY2021?") == \
        ("positive", "(total current liabilities 2021 - total current assets 2021)", 0.0)
    assert crit("Did Vandelay spend more on capital expenditures than on research and development in FY2021?") \
        == ("positive", "(capital expenditure 2021 - research and development 2021)", 0.0)
    assert crit("Is Vandelay's interest coverage above 4x in FY2021?") == \
        ("more", "(operating income 2021 / interest expense 2021)", 4.0)


DEV = {"financebench": "questions.json", "paraphrases": "extra/paraphrases.json"}


def _value(node, seed: str):
    """``node`` evaluated with every operand a pseudo-random figure of its item and year: two plans that agree on
    it compute the same thing."""
    values = {i: random.Random(f"{seed}{i.name}{i.year}").uniform(1, 100) for i in items_of(node)}
    return round(evaluate(node, values), 9)


@pytest.mark.real_data
def test_a_reworded_question_gets_its_originals_plan(financebench):
    """Every rewording of a development question reads as the same period, unit and formula as its original,
    except where it names a statement row as printed (no library item: only the filing can tell they agree)."""
    originals = {q["text"]: q for q in json.loads((financebench / "questions.json").read_text())}
    differ = []
    for para in json.loads((financebench / "extra" / "paraphrases.json").read_text()):
        if para["kind"] != "number":
            continue
        a, b = plan(para["original"], LIB), plan(para["text"], LIB)
        if b is not None and any(i.name not in LIB.items for i in items_of(b.node)):
            continue
        same = (a is None) == (b is None) and (a is None or _value(a.node, "x") == _value(b.node, "x"))
        unit_a, unit_b = asked_unit(para["original"]), asked_unit(para["text"])
        if not same or unit_a.scale != unit_b.scale or unit_a.percent != unit_b.percent:
            differ.append((para["text"], show(a.node) if a else None, show(b.node) if b else None))
    assert differ == []


@pytest.mark.real_data
def test_no_plan_of_the_development_questions_contradicts_the_unit_asked(financebench):
    """A question asking a percent or a ratio never gets an amount; one asking an amount in USD millions never
    gets a ratio."""
    questions = json.loads((financebench / "questions.json").read_text())
    questions += json.loads((financebench / "extra" / "paraphrases.json").read_text())
    questions += json.loads((financebench / "extra" / "fresh.json").read_text())
    planned = 0
    for q in questions:
        found = plan(q["text"], LIB) if q["kind"] == "number" else None
        if found is None:
            continue
        planned += 1
        unit = asked_unit(q["text"])
        assert not (unit.percent and money(found.node)), q["text"]
        assert not (unit.scale > 1 and not money(found.node)), q["text"]
    assert planned >= 60


def test_a_company_is_found_by_the_names_its_filings_give_it():
    from rag_assets.answer.routing.filings import cover_names
    from rag_assets.answer.routing.router import Router

    cover = ["FORM 10-K\nCommission file number 1-2345\n\nHARROW & QUILL INDUSTRIES, INC. (Exact name of registrant as "
             "specified in its charter)\nTitle of each class Trading Symbol(s) Name of each exchange\n"
             "Common Stock, $1 par value HQI New York Stock Exchange"]
    later = ["Our common stock trades under the symbol \"HQI\" on the New York Stock Exchange."]
    names, tickers = cover_names(cover, cover + later)
    assert names == ("HARROW & QUILL INDUSTRIES, INC.",) and tickers == ("HQI",)
    router = Router({"s1": "Harrow Quill", "s2": "Bluebird Mining"}, {"Harrow Quill": names},
                    {"Harrow Quill": tickers})
    assert [r.company for r in router.route("What was Harrow & Quill Industries' FY2022 revenue?")] == ["Harrow Quill"]
    assert [r.company for r in router.route("What was HQI's FY22 revenue?")] == ["Harrow Quill"]
    assert router.route("What was hqi revenue?") == []  # a symbol is written in capitals
    assert [r.company for r in Router({"s": "American Express"}).route("Did AmEx grow?")] == ["American Express"]


def test_a_row_named_as_the_question_writes_it_is_found_as_printed():
    from rag_assets.answer.evidence.operands import SourcePage, find_operand

    page = SourcePage("s", 3, "| | 2021 | 2020 |\n| --- | --- | --- |\n| Net sales | 192,052 | 163,220 |\n"
                      "| Membership fees | 3,877 | 3,541 |\n| Total revenue | 195,929 | 166,761 |", True)
    found = find_operand(Item("membership fee revenue", 2020), None, [page])
    assert found is not None and found.label == "Membership fees" and found.value == 3541


def _model_plan(operands, expression, unit):
    from rag_assets.answer.question.model_plan import plan_schema

    return plan_schema(LIB).model_validate({"operands": [dict(zip(("letter", "item", "printed", "year"), o))
                                                          for o in operands],
                                            "expression": expression, "answer_unit": unit})


def test_a_plan_the_model_writes_is_checked_by_python():
    from rag_assets.answer.question.model_plan import check

    q = "What was Acme's FY2021 subscription revenue as a percentage of revenue?"
    node, problem = check(_model_plan([("A", "as printed", "subscription revenue", 2021), ("B", "revenue", "", 2021)],
                                      "(A / B) * 100", "percent"), q)
    assert problem is None and show(node) == "(subscription revenue 2021 / revenue 2021)"  # Python writes percent
    _, problem = check(_model_plan([("A", "revenue", "", 2015), ("B", "revenue", "", 2021)], "A / B", "ratio"), q)
    assert "the year 2015 is not one the question asks" in problem
    _, problem = check(_model_plan([("A", "revenue", "", 2021), ("B", "net income", "", 2021)], "A + C", "ratio"), q)
    assert "'C' is no operand" in problem
    _, problem = check(_model_plan([("A", "revenue", "", 2021)], "A", "amount"), q)
    assert "percent or ratio is asked" in problem


@pytest.mark.slow
def test_the_embedded_model_writes_a_plan_under_the_grammar_and_python_checks_it():
    from rag_assets.answer.question.model_plan import model_plan
    from rag_assets_tests.conftest import embedded_llm

    llm = embedded_llm("qwen2.5-coder-0.5b")
    out = model_plan(llm, "What was Acme's FY2022 operating cash flow minus capital expenditures, in USD millions?",
                     LIB)
    assert out.written and len(out.calls) == len(out.written)  # every call gave a plan of the schema (grammar)
    assert out.plan is not None or out.problems  # a plan that passed Python's checks, or why none did
    if out.plan is not None:  # whatever the small model wrote, what passes is an amount over the years asked
        assert money(out.plan.node) and {i.year for i in items_of(out.plan.node)} <= {2021, 2022}


def test_a_cover_titled_as_an_annual_report_of_a_year_is_that_years_annual_filing():
    """Issue 39: covers such as 'Annual Report 2023' gave doc_type unknown and fiscal year 0."""
    from rag_assets.answer.routing.filings import detect

    assert detect(Filing("s", "Bluebird"), ["Bluebird Mining Ltd\nAnnual Report 2023\nStrategic report"]) == \
        Filing("s", "Bluebird", "annual", 2023)
    assert detect(Filing("s", "X"), ["ANNUAL REPORT AND ACCOUNTS 2022/23"]).year == 2023  # the year it ends
    assert detect(Filing("s", "X"), ["FORM 10-K\nfor the fiscal year ended December 31, 2018"]).year == 2018


def test_a_change_in_percentage_or_basis_points_is_the_difference_of_two_ratios():
    """Issue 45, class 4: 'by how many percentage points' is the later margin less the earlier (was their
    relative change); basis points write it times 10,000. 'PP&E' and the company 'BP' ask no points."""
    margins = "((operating income 2022 / revenue 2022) - (operating income 2021 / revenue 2021))"
    q = "By how many percentage points did Umbrella's operating margin change from FY2021 to FY2022?"
    assert formula(q) == margins and asked_unit(q).ratio(0.0125) == 1.25
    q = "How many basis points did Umbrella's operating margin expand between 2021 and 2022?"
    assert formula(q) == margins and asked_unit(q).ratio(0.0125) == 125
    q = "What was the change in Umbrella's operating margin from 2021 to 2022, in percentage points?"
    assert formula(q) == margins  # the unit in its own clause
    assert formula("What was the change, in basis points, of Umbrella's operating margin from 2021 to 2022?") == \
        margins  # the unit as an aside between the change and its figure
    assert formula("What was the change (in percentage points) in Umbrella's operating margin from 2021 to 2022?") \
        == margins
    q = "What is the difference in percentage points between Umbrella's 2022 and 2021 operating margins?"
    assert formula(q) == margins  # the ratio named in the plural for its two years
    q = "By how many points did Umbrella's operating margin improve from 2021 to 2022?"
    assert formula(q) == margins and asked_unit(q).ratio(0.0125) == 1.25  # points of a ratio are percentage points
    assert formula("By how many bps did Umbrella's gross margin contract from fiscal 2021 to fiscal 2022?") == \
        "((gross profit 2021 / revenue 2021) - (gross profit 2022 / revenue 2022))"  # the contraction: positive
    assert not asked_unit("What was BP's FY2022 net PP&E in USD millions?").basis_points
    assert formula("By how many percentage points did Umbrella's revenue change from 2021 to 2022?") is None
    assert formula("Compute the difference between Umbrella's FY2022 and FY2021 operating margin in bps.") == margins


def test_a_sum_over_years_adds_the_figure_of_every_year_of_the_span():
    """Issue 45, class 4: 'combined', 'the sum of', 'total ... over the three years', 'added together' add the
    figure of every year; an average is still asked by its own word, and 'total assets' is an item."""
    assert formula("What were Umbrella's combined capital expenditures for fiscal 2020, 2021 and 2022? Answer in "
                   "USD millions.") == ("((capital expenditure 2020 + capital expenditure 2021) + "
                                        "capital expenditure 2022)")
    assert formula("What was the sum of Umbrella's net income over FY2019-FY2021?") == \
        "((net income 2019 + net income 2020) + net income 2021)"
    assert formula("What was Umbrella's total revenue over the three years from 2020 to 2022?") == \
        "((revenue 2020 + revenue 2021) + revenue 2022)"
    assert formula("How much did Umbrella pay in dividends in 2021 and 2022 added together?") == \
        "(dividends paid 2021 + dividends paid 2022)"
    assert formula("What was Umbrella's average revenue over the three years from 2020 to 2022?") == \
        "mean(revenue 2020, revenue 2021, revenue 2022)"
    assert formula("What were Umbrella's total assets at the end of 2021 and 2022?") == "total assets 2022"
    assert formula("What was Umbrella's total capital expenditure from 2020 to 2022 in USD millions?") == \
        "((capital expenditure 2020 + capital expenditure 2021) + capital expenditure 2022)"  # flows add up
    # a total over years named is a sum of any row but a balance; 'combined' before a part noun names no part
    assert formula("What was Umbrella's total segment net income over 2020, 2021 and 2022?") == \
        "((segment net income 2020 + segment net income 2021) + segment net income 2022)"
    assert formula("What was Umbrella's combined segment net income over 2020, 2021 and 2022?") == \
        "((segment net income 2020 + segment net income 2021) + segment net income 2022)"
    assert formula("What was Umbrella's total debt over 2021 and 2022?") == "total debt 2022"


def test_a_quoted_label_is_the_row_as_printed():
    """Issue 45, 'row as printed': a label the question quotes is that row: the library's item when the quote is
    one of its labels (read from that label), else the row as printed, never an item whose words it scatters
    ('Other income (expense), net' is not net income)."""
    assert formula("What did Umbrella report as 'Membership fees' in fiscal 2021, in USD millions?") == \
        "membership fees 2021"
    assert formula("What amount did Umbrella print on the line “Other income (expense), net” for FY2022?") == \
        "other income expense net 2022"
    found = plan("What was Umbrella's 'Total revenues' in 2021?", LIB).node
    assert (found.name, found.written) == ("revenue", "total revenues")
    assert formula("What was Umbrella's net income in 2021?") == "net income 2021"  # a possessive is no quote


def test_a_yes_no_asked_of_every_year_or_of_a_share_is_decided_by_those_figures():
    """Issue 45, class 7: 'above 45% in each of 2016, 2017 and 2018' bounds every year's figure (was only the
    last); 'did revenue grow every year from FY2017 to FY2019' is each year's movement (was the ends only); 'X
    more than 2% of total revenue' bounds X's share of revenue (was X less revenue)."""
    from rag_assets.answer.question.planning import plan_question

    def shown(q):
        p = plan_question(q, "boolean", LIB)
        return p.formula, p.how

    assert shown("Was Umbrella's gross margin above 45% in each of 2016, 2017 and 2018?") == (
        "(gross profit 2016 / revenue 2016) against 0.45 and (gross profit 2017 / revenue 2017) against 0.45 and "
        "(gross profit 2018 / revenue 2018) against 0.45", "a figure criterion (more) in each of 3 years")
    assert shown("Did Umbrella's revenue grow every year from FY2017 to FY2019?") == (
        "revenue 2018 vs revenue 2017 and revenue 2019 vs revenue 2018", "a figure criterion (up) in each of 2 years")
    assert shown("Did Umbrella's revenue grow from FY2017 to FY2019?")[0] == "revenue 2019 vs revenue 2017"
    assert shown("Was Umbrella's membership fee revenue more than 2% of total revenue in FY2021?") == (
        "(membership fee revenue 2021 / revenue 2021) against 0.02", "a figure criterion (more)")


def test_the_kind_a_question_asks_is_read_with_the_question():
    """The kind guessed for `ask` and `plan` without --kind lives in question/ (it was the CLI's); a question that
    names an item of the library asks a number ('What were X's Aeronautics segment net sales' was a name)."""
    from rag_assets.answer.question.kinds import guess_kind

    assert guess_kind("What were Umbrella's Aeronautics segment net sales in 2021?") == "number"
    assert guess_kind("How many employees did Umbrella have in 2021?") == "number"
    assert guess_kind("Was Umbrella's gross margin above 40% in 2021?") == "boolean"
    assert guess_kind("What are the names of Umbrella's new products?") == "names"
    assert guess_kind("Who is Umbrella's chief executive officer?") == "name"
    assert guess_kind("Umbrella unit case volume growth in 2017, %") == "number"  # a percent or money asked
    assert guess_kind("Umbrella's EPS, Q2 2023, in USD") == "number"
    assert guess_kind("What was Umbrella's adjusted EPS for the second quarter of 2023?") == "number"  # was a name
    assert guess_kind("What was Umbrella's book value per share at year end?") == "number"
    # the item before an owner's possessive ('of Umbrella's Space segment'), and a person asked by its title
    assert guess_kind("What was the operating profit of Umbrella's Space segment in 2021?") == "number"
    assert guess_kind("Who was Umbrella's CFO in 2021?") == "name"


def test_a_change_in_points_reads_the_ratio_as_the_filing_prints_it_when_it_agrees_with_its_rows():
    """Issue 45, class 4: 'Gross margin 44.7% 43.8%' is a change of 90 basis points, as the filing says; computed
    from its rows (17,474 / 39,117 and 15,956 / 36,397) it is 83. A segment's 'Operating margin 10.4% 10.7%'
    half a point or more away from the company's computed ratio is not the company's."""
    from rag_assets.answer.evidence.computed import printed_points
    from rag_assets.answer.evidence.operands import SourcePage

    q = "By how many basis points did Umbrella's gross margin change from FY2018 to FY2019?"
    found = plan(q, LIB)
    assert found.printed == "gross margin"
    page = SourcePage("s", 27, "| | 2019 | 2018 |\n| --- | --- | --- |\n| Gross profit | 17,474 | 15,956 |\n"
                               "| Gross margin | 44.7% | 43.8% |\n", False)
    comp = printed_points(found, asked_unit(q), [page], (15_956 / 36_397, 17_474 / 39_117))
    assert comp.value == pytest.approx(90.0) and [o.written for o in comp.operands] == ["43.8%", "44.7%"]
    assert printed_points(found, asked_unit(q), [page], (0.38, 0.39)) is None  # another entity's ratio


def test_a_scale_the_question_refuses_is_not_asked():
    assert asked_unit("What was Umbrella's 2022 revenue in USD, not in millions?").scale == 1.0
    assert asked_unit("What was Umbrella's 2022 revenue in USD millions?").scale == 1e6


@pytest.mark.parametrize("question, formula_shown", [
    ("What was Tarn's total R&D expense over the last three fiscal years as of 2018, in USD millions?",
     "((research and development 2016 + research and development 2017) + research and development 2018)"),
    ("What was the sum of Tarn's net income over the past two fiscal years ending May 31, 2021, in USD millions?",
     "(net income 2020 + net income 2021)"),
    ("Add up Tarn's R&D expenses for the three years shown in its 2018 10-K, in USD millions.",
     "((research and development 2016 + research and development 2017) + research and development 2018)"),
    ("What was Tarn's total revenue across 2020-2022, in USD millions?", "((revenue 2020 + revenue 2021) + revenue 2022)"),
])
def test_a_run_of_years_named_by_its_count_and_last_year_or_across_a_span_is_summed(question, formula_shown):
    from rag_assets.answer.question.formulas import show

    found = plan(question, LIB)
    assert found is not None and show(found.node) == formula_shown


def test_a_growth_rate_named_as_a_figure_of_its_year_is_its_relative_change():
    """'discount revenue growth rate' is a figure of a year: its change in points between 2021 and 2022 is the
    2022 growth less the 2021 growth (three years of the row); before, the question was left unplanned."""
    found = plan("By how many percentage points did Tarn's discount revenue growth rate change from 2021 to 2022?",
                 default_library())
    assert show(found.node) == ("(((discount revenue 2022 - discount revenue 2021) / discount revenue 2021) - "
                                "((discount revenue 2021 - discount revenue 2020) / discount revenue 2020))")


@pytest.mark.parametrize("question, formula", [
    ("What was the combined net income of Tarn for fiscal 2020 and fiscal 2022, in USD millions?",
     "(net income 2020 + net income 2022)"),  # two years named one by one: those two (it was 2020 to 2022)
    ("What was Tarn's total capital expenditure between 2020 and 2022?",
     "((capital expenditure 2020 + capital expenditure 2021) + capital expenditure 2022)"),
    ("What was Tarn's total capital expenditure from FY2020 to FY2022?",
     "((capital expenditure 2020 + capital expenditure 2021) + capital expenditure 2022)"),
    ("What was Tarn's average operating margin in 2019 and 2021?",
     "mean((operating income 2019 / revenue 2019), (operating income 2021 / revenue 2021))"),
])
def test_years_named_one_by_one_are_those_years_and_a_range_is_every_year(question, formula):
    assert show(plan(question, default_library()).node) == formula
    assert asked_period(question).listed == ("and fiscal" in question or "2019 and" in question)


@pytest.mark.parametrize("question,formula", [
    ("By how much did Globex's net sales in the second quarter of 2023 exceed those of the second quarter of "
     "2022, in USD millions?", "(revenue 2023 (Q2) - revenue 2022 (Q2))"),
    ("By how much did Tarn's 2023 revenue exceed its 2022 revenue?", "(revenue 2023 - revenue 2022)"),
    ("By how much did Tarn's 2022 revenue fall short of its 2023 revenue?", "(revenue 2023 - revenue 2022)"),
    ("What was the year-over-year change in Globex's second-quarter net sales in 2023, in USD millions?",
     "(revenue 2023 (Q2) - revenue 2022 (Q2))"),
    ("What was the year-over-year change in Tarn's net sales in 2023, in USD millions?",
     "(revenue 2023 - revenue 2022)"),
    ("What was Tarn's year-over-year growth in net sales for the second quarter of 2023?",
     "((revenue 2023 (Q2) - revenue 2022 (Q2)) / revenue 2022 (Q2))"),
    # against the quarter before, not the year before's: 'sequential', 'quarter-over-quarter'
    ("What was Tarn's sequential revenue growth from Q3 2023 to Q4 2023, in percent?",
     "((revenue 2023 (Q4) - revenue 2023 (Q3)) / revenue 2023 (Q3))"),
    ("What was Globex's quarter-over-quarter net sales growth in the fourth quarter of 2023?",
     "((revenue 2023 (Q4) - revenue 2023 (Q3)) / revenue 2023 (Q3))"),
    ("How much did Tarn's net income grow sequentially in Q1 2023?",
     "((net income 2023 (Q1) - net income 2022 (Q4)) / net income 2022 (Q4))"),
    ("What was the sequential change in Globex's net sales in the third quarter of 2023, in USD millions?",
     "(revenue 2023 (Q3) - revenue 2023 (Q2))"),
])
def test_a_change_between_two_periods_is_planned_however_the_question_words_it(question, formula):
    """'exceed' and 'fall short of' compare the two periods named; a change asked in money is the difference,
    never the relative change."""
    found = plan(question, default_library())
    assert found is not None and show(found.node) == formula


@pytest.mark.parametrize("question,formula", [
    ("What share of Tarn's full-year 2023 revenues came in the fourth quarter of 2023, in percent?",
     "(revenue 2023 (Q4) / revenue 2023)"),
    ("What percentage of its annual 2023 net sales did Globex record in the third quarter of 2023?",
     "(revenue 2023 (Q3) / revenue 2023)"),
    ("What were Tarn's fourth-quarter 2023 revenues as a percentage of its full-year 2023 revenues?",
     "(revenue 2023 (Q4) / revenue 2023)"),
    ("What were Globex's average quarterly net sales in 2023, in USD millions?", "(revenue 2023 / 4)"),
    ("What was Tarn's quarterly average net income in fiscal 2022?", "(net income 2022 / 4)"),
    # the year named in the share's whole, the quarter after it without its year (no plan had been made)
    ("What percentage of Tarn's 2023 revenues was earned in the fourth quarter?", "(revenue 2023 (Q4) / revenue 2023)"),
    ("What share of Globex's 2023 net sales came in Q3?", "(revenue 2023 (Q3) / revenue 2023)"),
])
def test_a_quarter_is_read_beside_its_fiscal_year(question, formula):
    """A quarter's share of its year reads the quarter's column and the year's (both had been read in the
    quarter's, or refused); an average quarter of a flow is the year's over its four quarters (it had been the
    year's figure)."""
    found = plan(question, default_library())
    assert found is not None and show(found.node) == formula


def test_a_quarterly_average_of_a_balance_is_no_year_over_four():
    found = plan("What were Globex's average quarterly total assets in 2023?", default_library())
    assert found is None or "/ 4" not in show(found.node)


def test_spending_on_a_line_is_its_expense_in_a_figure_and_in_a_bound():
    """'product development spending' had been no line item ('spending' read as the verb 'spend'), so 'was it
    more than 10% of net revenues' went to the model's reading of sentences."""
    assert show(plan("What was Tarn's product development spending in 2023?", default_library()).node) == \
        "product development expense 2023"
    c = criterion("Was Tarn's product development spending more than 10% of its net revenues in 2023?",
                  default_library())
    assert (c.test, show(c.now), c.bound) == ("more", "(product development expense 2023 / revenue 2023)", 0.1)


@pytest.mark.parametrize("question, years", [
    # the year of the filing named as the figure's source is not the figure's year (2024's had been read)
    ("What was Globex's order backlog at December 31, 2023, according to its 2024 annual report?", (2023,)),
    ("What were Globex's research and development expenses in 2022, per its FY2024 10-K, in USD millions?", (2022,)),
    # a source naming the only year: it is the year asked
    ("What was Globex's revenue according to its FY2024 10-K?", (2024,)),
    ("What were Globex's net earnings for fiscal 2023 per its Q4 2023 earnings release?", (2023,)),
])
def test_the_year_of_the_filing_a_figure_is_read_in_is_not_the_figures(question, years):
    assert asked_period(question).years == years


def test_item_words_before_the_owner_stay_the_items():
    """'the weighted average remaining lease term of Umbrella's operating leases' had read as 'operating leases'
    (the owner's possessive cut every word before it), and a balance in money answered a term in years; the
    words before the owner stay the item's, and words that only ask ('what share of') do not."""
    from rag_assets.answer.question.metric_library import without_owner

    assert without_owner("the weighted average remaining lease term of Umbrella's operating leases") == \
        "the weighted average remaining lease term of operating leases"
    assert formula("What was the weighted average remaining lease term of Umbrella's operating leases at the end "
                   "of 2022, in years?") is None  # no such item: read as printed by the number reader
    assert formula("What was the total square footage of Umbrella's warehouses at the end of fiscal 2021?") == \
        "total square footage of warehouses 2021"
    assert without_owner("what share of Umbrella's revenue").strip() == "revenue"
    assert formula("What was the net income of Umbrella in 2022?") == "net income 2022"
