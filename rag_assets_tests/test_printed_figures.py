"""Figures as filings print them, in forms of this round's own wording (issue 45): per-share items, a row that
declares its own scale, a segment's total row and change columns after the years, a caption that is a company's
name, sums asked as instructions, cents, and a company written as its blended abbreviation."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.question.criterion import criterion
from rag_assets.answer.question.formulas import Item, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.plan import plan
from rag_assets.answer.question.unit import asked_unit
from rag_assets.answer.routing.router import Router

LIB = default_library()


def formula(question: str) -> str | None:
    found = plan(question, LIB)
    return show(found.node) if found else None


INCOME = ("CONSOLIDATED STATEMENTS OF INCOME\n| (In millions, except per share data) | 2023 | 2022 |\n"
          "| --- | --- | --- |\n| Revenues | 9,410 | 8,820 |\n| Net income | 1,205 | 1,090 |\n"
          "| Earnings per common share: | | |\n| Basic | $ 2.41 | $ 2.15 |\n| Diluted | $ 2.38 | $ 2.11 |\n"
          "| Weighted average common shares outstanding: | | |\n"
          "| Basic | 500.0 | 507.0 |\n| Diluted | 506.3 | 516.6 |\n")
EPS_NOTE = ("Earnings Per Share Computations\n| (Amounts in millions, except per share amounts) | 2023 | 2022 |\n"
            "| --- | --- | --- |\n| Net income attributable to Tarn common shareholders | 1,205 | 1,090 |\n"
            "| Earnings per share attributable to Tarn common shareholders – diluted | 2.38 | 2.11 |\n")


@pytest.mark.parametrize("item, year, value, text", [
    ("diluted eps", 2023, 2.38, INCOME),  # 'Diluted' under 'Earnings per common share:', not the shares row
    ("basic eps", 2022, 2.15, INCOME),
    ("diluted eps", 2022, 2.11, EPS_NOTE),  # whose shareholders the label names is left out
])
def test_a_per_share_figure_is_read_unscaled_from_its_row_under_the_per_share_heading(item, year, value, text):
    found = find_operand(Item(item, year), LIB.items[item], [SourcePage("s", 3, text, True)])
    assert found is not None and found.value == pytest.approx(value)


def test_per_share_items_are_planned_but_adjusted_ones_are_not():
    assert formula("What was Tarn Foods' diluted EPS in fiscal 2023, in cents?") == "diluted eps 2023"
    assert asked_unit("What was Tarn Foods' diluted EPS in fiscal 2023, in cents?").amount(2.38) == 238
    assert formula("Report Tarn's basic earnings per share for 2022.") == "basic eps 2022"
    assert formula("By what percent did Tarn's earnings per share change from 2022 to 2023?") == \
        "((diluted eps 2023 - diluted eps 2022) / diluted eps 2022)"
    assert formula("What was Tarn's adjusted EPS in 2023?") is None
    assert criterion("Did Tarn's adjusted earnings per share grow faster in 2023 than in 2022?", LIB) is None
    assert formula("What was Tarn's revenue per employee in 2023?") is None



LOSS_INCOME = ("CONSOLIDATED STATEMENTS OF OPERATIONS\n| (Dollars in millions, except per share data) | 2023 | 2022 |\n"
               "| --- | --- | --- |\n| Net loss | (1,205) | (1,090) |\n"
               "| Basic loss per share | ($2.41) | ($2.15) |\n| Diluted loss per share | ($2.41) | ($2.15) |\n")


@pytest.mark.parametrize("question", [
    "What was Tarn's 2023 net loss per diluted share, in USD?",
    "What was Tarn's diluted loss per share in 2023?",
    "What was Tarn's loss per share in 2023?",
])
def test_a_loss_per_share_is_the_per_share_item_and_is_read_from_its_loss_row(question):
    """A company with a loss prints 'loss per share': the same item, signed (it had been no item: the model
    picked the net loss row, $1,205, and its check refused it)."""
    assert formula(question) == "diluted eps 2023"
    found = find_operand(Item("diluted eps", 2023), LIB.items["diluted eps"], [SourcePage("s", 3, LOSS_INCOME, True)])
    assert found is not None and found.value == pytest.approx(-2.41)


def test_a_basic_loss_per_share_is_the_basic_item():
    assert formula("What was Tarn's basic loss per share in 2023?") == "basic eps 2023"
    found = find_operand(Item("basic eps", 2022), LIB.items["basic eps"], [SourcePage("s", 3, LOSS_INCOME, True)])
    assert found is not None and found.value == pytest.approx(-2.15)


SEGMENT_SALES = ("The following table presents segment net sales by reportable segment (in millions):\n"
                 "| | Year ended December 31, | | | | $ change | | % change |\n"
                 "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
                 "| | | 2023 | | 2022 | 23 vs. 22 | | 23 vs. 22 |\n"
                 "| Fibre Networks | $ | 5,120 | $ | | 4,460 | $ | | 660 | | 15% |\n"
                 "| Glass Panels | | 3,310 | | | 3,720 | | | (410) | | (11)% |\n")
PRODUCT_LINES = ("Product lines and reportable segments (in millions):\n"
                 "Year ended December 31, Revenue from external customers 2023 2022\nFibre Networks\n"
                 "| Carrier | $ 3,800 | $ 3,250 |\n| --- | --- | --- |\n| Enterprise | 1,320 | 1,210 |\n"
                 "| Total Fibre Networks | 5,120 | 4,460 |\n")
OWN_SCALE = ("Fibre Networks Business (34.0% of consolidated sales):\n| | 2023 | 2022 |\n| --- | --- | --- |\n"
             "| Sales (millions) | $ 5,120 | $ 4,460 |\n| Percent of sales | 12.3 % | 11.8 % |\n")


@pytest.mark.parametrize("text", [SEGMENT_SALES, PRODUCT_LINES, OWN_SCALE])
def test_a_segments_figure_is_read_in_every_layout_a_filing_prints(text):
    """Years followed by change columns; the segment's total row below its product lines; a row that declares its
    own scale ('Sales (millions)') under a caption naming the segment."""
    found = find_operand(Item("revenue", 2022, part="fibre networks"), LIB.items["revenue"],
                         [SourcePage("s", 9, text, False)], library_names=LIB.item_names)
    assert found is not None and found.value == 4_460e6


def test_change_columns_after_the_years_are_not_dated():
    rows = [c for c in page_candidates(SEGMENT_SALES, "s", 9) if c.label == "Glass Panels"]
    assert [(f.written, f.period) for f in rows[0].figures][:3] == [("3,310", "2023"), ("3,720", "2022"),
                                                                   ("(410)", "")]


def test_a_caption_that_is_the_companys_name_is_not_the_parts():
    """'Fibre' is a segment of Fibre Dynamics, Inc.: the notes' running head names the company, not the part."""
    notes = ("FIBRE DYNAMICS, INC. AND SUBSIDIARIES\nNotes to Consolidated Financial Statements (continued)\n"
             "| | 2023 | 2022 |\n| --- | --- | --- |\n"
             "| Operating income (loss) from non-reportable segments | 24 | 31 |\n"
             "| Operating income | 1,607 | 1,988 |\n")
    assert find_operand(Item("operating income", 2023, part="fibre"), LIB.items["operating income"],
                        [SourcePage("s", 101, notes, False)], library_names=LIB.item_names) is None


