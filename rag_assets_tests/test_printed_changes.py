"""Changes as a filing prints them (issue 45, classes 2 and 4): a release's '% Change' column beside its quarter's
columns, rows whose labels carry footnote marks, a growth of a figure no statement prints, and a change in points
asked in words no change form holds. In wordings and pages of our own."""

from __future__ import annotations


from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.question.formulas import show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.plan import plan
from rag_assets.answer.question.planning import plan_question
from rag_assets.answer.question.unit import asked_unit, without_scale
from rag_assets.answer.readers.metric_words import without_full_year
from rag_assets.answer.readers.number_reader import shortlist
from rag_assets.answer.readers.sure_pick import sure_pick
from rag_assets.retrieval.query import default_lexicon
from rag_assets_tests.pages import Page

LIB = default_library()

RELEASE = ("FOR IMMEDIATE RELEASE\n\n• 2024 Second-Quarter reported sales growth of 4.1% to $8.2 Billion with "
           "organic growth of 5.6%* and adjusted organic growth of 4.9%*.\n\n"
           "OVERALL FINANCIAL RESULTS Q2\n\n| ($ in Millions) | 2024 | 2023 | % Change |\n|---|---|---|---|\n"
           "| Reported Sales | $8,210 | $7,887 | 4.1% |\n| Net Earnings | $1,402 | $1,310 | 7.0% |\n"
           "| Organic Sales1,2 | | | 5.6% |\n| Adjusted Organic Sales1,3 | | | 4.9% |\n"
           "| Adjusted EPS (diluted)1,4 | $2.10 | $1.95 | 7.7% |\n")


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
    from rag_assets.answer.question.owners import owned_parts
    from rag_assets.answer.question.text import as_read

    for q in ["How many percentage points did Globex Cloud Services' operating margin change from 2021 to 2022?",
              "What was Globex Cloud Services' revenue in 2022?"]:
        found = plan(owned_parts(as_read(q), ("Globex",), LIB), LIB)
        assert found is not None and {i.part for i in items_of(found.node)} == {"cloud services"}, q
    assert as_read("What share of net sales came from products' sales in 2022?") == \
        "What share of net sales came from products' sales in 2022?"  # a lower-case plural is no name


SEGMENT_PAGE = ("## EUROPE, MIDDLE EAST & AFRICA\n\n(Dollars in millions) FISCAL 2024 FISCAL 2023 % CHANGE\n\n"
                "| Footwear | $ | 4,210 $ | 3,980 | 6% |\n|---|---|---|---|---|\n| TOTAL REVENUES | $ | 6,010 $ | 5,700 | 5% |\n\n"
                "Reported EBIT increased 12% for fiscal 2024, primarily due to revenue growth. Gross margin increased 140 "
                "basis points as higher full-price ASP more than offset higher product costs.\n\n"
                "## ASIA PACIFIC & LATIN AMERICA\n\nGross margin decreased 30 bps, reflecting higher product costs, "
                "and accounted for approximately 2 percentage points of the decline in EBIT margin.\n")


def test_a_change_stated_in_points_is_a_figure_of_points():
    """'increased 140 basis points', 'decreased 30 bps', '2 percentage points': figures of points (0.01 or 1
    percentage point a unit), never amounts; before, '140' was an amount and 'basis points' read as billions."""
    figs = {f.written: f.points for c in page_candidates(SEGMENT_PAGE, "s", 3) if c.source == "text" for f in c.figures}
    assert figs["140"] == 0.01 and figs["30"] == 0.01 and figs["2"] == 1.0 and figs["12%"] == 0.0


def test_a_stated_change_is_signed_by_its_words_and_the_way_it_is_asked():
    from rag_assets.answer.readers.stated_changes import stated_change

    cands = [c for c in page_candidates(SEGMENT_PAGE, "s", 3) if c.source == "text"]
    rise = next((c, f) for c in cands for f in c.figures if f.written == "140")
    fall = next((c, f) for c in cands for f in c.figures if f.written == "30")
    assert round(stated_change(*rise), 6) == 0.014 and round(stated_change(*fall), 6) == -0.003
    assert round(stated_change(*fall, asked_down=True), 6) == 0.003  # 'by how many bps did it contract'
    assert asked_unit("By how many basis points did it change?").ratio(0.014) == 140
    assert asked_unit("By how many percentage points did it change?").ratio(0.014) == 1.4


