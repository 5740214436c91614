"""A figure asked on a stated basis ('operational sales growth', 'grew organically', 'on a currency-neutral basis',
'excluding the impact of foreign currency'): every wording is read into one plan that names the basis and computes
nothing from the reported figures (whose growth was answered before: a confident wrong answer), and Python reads
the figure a line states on that basis for the whole company, or for the part asked. Wording of our own."""

from __future__ import annotations


import pytest

from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan
from rag_assets.answer.readers.number_reader import read_number
from rag_assets.retrieval.query import default_lexicon
from rag_assets_tests.pages import Page
from rag_assets_tests.llm_fakes import NeverCalled


def _plan(question: str):
    return company_plan(question, "number", ("Globex",), default_library())


@pytest.mark.parametrize("question, basis", [
    ("What was Globex's operational sales growth in 2022, in percent?", "currency"),
    ("How much did Globex's worldwide sales grow operationally in 2022, in percent?", "currency"),
    ("By how much did Globex's sales grow on an operational basis in 2022?", "currency"),
    ("What was Globex's revenue growth excluding the impact of foreign currency in 2022, in percent?", "currency"),
    ("What was Globex's currency-neutral revenue growth in fiscal 2022?", "currency"),
    ("How much did Globex's net sales grow in constant currency in 2022, in percent?", "currency"),
    ("Excluding currency effects, how much did Globex's revenues grow in 2022, in percent?", "currency"),
    ("What was Globex's organic net sales growth in fiscal 2022, in percent?", "organic"),
    ("How much did Globex's net sales grow organically in fiscal 2022, in percent?", "organic"),
])
def test_a_growth_on_a_stated_basis_is_read_as_printed_in_every_wording(question, basis):
    plan = _plan(question)
    assert (plan.basis, plan.source, plan.formula, plan.part) == (basis, "", "", "")
    assert plan.years == (2022,) and plan.percent


def test_the_words_of_a_basis_name_none_where_they_name_another_figure():
    assert _plan("What was Globex's operational cash flow in 2022, in USD millions?").basis == ""
    plain = _plan("How much did Globex's net sales grow in 2022, in percent?")
    assert plain.basis == "" and plain.source == "rules" and "revenue" in plain.formula


def test_a_part_asked_on_a_basis_keeps_its_part():
    plan = _plan("What was Globex's Cloud segment revenue growth on a currency-neutral basis in 2022, in percent?")
    assert (plan.basis, plan.part, plan.formula) == ("currency", "cloud", "")


RESULTS = Page("g", 31, "FISCAL 2022 COMPARED TO FISCAL 2021\n\n"
                        "Revenues increased 4% for fiscal 2022, and on a currency-neutral basis, Globex revenues grew "
                        "9% for fiscal 2022, driven by growth in every region.\n\n"
                        "On a currency-neutral basis, Cloud revenues increased 14% for fiscal 2022.\n\n"
                        "Sales by companies in Europe declined 2.0%, which included operational growth of 6.5% and a "
                        "negative currency impact of 8.5%.\n\n"
                        "Currency-neutral revenues are expected to increase 5 to 7 percent in fiscal 2023.\n")
TABLE = Page("g", 2, "NON-GAAP RESULTS\n\n"
                     "| ($ in Millions) | 2022 | 2021 | % Change |  |\n|---|---|---|---|---|\n"
                     "| Operational Sales |  |  |  | 9.0% |\n| Adjusted Operational Sales |  |  |  | 8.1% |\n"
                     "| Reported Sales | $5,200 | $5,000 |  | 4.0% |\n")


def _read(question: str, pages, query: str = "revenues growth", parts=None):
    plan = _plan(question)
    basis = next(b for b in default_library().bases if b.name == plan.basis)
    return read_number(NeverCalled(), question, query, pages, default_lexicon(), year=2022,
                       percent=True, part=plan.part, parts=parts or {"g": ("Cloud",)}, basis=basis,
                       company=("Globex",))