@pytest.mark.parametrize("question", [
    "Add up Tarn's net income for 2021, 2022 and 2023. Give the answer in USD millions.",
    "Sum Tarn's net income over 2021-2023.",
    "Tarn's net income for 2021, 2022 and 2023 taken together, in USD millions?",
    "Add Tarn's 2021, 2022 and 2023 net income together.",  # the instruction's verb apart from 'together'
    "Please add Tarn's net income for 2021, 2022 and 2023.",
])
def test_a_sum_over_years_asked_as_an_instruction(question):
    assert formula(question) == "((net income 2021 + net income 2022) + net income 2023)"


def test_a_company_written_as_its_blended_abbreviation():
    router = Router({"s1": "Pacific Exchange Corp", "s2": "Quillmark"})
    assert [r.company for r in router.route("Did Paex grow its revenue in 2022?")] == ["Pacific Exchange Corp"]
    assert router.route("What does Pace say about revenue?") == []  # no blend of a name


STATEMENT_NO_OPERATING = ("CONSOLIDATED STATEMENTS OF INCOME\n| (In millions) | 2023 | 2022 |\n| --- | --- | --- |\n"
                          "| Revenues | 9,410 | 8,820 |\n| Interest expense (income), net | 62 | 48 |\n"
                          "| Pretax income | 1,540 | 1,380 |\n| Income tax provision | 335 | 290 |\n")


