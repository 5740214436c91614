"""A question is read the same whatever frame it is asked in: the table of frames runs its own example wordings,
and rewordings of one question (written for these tests, about made-up companies) get the plan of the original."""

import pytest

from rag_assets.answer.question.frames import FRAMES, LEAD_EXAMPLES, ROW_EXAMPLES, framed
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import plan_question


@pytest.mark.parametrize("wording,expected", [e for f in FRAMES for e in f.examples] + list(LEAD_EXAMPLES) + list(ROW_EXAMPLES))
def test_each_frame_rewrites_its_own_examples(wording, expected):
    assert framed(wording) == expected
    assert framed(expected) == expected  # idempotent: the frame the readers read is left as it is


def _plan(question: str, kind: str = "number") -> tuple:
    p = plan_question(question, kind, default_library())
    return p.years, p.quarter, p.months, p.unit, p.part, p.formula


NUMBER_REWORDINGS = [
    ("What was Globex's net interest income in the second quarter of 2023, in USD millions?", [
        "How much net interest income did Globex report in the second quarter of 2023, in USD millions?",
        "What net interest income did Globex record in the second quarter of 2023, in USD millions?",
        "What was the net interest income of Globex in the second quarter of 2023, in USD millions?",
        "In the second quarter of 2023, what was Globex's net interest income, in USD millions?",
        "What was Globex's net interest income in the second quarter of 2023, in millions of US dollars?",
        "What was Globex's net interest income in the second quarter of 2023 (USD millions)?",
        "What was Globex's net interest income in the second quarter of 2023, in USD mm?",
    ]),
    ("What was Initech's noninterest expense in Q2 2023? Answer in USD millions.", [
        "How much did Initech spend on noninterest expense in Q2 2023? Answer in USD millions.",
    ]),
    ("What was Globex's worldwide sales for the first six months of 2023, in USD millions?", [
        "What was the worldwide sales of Globex for the first six months of 2023, in USD millions?",
        "What was Globex's worldwide sales for the first six months of 2023, in millions of US dollars?",
    ]),
    ("What is the FY2017 - FY2019 3 year average of capex as a % of revenue for Initech?", [
        "What is the fiscal year 2017 - fiscal year 2019 3 year average of capex as a % of revenue for Initech?",
        "Compute the FY2017 - FY2019 3 year average of capex as a % of revenue for Initech.",  # 'as a %': a unit
    ]),
    ("What was Globex's total revenues in North America in fiscal 2021, in USD millions?", [
        "In North America in fiscal 2021, what was Globex's total revenues, in USD millions?",
    ]),
    # a region in other words: 'outside the United States' is the international part, never the US figure
    ("What was Globex's international revenue in FY2022?", [
        "What was Globex's revenue outside the United States in FY2022?",
        "What was Globex's revenue outside the U.S. in FY2022?",
        "What were Globex's non-U.S. sales in FY2022?",
    ]),
    # a part's share written with its possessive; the company's own 'share of the market' is no part
    ("What share of Globex's FY2022 revenue came from its Cloud segment?", [
        "What was the Cloud segment's share of Globex's revenue in FY2022?",
        "What was the Cloud segment's proportion of Globex's revenue in FY2022?",
    ]),
    # a change in points asked with another verb
    ("What was the change in Globex's effective tax rate from FY2021 to FY2022, in basis points?", [
        "How many bps did Globex's effective tax rate move from FY2021 to FY2022?",
        "By how many basis points did Globex's effective tax rate shift from FY2021 to FY2022?",
    ]),
    # months written short before a year, as releases write them
    ("What was Globex's revenue for the first nine months of 2023?", [
        "What was Globex's 9M 2023 revenue?", "What was Globex's 9M23 revenue?",
        "What was Globex's revenue in 9M FY2023?",
    ]),
    ("What was Globex's revenue for the first half of 2023?", [
        "What was Globex's 1H23 revenue?", "What was Globex's H1'23 revenue?", "What was Globex's 6M 2023 revenue?",
    ]),
    # a period after 'for' is no company ('for FY2020, FY2021 and FY2022' had made 'FY2020' the owner)
    ("What was Globex's total capital expenditure over FY2020-FY2022, in USD millions?", [
        "What was the sum of Globex's capital expenditure for FY2020, FY2021 and FY2022, in USD millions?",
    ]),
    # 'as of' a date is no definition ('compute X as F'); found by rewording questions as instructions
    ("What is Initech's current ratio as of the end of FY2022?", [
        "Compute Initech's current ratio as of the end of FY2022.",
        "Calculate the current ratio of Initech as at the end of FY2022.",
    ]),
    # a question pasted with runs of spaces, a line break or a no-break space reads as typed
    ("What was Globex's net PP&E at the end of FY2018, in USD bn?", [
        "What was Globex's  net PP&E at the end of FY2018,  in  USD  bn?",
        "What was Globex's net PP&E\nat the end of FY2018,\u00a0in USD bn? ",
    ]),
    ("Compute Globex's three-year mean of operating income as a percentage of net sales for FY19-FY21.", [
        "Compute  Globex's  three-year  mean  of  operating  income  as  a  percentage  of  net  sales  for  FY19-FY21.",
    ]),
]