def test_a_sentence_under_a_parts_heading_is_the_parts_and_an_acronym_is_its_name_written_out():
    """The sentence stating the change names no part: the page's heading above it does ('EUROPE, MIDDLE EAST &
    AFRICA'), and 'EMEA' is that heading's initials; so 'the EMEA gross margin change in basis points' is read from
    its section, not from the Asia Pacific & Latin America one below it."""
    from rag_assets.answer.evidence.operands import names_part
    from rag_assets.answer.evidence.part_sections import names_the_part

    rows = shortlist([Page("s", 3, SEGMENT_PAGE)], "EMEA gross margin change in fiscal 2024", default_lexicon(), 8,
                     part="emea", percent=True, points=True)
    assert [f.written for c in rows for f in c.figures] == ["140"]
    apla = [c for c in page_candidates(SEGMENT_PAGE, "s", 3) if "decreased 30" in c.label][0]
    assert names_the_part(apla, "apla") and not names_the_part(apla, "emea")
    assert names_part("Europe, Middle East & Africa", "emea") and names_part("Total Asia Pacific & Latin America", "apla")
    assert not names_part("Europe and Middle East", "emea")


def test_a_change_in_points_of_a_ratio_named_with_its_base_is_planned():
    """'net interest yield on average card member loans' is a ratio the filing prints, named with what it is over:
    its change in basis points between two years is planned (it was refused as too long a name)."""
    assert show(plan("How many basis points did Globex's net interest yield on average card member loans change from "
                     "2022 to 2023?", LIB).node) == ("(net interest yield on average card member loans 2023 - "
                                                     "net interest yield on average card member loans 2022)")


def test_a_figure_after_a_word_that_begins_like_a_month_is_a_figure():
    """'decreased 30 bps', 'Marched 12' ...: the day of a date follows a month's name, not a word it begins (the
    figures after 'decreased' were dropped as days of December)."""
    from rag_assets.answer.evidence.figures import text_figures

    assert [f.written for f in text_figures("Revenue decreased 5% to $4.1 billion in 2024.")] == ["5%", "$4.1 billion"]
    assert [f.written for f in text_figures("The notes mature on Dec. 15, 2027 and June 30, 2029.")] == []


def test_a_growth_of_a_part_named_after_it_reads_alike_in_every_order():
    """'the revenue growth (rate) of Globex's Cloud segment' is the part's relative change, as 'the growth rate of
    revenue of Globex's Cloud segment' is; before, the first was the part's revenue (the growth lost) and the
    second, with a quarter, no plan."""
    want = "((revenue [cloud] 2023 - revenue [cloud] 2022) / revenue [cloud] 2022)"
    for q in ["What was the revenue growth of Globex's Cloud segment in 2023?",
              "What was the revenue growth rate of Globex's Cloud segment in 2023?",
              "What was the growth rate of revenue of Globex's Cloud segment in 2023?"]:
        assert show(plan(q, LIB).node) == want, q
    assert show(plan("What was the revenue growth rate of Globex's Cloud segment in the second quarter of 2023?",
                     LIB).node) == "((revenue [cloud] 2023 (Q2) - revenue [cloud] 2022 (Q2)) / revenue [cloud] 2022 (Q2))"


QUARTER_AND_YEAR = ("Q4 Full Year\n\n| Non-GAAP ($ in Millions, except EPS) | 2024 | 2023 | % Change | | 2024 | 2023 | "
                    "% Change | |\n|---|---|---|---|---|---|---|---|---|\n"
                    "| Operational Sales1,2 | | | | 1.4% | | | | 5.2% |\n"
                    "| Adjusted Net Earnings1,4 | $1,218 | $1,100 | | 10.7% | $5,038 | $4,880 | | 3.2% |\n")


def test_a_change_column_of_a_quarters_block_and_of_the_years_block_each_take_their_months():
    """Under 'Q4 Full Year', '% Change' after each block's years is that block's: the full year's 3.2 %, never the
    quarter's 10.7 %; a row of changes only ('Operational Sales ... 1.4% ... 5.2%') had been dated as two years."""
    rows = {c.label: c for c in page_candidates(QUARTER_AND_YEAR, "r", 1) if c.source == "row"}
    earnings = [(f.written, f.months) for f in rows["Adjusted Net Earnings"].figures if f.percent]
    assert earnings == [("10.7%", 3), ("3.2%", 12)]
    assert [(f.written, f.period, f.months) for f in rows["Operational Sales"].figures] == \
        [("1.4%", "", 3), ("5.2%", "", 12)]