def test_the_whole_companys_figure_on_the_basis_is_the_one_its_clause_states():
    """Not the reported 4 %, not a part's (Cloud's 14 %), not a region's operational 6.5 %, not an outlook."""
    reading = _read("How much did Globex's revenues grow on a currency-neutral basis in fiscal 2022, in percent?",
                    [RESULTS])
    assert reading.value == 9.0 and reading.written == "9%"
    assert [c.figures[0].written for c in reading.candidates] == ["9%"]


def test_a_row_naming_the_basis_with_the_fewest_words_is_the_measure():
    reading = _read("What was Globex's operational sales growth in 2022, in percent?", [TABLE], "sales growth")
    assert reading.value == 9.0 and reading.candidate.label == "Operational Sales"


def test_a_parts_figure_on_the_basis_is_read_in_the_line_naming_the_part():
    reading = _read("What was Globex's Cloud segment revenue growth on a currency-neutral basis in fiscal 2022, "
                    "in percent?", [RESULTS])
    assert reading.value == 14.0


def test_no_line_stating_the_basis_is_an_na_with_its_reason():
    reading = _read("What was Globex's organic revenue growth in 2022, in percent?", [RESULTS, TABLE])
    assert reading.value == "N/A" and reading.candidate is None
    assert "organic basis asked" in reading.notes[-1]


def test_a_companys_abbreviated_form_ends_no_sentence():
    """'Globex, Inc. Revenues grew' is one sentence, which names the basis before the company: its 12 % is the
    whole company's (the sentence had been cut after 'Inc.', and the basis lost)."""
    page = Page("g", 40, "FISCAL 2022 COMPARED TO FISCAL 2021 On a currency-neutral basis, Globex, Inc. Revenues grew "
                         "12% for fiscal 2022, driven by growth in both segments. The rest was sold to Initech, Inc. "
                         "The price was $5 million.\n")
    reading = _read("What was Globex's currency-neutral revenue growth in fiscal 2022, in percent?", [page])
    assert reading.value == 12.0 and reading.candidate.label.startswith("FISCAL 2022 COMPARED")


SEGMENTS = Page("g", 1, "SEGMENT SALES RESULTS\n\nQ2 % Change\n\n"
                        "| ($ in Millions) | 2023 | 2022 | Reported |  | Operational1,2 |  | Currency |  | Adjusted |  |\n"
                        "|---|---|---|---|---|---|---|---|---|---|---|\n"
                        "|  |  |  |  |  |  |  |  |  | Operational1,3 |  |\n"
                        "| Cloud | $4,000 | $3,800 |  | 5.3% |  | 8.1 |  | (2.8) |  | 7.9 |\n"
                        "| Devices | 2,100 | 2,200 |  | (4.5) |  | (1.0) |  | (3.5) |  | (1.2) |\n"
                        "| Worldwide | $6,100 | $6,000 |  | 1.7% |  | 4.8 |  | (3.1) |  | 4.6 |\n")


def test_each_figure_of_a_row_is_named_by_its_column_as_the_header_rows_print_it():
    from rag_assets.answer.evidence.column_names import figure_columns

    headers = [["($ in Millions)", "2023", "2022", "Reported", "", "Operational1,2", "", "Currency", "", "Adjusted", ""],
               ["", "", "", "", "", "", "", "", "", "Operational1,3", ""]]
    assert figure_columns(headers, 6) == ("2023", "2022", "Reported", "Operational", "Currency", "Adjusted Operational")
    assert figure_columns(headers, 5) == ()  # names and figures do not pair


@pytest.mark.parametrize("question, value", [
    ("What was Globex's Cloud segment operational sales growth in the second quarter of 2023, in percent?", 8.1),
    ("How much did Globex's worldwide sales grow operationally in the second quarter of 2023, in percent?", 4.8),
])
def test_a_figure_on_a_basis_is_read_in_the_column_naming_it(question, value):
    """The Operational column, not the Reported one nor the Adjusted Operational one: a part's in its row, the
    whole company's in the worldwide row."""
    plan = _plan(question)
    basis = next(b for b in default_library().bases if b.name == plan.basis)
    reading = read_number(NeverCalled(), question, "Cloud sales growth" if plan.part else "worldwide sales growth",
                          [SEGMENTS],
                          default_lexicon(), year=2023, percent=True, part=plan.part, months=3, quarter=(2023, 2),
                          own_quarters={"g": 2}, parts={"g": ("Cloud", "Devices")}, basis=basis, company=("Globex",))
    assert reading.value == value and reading.candidate.columns == ("Operational",)


