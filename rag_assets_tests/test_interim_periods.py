"""Quarters, half years, nine months and years to date (issue 45, class 2): the question's period says how many
months its figure covers, the interim filing's column headers say how many each column covers ('Three months
ended June 30, Six months ended June 30,'), and Python reads the column of the months asked. In wordings and
pages of our own."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.operands import SourcePage, find_operand, year_figure
from rag_assets.answer.question.formulas import Item, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.period import TO_DATE, asked_period
from rag_assets.answer.question.plan import plan

LIB = default_library()


@pytest.mark.parametrize("text, quarter, months", [
    ("What was Globex's net income in the second quarter of 2023?", 2, 3),
    ("Globex's 3Q22 revenue", 3, 3),
    ("net income for the six months ended June 30, 2023", 2, 6),
    ("revenue in the first half of 2023", 2, 6),
    ("free cash flow for the nine months ended September 30, 2022", 3, 9),
    ("revenue year to date through the second quarter of 2023", 2, TO_DATE),
    ("provision for credit losses in the quarter ended June 30, 2023", None, 3),  # the quarter's columns
    ("revenue in fiscal 2023", None, 0),
    ("revenue in H2 2023", None, 0),  # no column prints a second half: not a period Python reads
])
def test_the_months_a_period_covers(text, quarter, months):
    period = asked_period(text)
    assert (period.quarter, period.months) == (quarter, months)


def test_an_interim_figure_is_planned_in_its_months():
    assert show(plan("What was Globex's net income for the first half of 2023, in USD millions?", LIB).node) == \
        "net income 2023 (6 months)"
    assert show(plan("By what percent did Globex's worldwide sales change in the fourth quarter of 2022 versus the "
                     "fourth quarter of 2021?", LIB).node) == \
        ("((worldwide sales 2022 (3 months) - worldwide sales 2021 (3 months)) / "
         "worldwide sales 2021 (3 months))")
    assert plan("What was Globex's revenue in the second half of 2023?", LIB) is None


TEN_Q = ("Globex Corp. Consolidated statements of income (unaudited)\n"
         "Three months ended June 30, Six months ended June 30,\n\n"
         "| (in millions) | | 2023 | 2022 | 2023 | 2022 |\n|---|---|---|---|---|---|\n"
         "| Total net revenue | $ | 4,120 $ | 3,870 $ | 8,010 $ | 7,455 |\n"
         "| Net income | $ | 612 $ | 540 $ | 1,190 $ | 1,002 |\n")
RELEASE = ("SEGMENT SALES RESULTS\n\nQ2 % Change\n\n| ($ in Millions) | 2023 | 2022 | Reported |\n|---|---|---|---|\n"
           "| Worldwide | $4,120 | $3,870 | 6.5% |\n")
CASH_FLOWS = ("Consolidated statements of cash flows (unaudited)\nSix months ended June 30,\n"
              "| (in millions) | 2023 | 2022 |\n|---|---|---|\n| Net cash provided by operating activities | 1,404 | 1,220 |\n")


def test_each_column_knows_the_months_its_header_names():
    (net,) = [c for c in page_candidates(TEN_Q, "s", 5) if c.label == "Net income"]
    assert [(f.period, f.months) for f in net.figures] == [("2023", 3), ("2022", 3), ("2023", 6), ("2022", 6)]
    assert year_figure(net, 2023, 3).written.startswith("612")
    assert year_figure(net, 2023, 6).written.startswith("1,190")
    assert year_figure(net, 2022, TO_DATE).written.startswith("1,002")  # the longest interim column
    assert year_figure(net, 2023).written.startswith("612")  # a fiscal year's question reads as before
    (cfo,) = page_candidates(CASH_FLOWS, "s", 9)
    assert year_figure(cfo, 2023, 6).written == "1,404"
    assert year_figure(cfo, 2023, 3) is None  # a statement of six months prints no quarter


def test_an_interim_operand_is_read_in_the_columns_of_its_months():
    spec = LIB.items["revenue"]
    pages = [SourcePage("s", 5, TEN_Q, True)]
    assert find_operand(Item("revenue", 2023, months=6), spec, pages).value == 8_010e6
    assert find_operand(Item("revenue", 2022, months=3), spec, pages).value == 3_870e6
    found = find_operand(Item("worldwide sales", 2023, months=3), None, [SourcePage("s", 1, RELEASE, False)])
    assert found.value == 4_120e6 and found.label == "Worldwide"  # 'sales' is a head noun the row leaves out