@pytest.mark.parametrize("original,rewording", [(o, r) for o, rs in NUMBER_REWORDINGS for r in rs])
def test_a_number_question_reworded_gets_the_original_plan(original, rewording):
    assert _plan(original)[-1], "the original itself must plan"
    assert _plan(rewording) == _plan(original)


BOOLEAN_REWORDINGS = [
    ("Did Globex's total net sales exceed $70 billion in FY2021?", [
        "Did Globex's total net sales top $70 billion in FY2021?",
        "Did Globex's total net sales surpass $70 billion in FY2021?",
        "Was Globex's total net sales in excess of $70 billion in FY2021?",
    ]),
    ("Was Globex's net income in the second quarter of 2023 greater than that of the second quarter of 2022?", [
        "Did Globex's net income in the second quarter of 2023 exceed that of the second quarter of 2022?",
        "Was Globex's net income in the second quarter of 2023 above that of the second quarter of 2022?",
    ]),
    ("Did Globex's total net sales exceed $70 billion in FY2021?", [
        "Did Globex report more than $70 billion of total net sales in FY2021?",  # the amount before the item
        "Did Globex record more than $70 billion in total net sales in FY2021?",
    ]),
    ("Did Globex's gross margin improve in FY2022 compared with FY2021?", [
        "Was Globex's FY2022 gross margin above its FY2021 gross margin?",  # above its own other year: a movement
    ]),
    ("Did Globex's net income fall by more than half in FY2017 compared with FY2016?", [
        "Did  Globex's  net  income  fall  by  more  than  half  in  FY2017  compared  with  FY2016?",
    ]),
]


@pytest.mark.parametrize("original,rewording", [(o, r) for o, rs in BOOLEAN_REWORDINGS for r in rs])
def test_a_yes_no_question_reworded_gets_the_original_criterion(original, rewording):
    assert _plan(original, "boolean")[-1], "the original itself must plan"
    assert _plan(rewording, "boolean") == _plan(original, "boolean")


def test_a_growth_bound_is_the_change_against_the_bound_not_a_row_named_after_the_bound():
    assert _plan("Was Globex's Q2 2023 worldwide sales growth above 5%?", "boolean")[-1] == \
        "revenue 2023 (Q2) vs revenue 2022 (Q2) against 0.05"


def test_two_segments_compared_in_one_year_are_not_a_change_between_years():
    formula = _plan("Was Initech's 2019 net revenue from its Gaming segment higher than from its Mobile segment?",
                    "boolean")[-1]
    assert formula == "(revenue [gaming] 2019 - revenue [mobile] 2019)"
    # a comparison with something that is no period is never read as the year before
    assert _plan("Was Initech's 2019 net revenue higher than that of Globex?", "boolean")[-1] == ""


def test_the_companys_own_share_of_a_market_is_no_part():
    assert _plan("What was Globex's share of the market in FY2022?")[4] == ""


def test_millions_of_dollars_are_no_nine_months():
    assert _plan("Did Globex's revenue exceed $9M in 2023?", "boolean")[:3] == ((2023,), None, 0)


def test_a_company_written_first_is_left_to_routing():
    question = ("For Initech, calculate capital expenditures as a percentage of total net revenues for each of "
                "fiscal 2017, 2018 and 2019, then give the average of the three years.")
    assert framed(question) == question
    assert _plan(question)[-1].startswith("mean(")


def test_initials_end_no_sentence_and_name_their_region():
    assert _plan("What were Globex's U.S. sales in the fourth quarter of 2022, in USD millions?") == \
        _plan("What were Globex's US sales in the fourth quarter of 2022, in USD millions?")
    assert _plan("What were Globex's U.S. sales in the fourth quarter of 2022, in USD millions?")[4] == "us"


def test_a_capitalised_word_that_a_printed_name_continues_is_no_part():
    # 'Common equity Tier 1 capital ratio' is one printed ratio, not the 'equity' of a part named 'Common'
    p = _plan("What was Globex Bank's Common equity Tier 1 capital ratio at June 30, 2023, in percent?")
    assert (p[4], p[5]) == ("", "common equity tier 1 capital ratio 2023")
    assert _plan("What was Globex's Cloud Services revenue in 2021?")[4] == "cloud services"


@pytest.mark.parametrize("question, formula", [
    ("By how many basis points did Globex's gross margin contract from 2021 to 2022?",
     "((gross profit 2021 / revenue 2021) - (gross profit 2022 / revenue 2022))"),
    ("How many percentage points did Globex's operating margin decline in 2022 compared with 2021?",
     "((operating income 2021 / revenue 2021) - (operating income 2022 / revenue 2022))"),
    ("By what percent did Globex's net income decrease from 2021 to 2022?",
     "((net income 2021 - net income 2022) / net income 2021)"),
    # a change asked either way is signed: the later less the earlier
    ("By how many basis points did Globex's gross margin expand or contract from 2021 to 2022?",
     "((gross profit 2022 / revenue 2022) - (gross profit 2021 / revenue 2021))"),
    ("What was the change in Globex's net income from 2021 to 2022?", "(net income 2022 - net income 2021)"),
])
def test_the_size_of_a_fall_asked_is_measured_downwards(question, formula):
    assert _plan(question)[-1] == formula