def test_ebit_is_its_own_item_computed_from_pretax_income_and_interest_where_no_row_prints_it():
    """EBIT is earnings before interest and taxes, not operating income: a statement without an operating line
    ('Interest expense (income), net', 'Pretax income') gives it, and its margin, from their rows."""
    found = plan("By how many percentage points did Tarn's EBIT margin change from 2022 to 2023?", LIB)
    assert show(found.node) == "((ebit 2023 / revenue 2023) - (ebit 2022 / revenue 2022))"
    assert formula("What was Tarn's operating income in 2023?") == "operating income 2023"
    assert formula("How many basis points did Tarn's effective tax rate change from 2022 to 2023?") == \
        "((income tax expense 2023 / income before taxes 2023) - (income tax expense 2022 / income before taxes 2022))"
    pages = [SourcePage("s", 4, STATEMENT_NO_OPERATING, True)]
    assert find_operand(Item("income before taxes", 2022), LIB.items["income before taxes"], pages).value == 1_380e6
    assert find_operand(Item("interest expense", 2023), LIB.items["interest expense"], pages).value == 62e6
    assert find_operand(Item("ebit", 2023), LIB.items["ebit"], pages) is None  # no row: the library's formula
    assert LIB.items["ebit"].otherwise == "income before taxes + interest expense"


def test_a_scale_row_inside_the_table_is_no_per_share_heading():
    """'(In millions except percentages and per share data)' printed as the table's first row declares the scale
    of the rows below; its 'per share' does not make them per-share figures."""
    text = ("| Year Ended December 31, | | 2017 | | 2016 | 2017 vs. 2016 |\n|---|---|---|---|---|---|\n"
            "| (In millions except percentages and per share data) | | | | | |\n"
            "| NET OPERATING REVENUES | $ | 35,410 | $ | 41,863 | (15)% |\n")
    (row,) = page_candidates(text, "s", 48)
    assert row.scale == 1e6 and row.value_of(row.figures[0]) == 35_410e6


def test_a_ticker_the_filings_do_not_print_routes_by_the_listed_symbols():
    """Covers before 2019 print no trading symbol: 'KO' routed nowhere. The packaged index constituents name the
    company ('The Coca-Cola Company' is the known 'Coca-Cola'); a symbol of no known company routes nowhere."""
    from rag_assets.answer.routing.listed import ListedSymbols

    listed = ListedSymbols.load()
    assert "The Coca-Cola Company" in listed.of("KO")
    router = Router({"s1": "Coca-Cola", "s2": "Tarn Foods"}, listed=listed)
    assert [r.company for r in router.route("What were KO's net operating revenues in 2017?")] == ["Coca-Cola"]
    assert router.route("What was MSFT's revenue in 2017?") == []  # listed, but not a company of these filings
    assert [r.company for r in Router({"s1": "Coca-Cola"}).route("What were KO's revenues?")] == []  # no list


def test_a_total_row_is_the_item_a_question_names_as_printed():
    """'Total noninterest expense' is the noninterest expense a question asks (it matched no label before)."""
    page = SourcePage("s", 2, "(in millions)\n| | 2023 | 2022 |\n| --- | --- | --- |\n"
                              "| Compensation expense | 11,200 | 10,100 |\n| Total noninterest expense | 20,822 | 18,749 |\n",
                      False)
    found = find_operand(Item("noninterest expense", 2022), None, [page])
    assert found is not None and found.value == 18_749e6


