"""A question wrapped as analysts wrap it reads as the bare question (issue 45, in this round's own wording): a
sentence of boilerplate before or after it, a colon that introduces it, a possessive written with an apostrophe
alone, a fiscal year before a part noun, a clause naming where the figure is printed."""

from __future__ import annotations

import pytest

from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import company_plan

LIB = default_library()
WRAPS = (
    "Assume that you are a public equities analyst. Answer the following question by primarily using information "
    "that is shown in the 10-K: {q}",
    "{q} Please give a precise figure.",
    "Answer the following question as if you are an equity research analyst. {q}",
    "Using the company's filings, answer: {q}",
    "{q} Base your answer on the figures the filing prints.",
)
QUESTIONS = (
    ("How much did Harrow Mills contribute to its pension plans in 2022, in USD millions?", "number"),
    ("What was the operating margin of Harrow Mills' Cloud segment in 2022, in percent?", "number"),
    ("How much cash did Harrow Mills spend on additions to software assets in 2021?", "number"),
    ("What quarterly dividend per share did Harrow Mills declare in the fourth quarter of 2022?", "number"),
    ("Did Harrow Mills' backlog increase from 2021 to 2022?", "boolean"),
    ("Harrow Mills Cloud segment operating profit for 2021 (USD mn).", "number"),
)


def _plan(question: str, kind: str):
    out = company_plan(question, kind, ("Harrow Mills",), LIB)
    return out.formula, out.part, tuple(out.years), out.quarter, out.unit


@pytest.mark.parametrize("question, kind", QUESTIONS)
def test_boilerplate_around_a_question_leaves_its_plan_as_it_was(question, kind):
    bare = _plan(question, kind)
    assert bare[0]
    for wrap in WRAPS:
        assert _plan(wrap.format(q=question), kind) == bare, wrap


@pytest.mark.parametrize("question, formula", [
    ("What were Harrow Mills' net sales in fiscal 2020?", "revenue 2020"),
    ("What was Harrow Mills' North America Retail operating profit in fiscal 2022?",
     "operating income [north america retail] 2022"),
    ("What percentage of Harrow Mills' FY2022 segment net sales came from its Cloud segment?",
     "(revenue [cloud] 2022 / segment net sales 2022)"),  # the segments' total as printed
])
def test_a_possessive_apostrophe_and_a_fiscal_year_name_no_part(question, formula):
    assert company_plan(question, "number", ("Harrow Mills",), LIB).formula == formula


def test_where_a_count_is_printed_says_nothing_of_what_it_counts():
    plan = company_plan("How many employees did Harrow Mills report at year-end 2022, according to the human capital "
                        "section of the 10-K?", "number", ("Harrow Mills",), LIB)
    assert plan.counted == "employees" and plan.qualifiers == ()