BANK = Page("g", 4, "Globex Bank\nFinancial highlights\n(unaudited) As of or for the period ended, (in millions)\n\n"
                    "Three months ended June 30, Six months ended June 30,\n\n"
                    "| | 2023 | 2022 | Change | 2023 | 2022 | Change |\n"
                    "|---|---|---|---|---|---|---|\n"
                    "| Total net revenue | 10,120 | 9,400 | 8 | 19,950 | 18,700 | 7 |\n"
                    "| Total net revenue - managed basis | 10,400 | 9,600 | 8 | 20,510 | 19,120 | 7 |\n"
                    "| Net interest income | 5,010 | 4,200 | 19 | 9,800 | 8,300 | 18 |\n")


@pytest.mark.parametrize("question, months, value, named", [
    ("What was Globex's managed net revenue in the second quarter of 2023, in USD millions?", 3, 10400, "managed"),
    ("What was Globex's total net revenue on a managed basis for the six months ended June 30, 2023, in USD "
     "millions?", 6, 20510, "managed"),
    ("What was Globex's total net revenue in the second quarter of 2023, in USD millions?", 3, 10120, ""),
])
def test_a_row_naming_its_basis_is_read_in_the_column_of_the_period_asked(question, months, value, named):
    """A bank's revenue on a managed basis (tax-exempt income at its taxable equivalent) is the row naming that
    basis, in the column of the months asked; the reported revenue is the other row (the basis row, of several
    columns, had been refused: N/A)."""
    plan = _plan(question)
    basis = next((b for b in default_library().bases if b.name == plan.basis), None)
    assert plan.basis == named and (plan.source == "" or not named)
    reading = read_number(NeverCalled(), question, "total net revenue", [BANK], default_lexicon(), year=2023,
                          months=months, quarter=(2023, 2), own_quarters={"g": 2}, basis=basis, company=("Globex",))
    assert reading.value == pytest.approx(value * 1e6)


RELEASE_YEAR = Page("g", 1, "REGIONAL SALES RESULTS\n\nQ4 % Change\n\n"
                            "| ($ in Millions) | 2022 | 2021 | Reported |  | Operational1,2 |  | Currency |  |\n"
                            "|---|---|---|---|---|---|---|---|---|\n"
                            "| U.S. | $5,100 | $5,000 |  | 2.0% |  | 2.0 |  | - |\n"
                            "| Worldwide | $9,000 | $9,300 |  | (3.2)% |  | 1.1 |  | (4.3) |\n\n"
                            "Full Year % Change\n\n"
                            "| ($ in Millions) | 2022 | 2021 | Reported |  | Operational1,2 |  | Currency |  |\n"
                            "|---|---|---|---|---|---|---|---|---|\n"
                            "| U.S. | $20,400 | $19,800 |  | 3.0% |  | 3.0 |  | - |\n"
                            "| Worldwide | $36,500 | $36,000 |  | 1.4% |  | 5.9 |  | (4.5) |\n")


@pytest.mark.parametrize("question, months, quarter, value", [
    ("How much did Globex's worldwide sales grow on an operational basis in 2022, in percent?", 0, None, 5.9),
    ("How much did Globex's worldwide sales grow operationally in the fourth quarter of 2022, in percent?", 3,
     (2022, 4), 1.1),
])
def test_a_basis_column_is_of_the_span_of_its_rows_dated_columns(question, months, quarter, value):
    """A release prints the fourth quarter's table and the full year's alike: the year's operational growth is the
    full-year table's (the quarter's 1.1 had been read for the year)."""
    plan = _plan(question)
    basis = next(b for b in default_library().bases if b.name == plan.basis)
    reading = read_number(NeverCalled(), question, "worldwide sales growth", [RELEASE_YEAR], default_lexicon(),
                          year=2022, percent=True, months=months, quarter=quarter, own_quarters={"g": 4},
                          basis=basis, company=("Globex",))
    assert reading.value == value