def test_a_parts_change_in_points_reads_its_ratio_as_its_own_results_print_it():
    """A segment's margin as its results table prints it ('Operating margin 10.6 % 10.5 %': 10 basis points;
    computed from its rows 2,866 / 26,987 and 2,799 / 26,748 it is 16), and a ratio printed under another of
    its names ('GROSS PROFIT MARGIN')."""
    from rag_assets.answer.evidence.computed import printed_points

    q = "By how many basis points did the operating margin of Tarn's Fibre Networks segment change from 2022 to 2023?"
    found = plan(q, LIB)
    assert found.printed == "operating margin" and "[fibre networks]" in show(found.node)
    own = SourcePage("s", 41, "Fibre Networks' operating results included the following (in millions):\n"
                              "| | 2023 | 2022 |\n| --- | --- | --- |\n| Net sales | $ 26,987 | $ 26,748 |\n"
                              "| Operating profit | 2,866 | 2,799 |\n| Operating margin | 10.6 % | 10.5 % |\n", False)
    comp = printed_points(found, asked_unit(q), [own], (2_799 / 26_748, 2_866 / 26_987))
    assert comp.value == pytest.approx(10.0)
    q = "By how much did Tarn's gross margin change from 2022 to 2023, in basis points?"
    found = plan(q, LIB)
    page = SourcePage("s", 48, "| | 2023 | 2022 |\n| --- | --- | --- |\n| GROSS PROFIT | 22,154 | 25,398 |\n"
                               "| GROSS PROFIT MARGIN | 62.6% | 60.7% |\n", False)
    names = ("gross margin", "gross profit margin")
    assert printed_points(found, asked_unit(q), [page], (25_398 / 41_863, 22_154 / 35_410), names).value == \
        pytest.approx(190.0)


@pytest.mark.parametrize("text, scale", [
    ("What was Tarn's 2022 revenue (in $000s)?", 1e3), ("Tarn's 2022 revenue (USD, thousands)", 1e3),
    ("Tarn's 2022 revenue in bn USD", 1e9), ("Tarn's 2022 assets in trillions of dollars", 1e12),
    ("Tarn's diluted EPS in 2022 in cents", 0.01), ("Tarn's revenue in 2000", 1.0), ("Tarn's revenue (in USD)", 1.0),
    ("Tarn's 2022 revenue, answered in units of one million US dollars", 1e6), ("Tarn's 2022 revenue in k USD", 1e3),
    ("Tarn's 2022 revenue in USD (millions)", 1e6), ("Tarn's 2022 revenue in $B", 1e9),
    ("Tarn's paid subscribers at the end of 2022 (millions)", 1e6), ("Tarn's 2022 revenue (mn)", 1e6),  # a bare scale
])
def test_units_as_analysts_write_them(text, scale):
    assert asked_unit(text).scale == scale


def test_a_margin_printed_with_its_sign_in_brackets_and_columns_named_fiscal_years_gives_the_printed_change():
    """'(5.3) %' is minus 5.3 percent; a header of 'FISCAL 2021 | FISCAL 2020 | % CHANGE | FISCAL 2019' dates the
    amounts and the margins of each row, not the changes between them; the change in points is the printed
    margins' (-0.6), not the one computed from the rows (-0.67)."""
    from rag_assets.answer.evidence.computed import printed_points

    page = ("The breakdown of earnings is as follows:\n\n"
            "| (Dollars in millions) | | FISCAL 2022 | FISCAL 2021 | | % CHANGE | | FISCAL 2020 | | % CHANGE |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n"
            "| Revenues | | $ 66,608 $ | 62,286 | | 7 % | $ | 58,158 | | 7 % |\n"
            "| Loss from operations | | (3,547) | (2,902) | | -22 % | | (12,767) | | 77 % |\n"
            "| Operating margins | | (5.3) % | (4.7) % | | | | (22.0) % | | |\n")
    rows = {c.label: c for c in page_candidates(page, "b", 23)}
    assert [(f.value, f.period) for f in rows["Loss from operations"].figures if f.period] == \
        [(-3547, "2022"), (-2902, "2021"), (-12767, "2020")]
    assert [(f.value, f.percent, f.period) for f in rows["Operating margins"].figures] == \
        [(-5.3, True, "2022"), (-4.7, True, "2021"), (-22.0, True, "2020")]
    q = "How much did Tarn's operating margin expand or contract from 2021 to 2022, in percentage points?"
    comp = printed_points(plan(q, LIB), asked_unit(q), [SourcePage("b", 23, page, False)],
                          (-2_902 / 62_286, -3_547 / 66_608))
    assert comp.value == pytest.approx(-0.6)


