"""A figure of one period compared with another reads alike in every wording analysts use: 'X growth versus
FY2021', 'how did X compare with FY2021', 'X in 2022 vs. 2021: what was the percent change?', 'did X's Y in 2017
exceed that of 2016', and a row the library does not know ('provision for credit losses') as well as one it does.
Every wording here is written for these tests, about made-up companies; each is checked against the plan of the
plainest wording of the same question."""

import pytest

from rag_assets.answer.question.comparisons import figure_words
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.planning import plan_question
from rag_assets.answer.question.wording import asked_clauses

CHANGE_WORDINGS = (
    "What was {c}'s {p1} {y} growth versus {p0}, in percent?",
    "How did {c}'s {p1} {y} compare with {p0}, in percent?",
    "What was {c}'s {y} in {p1} compared to {p0}, as a percent change?",
    "What was {c}'s {y} in {p1} versus {p0} (percent change)?",
    "{c}'s {y} in {p1} vs. {p0}: what was the percent change?",
    "How much did {c}'s {y} in {p1} differ from {p0}, in percent?",
    "What was {c}'s {p1} {y} relative to {p0}, in percent change?",
    "What was the growth rate of {c}'s {y} in {p1} compared with {p0}?",
    "By how many percent did {c}'s {y} rise or fall in {p1} compared to {p0}?",
)
YES_NO_WORDINGS = (
    "Was {c}'s {y} higher in {p1} than in {p0}?",
    "Did {c} report higher {y} in {p1} than in {p0}?",
    "{c}'s {y}: was it higher in {p1} than in {p0}?",
    "Was {c}'s {p1} {y} above its {p0} level?",
    "Did {c}'s {y} in {p1} exceed that of {p0}?",
    "Has {c}'s {y} increased in {p1} relative to {p0}?",
    "Did {c} see its {y} rise in {p1} from {p0}?",
)
FIGURES = (  # (company, figure as written, earlier period, later period, the item read)
    ("Globex", "net income", "FY2021", "FY2022", "net income"),
    ("Initech", "provision for credit losses", "Q2 2022", "Q2 2023", "provision for credit losses"),
    ("Globex", "streaming revenues", "2016", "2017", "streaming revenues"),
    ("Initech", "selling and administrative expense", "fiscal 2018", "fiscal 2019", "selling general and administrative"),
)


def _plan(question: str, kind: str = "number") -> tuple:
    p = plan_question(question, kind, default_library())
    return tuple(sorted(p.years)), p.quarter, p.months, p.formula


@pytest.mark.parametrize("company,figure,earlier,later,item", FIGURES)
@pytest.mark.parametrize("wording", CHANGE_WORDINGS)
def test_a_change_between_two_periods_reads_alike_in_every_wording(wording, company, figure, earlier, later, item):
    plain = f"What was the percent change in {company}'s {figure} from {earlier} to {later}?"
    years, _, _, formula = _plan(plain)
    assert formula.startswith(f"(({item} ") and formula.count(item) == 3, formula  # the whole row, never 'provision'
    assert _plan(wording.format(c=company, y=figure, p0=earlier, p1=later)) == _plan(plain)


@pytest.mark.parametrize("company,figure,earlier,later,item", FIGURES)
@pytest.mark.parametrize("wording", YES_NO_WORDINGS)
def test_a_rise_between_two_periods_reads_alike_in_every_yes_no_wording(wording, company, figure, earlier, later,
                                                                       item):
    plain = f"Did {company}'s {figure} increase from {earlier} to {later}?"
    assert _plan(plain, "boolean")[-1].startswith(f"{item} "), _plan(plain, "boolean")
    assert _plan(wording.format(c=company, y=figure, p0=earlier, p1=later), "boolean") == _plan(plain, "boolean")


def test_a_level_at_a_date_compared_with_its_level_at_another_date():
    plain = _plan("Did Initech's total deposits increase from December 31, 2022 to June 30, 2023?", "boolean")
    assert plain[-1] == "total deposits 2023 vs total deposits 2022"
    assert _plan("Was Initech's June 30, 2023 total deposits above its December 31, 2022 level?", "boolean") == plain


def test_two_figures_compared_are_no_change_between_periods():
    """'more A than B' compares two figures of one year: never read as a figure's change between periods."""
    assert _plan("Did Globex have more international than domestic paid memberships at the end of 2017?",
                 "boolean")[-1] == ""
    assert _plan("Did Globex spend more on capital expenditures than on research and development in FY2021?",
                 "boolean")[-1] == "(capital expenditure 2021 - research and development 2021)"


def test_what_a_figure_is_compared_with_and_the_asking_words_are_no_part_of_its_name():
    assert figure_words("How did Globex's FY2022 net income compare with FY2021, in percent") == \
        "Globex's FY2022 net income"
    assert figure_words("Initech's provision for credit losses in Q2 2023 versus Q2 2022 (percent change)") == \
        "Initech's provision for credit losses in Q2 2023"
    assert figure_words("Was Globex's 2017 streaming revenues above its 2016 level") == \
        "Globex's 2017 streaming revenues above"  # 'above' is the criterion's word, read before


def test_a_sentence_never_ends_at_an_abbreviation():
    assert asked_clauses("Globex's net income in FY2022 vs. FY2021: what was the percent change?")[-1] == \
        "Globex's net income in FY2022 vs. FY2021: what was the percent change"
    assert asked_clauses("What were Globex's U.S. Pharmaceutical sales in 2022?")[-1] == \
        "What were Globex's U.S. Pharmaceutical sales in 2022"


def test_words_of_any_figure_name_none():
    """'what was the percent change' alone names no figure: its item is never 'percent'."""
    assert _plan("Globex's net income in FY2022 vs. FY2021: what was the percent change?")[-1] == \
        "((net income 2022 - net income 2021) / net income 2021)"
    assert _plan("What was the percent change?")[-1] == ""
