"""Changes as a filing prints them (issue 45, classes 2 and 4): a release's '% Change' column beside its quarter's
columns, rows whose labels carry footnote marks, a growth of a figure no statement prints, and a change in points
asked in words no change form holds. In wordings and pages of our own."""

from __future__ import annotations

from dataclasses import dataclass

from rag_assets.answer.evidence.candidates import MetricQuery, page_candidates
from rag_assets.answer.question.formulas import show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.plan import plan
from rag_assets.answer.question.planning import plan_question
from rag_assets.answer.question.unit import asked_unit, without_scale
from rag_assets.answer.readers.number_reader import shortlist, sure_pick, without_full_year
from rag_assets.retrieval.query import default_lexicon

LIB = default_library()

RELEASE = ("FOR IMMEDIATE RELEASE\n\n• 2024 Second-Quarter reported sales growth of 4.1% to $8.2 Billion with "
           "organic growth of 5.6%* and adjusted organic growth of 4.9%*.\n\n"
           "OVERALL FINANCIAL RESULTS Q2\n\n| ($ in Millions) | 2024 | 2023 | % Change |\n|---|---|---|---|\n"
           "| Reported Sales | $8,210 | $7,887 | 4.1% |\n| Net Earnings | $1,402 | $1,310 | 7.0% |\n"
           "| Organic Sales1,2 | | | 5.6% |\n| Adjusted Organic Sales1,3 | | | 4.9% |\n"
           "| Adjusted EPS (diluted)1,4 | $2.10 | $1.95 | 7.7% |\n")


@dataclass
class Page:
    sha1: str
    page_index: int
    text: str


def _rows(query: str, percent: bool = True):
    return shortlist([Page("r", 0, RELEASE)], query, default_lexicon(), 8, months=3, quarter=(2024, 2),
                     percent=percent)


def test_footnote_marks_glued_to_a_label_are_not_its_words():
    labels = [c.label for c in page_candidates(RELEASE, "r", 0) if c.source == "row"]
    assert "Organic Sales" in labels and "Adjusted Organic Sales" in labels and "Adjusted EPS (diluted)" in labels


def test_a_change_column_beside_the_quarters_columns_is_of_the_quarter():
    """The '% Change' column of a release's quarter table, and a row printing only that column under a caption
    naming the quarter, are figures of the quarter asked (both were dropped as of no period)."""
    labels = {c.label: [f.written for f in c.figures] for c in _rows("organic sales growth in the second quarter")}
    assert labels["Organic Sales"] == ["5.6%"] and labels["Adjusted Organic Sales"] == ["4.9%"]
    assert labels["Reported Sales"] == ["4.1%"]


def test_a_growth_asked_names_the_items_row_and_python_picks_the_one_row():
    """'Adjusted organic sales growth in Q2 2024' is the row 'Adjusted Organic Sales', whose change column prints
    it: the period's words and the change's words are not the figure's name, and the percent asked is no word of
    it."""
    def own(query: str) -> tuple[str, ...]:
        return MetricQuery.of(without_full_year(query, True), default_lexicon()).own

    assert own("adjusted organic sales growth in the second quarter of 2024") == ("adjust", "organic", "sale")
    assert own("adjusted EPS growth in Q2 2024, in percent") == ("adjust", "ep")
    for query, row, value in [("adjusted organic sales growth in the second quarter of 2024", "Adjusted Organic Sales",
                               "4.9%"),
                              ("organic sales growth in Q2 2024", "Organic Sales", "5.6%"),
                              ("how much did net earnings grow in Q2 2024, in percent", "Net Earnings", "7.0%")]:
        metric = MetricQuery.of(without_full_year(query, True), default_lexicon())
        found = sure_pick(_rows(query), metric, 2024, 3, (2024, 2), None, default_lexicon().template_words, True)
        assert found is not None and (found[0].label, found[1].written) == (row, value), query


def test_a_growth_is_read_as_a_percentage_whatever_its_words():
    """The plan reads 'growth' as a percentage (its name states one); the number reader takes that reading and
    keeps percentages, where its own words test ('percent', 'margin', 'rate') kept the $8.2 billion instead."""
    q = "What was Globex's organic sales growth in the second quarter of 2024?"
    assert plan_question(q, "number", LIB).percent
    assert not plan_question("What were Globex's organic sales in the second quarter of 2024?", "number", LIB).percent
    kept = [f.written for c in _rows("organic sales growth in the second quarter", percent=False) for f in c.figures]
    assert "$8.2 Billion" in kept  # without the plan's reading
    assert all("%" in f.written for c in _rows("organic sales growth in the second quarter") for f in c.figures)


def test_a_change_in_points_is_a_change_in_any_words():
    """Points asked between two named years are a change between them, whatever verb says it ('lose', 'give
    up', 'gain'); before, 'how many percentage points of operating margin did Globex lose in 2022 vs. 2021' was
    the 2022 margin itself."""
    assert show(plan("How many percentage points of operating margin did Globex lose in 2022 vs. 2021?", LIB).node) \
        == "((operating income 2021 / revenue 2021) - (operating income 2022 / revenue 2022))"
    assert show(plan("How many basis points of gross margin did Globex gain in 2022 compared with 2021?", LIB).node) \
        == "((gross profit 2022 / revenue 2022) - (gross profit 2021 / revenue 2021))"
    assert show(plan("Globex's operating margin in 2022 and 2021, in percentage points of difference?", LIB).node) \
        == "((operating income 2022 / revenue 2022) - (operating income 2021 / revenue 2021))"
    assert show(plan("What was Globex's operating margin in 2022, in percent?", LIB).node) == \
        "(operating income 2022 / revenue 2022)"  # one year: the margin itself


def test_a_scale_written_before_its_currency_is_no_word_of_the_figure():
    assert without_scale("What were Globex's 2022 revenues in bn USD?") == "What were Globex's 2022 revenues ?"
    assert asked_unit("What were Globex's 2022 revenues in bn USD?").scale == 1e9
    assert show(plan("What were Globex's 2022 revenues in bn USD?", LIB).node) == "revenue 2022"


def test_a_growth_of_a_printed_name_that_does_not_compute_is_read_as_printed():
    """A change of rows named as the question writes them ('subscription sales') is left to the number reader when no
    row computes it, which reads the release's printed growth; a change of library items is not (its N/A says
    which operand no filing prints)."""
    from rag_assets.answer.readers.readings import _printed_names

    assert _printed_names(plan_question("What was Globex's subscription sales growth in Q2 2024?", "number", LIB))
    assert not _printed_names(plan_question("What was Globex's revenue growth in Q2 2024?", "number", LIB))


def test_a_plural_names_possessive_leaves_the_part_named():
    """"Globex Cloud Services' operating margin" names the part as "Globex Cloud Services operating margin" does
    (before, the apostrophe left no part: the company's margin was answered)."""
    from rag_assets.answer.question.formulas import items_of
    from rag_assets.answer.question.parts import owned_parts
    from rag_assets.answer.question.text import as_read

    for q in ["How many percentage points did Globex Cloud Services' operating margin change from 2021 to 2022?",
              "What was Globex Cloud Services' revenue in 2022?"]:
        found = plan(owned_parts(as_read(q), ("Globex",), LIB), LIB)
        assert found is not None and {i.part for i in items_of(found.node)} == {"cloud services"}, q
    assert as_read("What share of net sales came from products' sales in 2022?") == \
        "What share of net sales came from products' sales in 2022?"  # a lower-case plural is no name