def test_a_rate_asked_is_never_answered_with_an_amount():
    """'effective income tax rate' is the effective tax rate; a rate, a percent or basis points asked of an
    amount's formula is refused, never answered with the amount."""
    assert formula("By how many basis points did Tarn's effective income tax rate change from 2021 to 2022?") == \
        ("((income tax expense 2022 / income before taxes 2022) - "
         "(income tax expense 2021 / income before taxes 2021))")
    assert formula("What was Tarn's income tax expense in 2022, in basis points?") is None
    assert formula("What was Tarn's tax rate on income tax expense in 2022?") is None


def test_a_ratio_printed_under_a_longer_label_is_read_when_it_agrees_with_the_rows():
    """'Effective worldwide tax rate 9.6 % 17.8 %' is the effective tax rate: its change is the printed -8.2
    points (the rows give -8.27), because both years agree with the ratio computed from the rows."""
    from rag_assets.answer.evidence.computed import printed_points

    q = "By how many percentage points did Tarn's effective tax rate change from 2021 to 2022?"
    page = SourcePage("t", 72, "| | 2022 | 2021 |\n|---|---|---|\n| Effective worldwide tax rate | 9.6 % | 17.8 % |\n", False)
    assert printed_points(plan(q, LIB), asked_unit(q), [page], (1_285 / 7_204, 612 / 6_392)).value == \
        pytest.approx(-8.2)
    assert printed_points(plan(q, LIB), asked_unit(q), [page], (0.25, 612 / 6_392)) is None  # not the company's


QUARTERS_TABLE = ("Selected Quarterly Financial Data (Unaudited) (In millions)\n\n"
                  "| | 1st Quarter | | 2nd Quarter | | 3rd Quarter | | 4th Quarter | |\n"
                  "| | 2024 | 2023 | 2024 | 2023 | 2024 | 2023 | 2024 | 2023 |\n|---|---|---|---|---|---|---|---|---|\n"
                  "| Revenues | 9,070 | 9,061 | 8,554 | 8,180 | 8,984 | 8,432 | 9,789 | 8,677 |\n"
                  "| Gross profit | 3,962 | 4,123 | 3,678 | 3,616 | 3,938 | 3,750 | 4,378 | 3,823 |\n"
                  "| Gross margin | 43.7% | 45.5% | 43.0% | 44.2% | 43.8% | 44.5% | 44.7% | 44.1% |\n")


def test_a_quarters_change_in_points_is_the_difference_of_the_margins_printed_in_its_columns():
    """The fourth quarters' gross margins as printed (44.7 % less 44.1 %: 60 basis points), not the first
    quarter's columns of each year (no figure of the quarter asked agreed with the rows, and the rows gave 66)."""
    from rag_assets.answer.evidence.computed import printed_points

    q = "How many basis points did Tarn's gross margin change in the fourth quarter of 2024 versus the fourth " \
        "quarter of 2023?"
    found = plan(q, LIB)
    assert show(found.node) == ("((gross profit 2024 (Q4) / revenue 2024 (Q4)) - "
                                "(gross profit 2023 (Q4) / revenue 2023 (Q4)))")
    comp = printed_points(found, asked_unit(q), [SourcePage("n", 20, QUARTERS_TABLE, False)],
                          (3_823 / 8_677, 4_378 / 9_789))
    assert comp is not None and comp.value == pytest.approx(60)


def test_net_income_per_diluted_or_basic_share_is_the_per_share_item():
    assert formula("In the 2023 second quarter, how much did Tarn earn in net income per diluted share?") == \
        "diluted eps 2023 (Q2)"
    assert formula("What was Tarn's net earnings per basic share in 2022?") == "basic eps 2022"


@pytest.fixture(scope="module")
def printed_ratios(tmp_path_factory):
    """A 10-K printing its operating margin beside the rows it comes from: 12.3 % (123 of 1,000) in 2022 and
    11.3 % (130 of 1,150, 11.30 %) in 2023."""
    from rag_assets_tests.filing_factory import answerer_over_10k

    figures = {"Revenue": {2021: 900, 2022: 1000, 2023: 1150}, "Operating income": {2021: 99, 2022: 123, 2023: 130},
               "Operating margin": {2021: 11.0, 2022: 12.3, 2023: 11.3}}
    return answerer_over_10k(tmp_path_factory.mktemp("printed_ratios"), "Wexford Pumps Inc", 2023, figures)


@pytest.mark.parametrize("question, expected", [
    ("By how many basis points did Wexford Pumps' operating margin change from 2022 to 2023?", -100.0),
    ("By how many basis points did Wexford Pumps' operating margin decline from 2022 to 2023?", 100.0),
    ("How many percentage points did Wexford Pumps' operating margin fall between 2022 and 2023?", 1.0)])
def test_a_fall_in_points_is_the_printed_ratios_difference_as_a_change_is(printed_ratios, question, expected):
    """Asked as a fall, the change is the earlier printed figure less the later one (+100 basis points), the
    same printed figures a change reads (-100), never the rows' -99.6."""
    rec = printed_ratios.answer(question, "number")
    assert rec.value == pytest.approx(expected), rec.notes
    assert "(as printed)" in rec.computation["formula"]


def test_selling_and_administrative_expense_is_sga_without_the_word_general():
    """A statement that prints 'Total selling and administrative expense' under demand creation and overhead
    rows prints its SG&A."""
    page = SourcePage("s", 58, "(In millions)\n| | 2021 | 2020 |\n| --- | --- | --- |\n"
                               "| Demand creation expense | 3,114 | 3,592 |\n| Operating overhead expense | 9,911 | 9,534 |\n"
                               "| Total selling and administrative expense | 13,025 | 13,126 |\n", True)
    item = "selling general and administrative"
    found = find_operand(Item(item, 2021), LIB.items[item], [page])
    assert found is not None and found.value == 13_025e6


def test_share_repurchases_are_the_cash_flow_statements_purchases_of_common_stock():
    """'How much did X spend on share repurchases' is the cash-flow row 'Purchases of common stock for
    treasury', summed over the years asked, as spent (positive)."""
    q = "How much did Tarn spend on share repurchases in total over fiscal 2020 to fiscal 2022, in USD millions?"
    assert show(plan(q, LIB).node) == \
        "((share repurchases 2020 + share repurchases 2021) + share repurchases 2022)"
    page = SourcePage("s", 48, "(In millions)\n| | Fiscal 2022 | Fiscal 2021 | Fiscal 2020 |\n|---|---|---|---|\n"
                               "| Purchases of common stock for treasury | (876.8) | (301.4) | (3.4) |\n", True)
    found = find_operand(Item("share repurchases", 2021), LIB.items["share repurchases"], [page])
    assert found is not None and found.value == pytest.approx(301.4e6)


SHARES_OF_REVENUE = ("Net Operating Revenues by Operating Segment\n\nInformation about our net operating revenues by "
                     "operating segment as a percentage of Company net operating revenues is as follows:\n\n"
                     "| Year Ended December 31, | 2024 | | 2023 | |\n|---|---|---|---|---|\n"
                     "| Northern Region | | 20.7 % | | 16.8 % |\n| Southern Region | 11.2 | | 8.9 | |\n"
                     "| Total | 100.0% | | 100.0 % | |\n")
MIXED = ("Loans by type, in dollars and as a percentage of the total:\n\n| | 2024 | % | 2023 | % |\n|---|---|---|---|---|\n"
         "| Recreation | 41,966 | 66% | 39,000 | 64% |\n| Home improvement | 11,340 | 18 | 10,200 | 17 |\n")


def test_a_table_in_percent_of_a_whole_prints_no_amount_though_only_its_first_row_says_percent():
    """'as a percentage of Company net operating revenues': the Southern Region's bare '11.2' is 11.2 % of the
    whole, never 11.2 million of revenue; a table of amounts and their shares keeps its amounts."""
    rows = {c.label: c for c in page_candidates(SHARES_OF_REVENUE, "k", 51)}
    assert all(f.percent for f in rows["Southern Region"].figures)
    found = find_operand(Item("revenue", 2024, part="southern region"), LIB.items["revenue"],
                         [SourcePage("k", 51, SHARES_OF_REVENUE, False)])
    assert found is None
    rows = {c.label: c for c in page_candidates(MIXED, "m", 41)}
    assert [f.percent for f in rows["Home improvement"].figures] == [False, False, False, False]
    basis = SHARES_OF_REVENUE.replace("as a percentage of Company net operating revenues", "on a percentage basis")
    assert find_operand(Item("operating income", 2024, part="southern region"), LIB.items["operating income"],
                        [SourcePage("k", 51, basis.replace("revenues", "operating income"), False)]) is None


def test_dividends_per_share_are_an_item_read_unscaled_and_asked_in_cents():
    """'Dividends per share $ 2.04' under a statement in millions is 2.04 dollars a share: 204 cents."""
    q = "What was Tarn's fiscal 2022 dividend per share, in cents?"
    found = plan(q, LIB)
    assert show(found.node) == "dividends per share 2022" and asked_unit(q).amount(2.04) == pytest.approx(204)
    page = SourcePage("s", 44, "(In Millions, Except per Share Data)\n| | Fiscal 2022 | Fiscal 2021 |\n|---|---|---|\n"
                               "| Net earnings | 2,707.3 | 2,339.8 |\n| Earnings per share — diluted | $ 4.42 | $ 3.78 |\n"
                               "| Dividends per share | $ 2.04 | $ 2.02 |\n", True)
    operand = find_operand(Item("dividends per share", 2022), LIB.items["dividends per share"], [page])
    assert operand is not None and operand.value == pytest.approx(2.04)


EQUITY_WITH_ASIDES = (
    "CONSOLIDATED STATEMENTS OF CHANGES IN EQUITY\n\n(dollars in millions, except per share amounts)\n\n"
    "| Years Ended December 31, | 2026 | 2025 | 2024 |\n|---|---|---|---|\n"
    "| Net income | 7,120 | 6,840 | 6,505 |\n"
    "| Dividends declared ($3.10, $2.95, $2.80 per share) | (4,210) | (4,050) | (3,870) |\n"
    "| Dividends (per share - $1.21, $1.15 and $1.09 in 2026, 2025 and 2024, respectively) | (1,640) | (1,570) | "
    "(1,495) |\n")


def test_per_share_amounts_a_label_prints_in_brackets_are_a_row_of_their_own_and_the_total_keeps_its_scale():
    """'Dividends declared ($3.10, $2.95, $2.80 per share)' prints the total in millions and the amounts per
    share in its label: the total had been read as per share (4,210 dollars, unscaled) and as the dividends per
    share asked."""
    from rag_assets.answer.evidence.candidates import page_candidates

    rows = {c.label: c for c in page_candidates(EQUITY_WITH_ASIDES, "e", 40)}
    total = rows["Dividends declared ($3.10, $2.95, $2.80 per share)"]
    assert total.value_of(total.figures[0]) == -4_210_000_000
    declared = rows["Dividends declared per share"]
    assert [(f.period, declared.value_of(f)) for f in declared.figures] == [("2026", 3.10), ("2025", 2.95),
                                                                           ("2024", 2.80)]
    named = rows["Dividends per share"]  # dated by the years the bracket names
    assert [(f.period, f.value) for f in named.figures] == [("2026", 1.21), ("2025", 1.15), ("2024", 1.09)]
    assert "Net income per share" not in rows
    node = plan("What were Globex's dividends declared per share in 2026?", default_library()).node
    spec = default_library().items["dividends per share"]
    assert find_operand(node, spec, [SourcePage("e", 40, EQUITY_WITH_ASIDES, True)]).written == "$3.10"


SELECTED = ("Selected Financial Data\n| In Millions, Except Per Share Data, Percentages and Ratios | 2023 | 2022 |\n"
            "| --- | --- | --- |\n| Net sales | $ 17,626.6 | $ 16,865.2 |\n| Gross margin (c) | 6,129.9 | 5,756.8 |\n"
            "| Gross margin as a percentage of net sales | 34.8 % | 34.1 % |\n")


@pytest.mark.parametrize("question, shown, value", [
    ("What did Tarn report as gross margin in fiscal 2022, in USD millions?", "gross margin 2022", 5_756.8e6),
    ("Tarn's FY2023 gross margin (USD millions)", "gross margin 2023", 6_129.9e6),
])
def test_a_metric_asked_as_an_amount_is_the_row_printed_under_its_name(question, shown, value):
    """'gross margin in USD millions': the row 'Gross margin' a filing prints in dollars, read as an amount; it
    had been the ratio (0.341 answered 'in USD millions')."""
    found = plan(question, LIB)
    assert found is not None and show(found.node) == shown and found.node.amount
    operand = find_operand(found.node, LIB.items.get(found.node.name), [SourcePage("s", 17, SELECTED, False)])
    assert operand is not None and operand.value == pytest.approx(value)  # in full units


def test_a_metric_asked_without_an_amounts_unit_stays_the_ratio():
    assert formula("What was Tarn's gross margin in fiscal 2022?") == "(gross profit 2022 / revenue 2022)"
    assert formula("What was Tarn's gross margin in fiscal 2022, in percent?") == "(gross profit 2022 / revenue 2022)"


@pytest.mark.parametrize("question", ["What was Tarn's net margin in fiscal 2022, in percent?",
                                      "What was Tarn's net profit margin for fiscal 2022?",
                                      "What was Tarn's net income margin in fiscal 2022?"])
def test_a_net_margin_is_net_income_over_revenue(question):
    """The standard net (profit) margin of the library; 'net margin' had been looked for as a row so named."""
    assert formula(question) == "(net income 2022 / revenue 2022)"


ATTRIBUTED = ("CONSOLIDATED STATEMENTS OF INCOME\n| (In millions) | 2022 | 2021 |\n| --- | --- | --- |\n"
              "| Net sales | 14,189 | 14,082 |\n| Net income | 1,386 | 1,935 |\n"
              "| Net income attributable to non-controlling interest | (70) | (29) |\n"
              "| Net income attributable to Tarn Incorporated | 1,316 | 1,906 |\n")


@pytest.mark.parametrize("question, value", [
    ("Tarn's 2022 net income attributable to the company, in USD millions", 1_316e6),
    ("What was Tarn's net income attributable to Tarn Incorporated in 2021?", 1_906e6),
    ("What was Tarn's net income in 2022?", 1_386e6),  # the row 'Net income', as written
])
def test_net_income_attributable_to_the_company_is_its_row_whatever_name_the_row_gives_it(question, value):
    """'attributable to the company': the row 'Net income attributable to Tarn Incorporated' (it had been 'Net
    income', which includes the non-controlling interests); never the non-controlling interests' own row."""
    found = plan(question, LIB)
    operand = find_operand(found.node, LIB.items.get(found.node.name), [SourcePage("s", 57, ATTRIBUTED, True)])
    assert operand is not None and operand.value == pytest.approx(value)


def test_share_counts_take_the_scale_the_caption_declares_for_shares():
    """'(shares in 000's)' above a note's table: its share counts are in thousands (444,346 is 444.3 million
    shares), its amounts and per-share figures keep their own scale."""
    text = ("Note 10\n\nThe following table shows the weighted average number of basic and potentially dilutive "
            "common shares outstanding (shares in 000\u2019s):\n\n| | | 2021 | | 2020 |\n|---|---|---|---|---|\n"
            "| Net income attributable to Tarn | $ | 5,007 | $ | 4,002 |\n"
            "| Weighted average diluted shares | | 444,346 | | 443,901 |\n"
            "| Net income per diluted share | $ | 11.27 | $ | 9.02 |\n")
    rows = {c.label: c for c in page_candidates(text, "t", 59) if c.source == "row"}
    diluted = rows["Weighted average diluted shares"]
    assert diluted.value_of(diluted.figures[0]) == 444_346_000
    per_share = rows["Net income per diluted share"]
    assert per_share.value_of(per_share.figures[0]) == 11.27


def test_a_total_asked_is_its_row_without_total_and_never_a_row_of_the_other_side():
    """'total advisory revenue' is the row 'Advisory revenue'; 'Total advisory expense' starts with 'total advisory'
    (the name without its head noun), but prints an expense where a revenue is asked."""
    page = SourcePage("s", 4, "(in millions)\n| | 2024 | 2023 |\n| --- | --- | --- |\n"
                              "| Advisory revenue | 3,120 | 2,870 |\n| Total advisory expense | 2,040 | 1,910 |\n", False)
    found = find_operand(Item("total advisory revenue", 2024, written="total advisory revenue"), None, [page])
    assert found is not None and found.value == 3_120e6
    assert find_operand(Item("advisory revenue", 2024), None, [page]).value == 3_120e6
    assert find_operand(Item("total advisory expense", 2023), None, [page]).value == 1_910e6
