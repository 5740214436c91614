"""A figure stated in a sentence (issue 45, class 3): what a question counts ('how many full-time employees', 'the
number of warehouses', 'the headcount') and the number a filing prints beside that noun ('approximately 73,300
employees'), read by Python wherever the report prints it; the model only chooses when the year's sentences print
different counts. In wordings and pages of our own."""

from __future__ import annotations


import pytest

from rag_assets.answer.evidence.counts import count_candidates, counted_in
from rag_assets.answer.question.counts import counted_noun, head_noun
from rag_assets.answer.readers.number_reader import read_number
from rag_assets.retrieval.query import default_lexicon
from rag_assets_tests.llm_fakes import NeverCalled
from rag_assets_tests.pages import Page


@pytest.mark.parametrize("question, noun, head", [
    ("How many full-time employees did Globex have at the end of 2021?", "full time employees", "employees"),
    ("What was the number of employees at Globex as of May 31, 2021?", "employees", "employees"),
    ("Approximately how many holders of record of Globex stock were there in 2021?", "holders", "holders"),
    ("What was Globex's headcount in 2020?", "employees", "employees"),
    ("How many retail stores did Globex operate as of May 31, 2019?", "retail stores", "stores"),
    ("How many dollars did Globex spend on research in 2021?", "", ""),  # an amount, not a count
    ("What was Globex's revenue in 2021?", "", ""),
    # a change of a ratio counts no noun: the number beside 'percentage points' on a page is no answer
    ("By how many percentage points did Globex's capital ratio change between 2021 and 2022?", "", ""),
    ("How many basis points did Globex's margin expand in 2022?", "", ""),
    ("How many thousands of employees did Globex have in 2021?", "employees", "employees"),  # a count in thousands
    ("How many million shares did Globex repurchase in 2022?", "shares", "shares"),  # the scale with no 'of'
    ("How many million dollars did Globex spend on research in 2021?", "", ""),  # an amount in millions
    ("Report the number of Globex warehouses in operation at the end of 2021.", "warehouses", "warehouses"),
    ("At year-end 2021, what was Globex's total warehouse count?", "warehouses", "warehouses"),  # 'X count'
    ("What was Globex's employee count in 2021?", "employees", "employees"),
    ("What was Globex's share count in 2021?", "", ""),  # shares are counted by their kind, never so
    ("Globex: approximate number of retail stores worldwide at May 31, 2019", "retail stores", "stores"),  # its scope
    ("Approximate number of employees worldwide at Globex at end of 2021", "employees", "employees"),
    # a list of nouns counted together: the filing prints the count before its first ('59,000 engineers, ...')
    ("How many engineers, scientists and information technology professionals did Globex employ in 2021?",
     "engineers", "engineers"),
    ("How many pilots, mechanics, or flight attendants did Globex have in 2021?", "pilots", "pilots"),
    # the company and its verb after the noun are no words of it
    ("What was the number of paid members Globex had at the end of 2021?", "paid members", "members"),
    ("What was the number of streaming members Initech has in Europe?", "streaming members", "members"),
])
def test_what_a_question_counts(question, noun, head):
    assert counted_noun(question) == noun and head_noun(noun) == head


def test_a_count_asked_in_thousands_is_read_in_that_scale():
    from rag_assets.answer.question.unit import asked_unit

    assert asked_unit("How many thousands of employees did Globex have in 2021?").scale == 1e3
    assert asked_unit("How many employees did Globex have in 2021?").scale == 1
    assert asked_unit("How many million shares did Globex repurchase in 2022?").scale == 1e6


def test_the_number_beside_the_noun_is_the_count():
    assert counted_in("As of May 31, 2021, we had approximately 73,300 employees worldwide", "employees") == ["73,300"]
    assert counted_in("At the end of the year we had 61.7 million paid members.", "members") == ["61.7 million"]
    assert counted_in("there were approximately 12,000 registered holders of record", "holders") == ["12,000"]
    assert counted_in("Severance for 1,200 of our employees cost $45 million", "employees") == []  # 'of our'
    assert counted_in("We spent $4 million on employees", "employees") == []  # an amount
    # holders counted as the filing prints them: 'shareholders', 'stockholders' of record
    assert counted_in("At January 31, 2025, there were 48,120 shareholders of record.", "holders") == ["48,120"]
    assert counted_in("we had 3,305 stockholders of record", "holders") == ["3,305"]
    # the same count asked with another noun of it ('stockholders of record') than the filing prints ('holders')
    assert counted_in("At February 20, 2020, there were 1,574 holders of record of our common stock", "stockholders") \
        == ["1,574"]
    assert counted_in("we had 3,305 nonemployee directors", "employees") == []  # a compound is no count of its head
    # a count of many takes the plural: a singular noun after it modifies the noun it counts
    assert counted_in("Tarn sponsors 15 different Employee Resource Groups with 51 chapters.", "employees") == []
    assert counted_in("Tarn had 57,500 employees in 44 countries.", "employees") == ["57,500"]
    # a date's year before the count is no figure of a flattened row
    assert counted_in("At January 31, 2025, 2,104,330,512 shares of the registrant's common stock were outstanding, "
                      "after deducting 40,115,002 shares held in treasury.", "shares") == ["2,104,330,512", "40,115,002"]


PAGES = [Page("s", 3, "Our business\n\nWe design pumps. Severance costs were $45 million in 2021.\n"),
         Page("s", 11, "Human capital\n\nAs of December 31, 2021, we had approximately 9,100 employees, "
                       "compared with 8,200 employees at the end of 2020.\n"),
         Page("s", 12, "Employees\n\nAt the end of 2019 we had 7,400 full-time employees.\n")]


def test_a_count_the_years_sentences_agree_on_is_read_without_the_model():
    cands = count_candidates(PAGES, "employees", 2021)
    assert [c.figures[0].written for c in cands] == ["9,100"]  # the sentence naming 2021 prints 9,100 first
    reading = read_number(NeverCalled(), "How many employees did Globex have at the end of 2021?", "employees",
                          PAGES, default_lexicon(), year=2021, counted="employees")
    assert reading.value == 9100 and reading.candidate.page_index == 11
    assert count_candidates(PAGES, "employees", 2019)[0].figures[0].written == "7,400"
    assert count_candidates(PAGES, "employees", 2018) == []  # no sentence of that year, and none undated


def test_the_model_chooses_among_different_counts_of_the_year_found_on_any_page():
    """Two sentences of 2021 print different counts of patents (those held and those granted in the year), on
    pages retrieval did not rank: the model chooses, and the chosen page is cited."""
    from rag_assets_tests.llm_fakes import ScriptedLLM

    pages = [Page("s", 3, "Our business\n\nWe design pumps.\n"),
             Page("s", 11, "Intellectual property\n\nAs of December 31, 2021, we held approximately 9,100 patents.\n"),
             Page("s", 12, "Innovation\n\nDuring 2021, we were granted more than 1,500 patents.\n")]
    llm = ScriptedLLM([{"step_by_step_analysis": "[1] is held", "candidate": 1, "value_as_written": "9,100"}])
    reading = read_number(llm, "How many patents did Globex hold at the end of 2021?", "patents", pages[:1],
                          default_lexicon(), year=2021, counted="patents", count_pages=pages)
    assert reading.value == 9100 and reading.candidate.page_index == 11
    assert [c.figures[0].written for c in reading.candidates] == ["9,100", "1,500"]


def test_the_whole_headcount_is_the_largest_of_the_years_counts_of_employees():
    """'approximately 50,000 employees ... were union represented' is part of the 156,000 the workforce
    sentence prints after its noun, for 2022 and 2021 in order: Python takes the whole, no model."""
    pages = [Page("s", 3, "Human Capital\n\nAs of December 31, 2022 and 2021, our total workforce was approximately "
                          "156,000 and 142,000 with 13% and 12% located outside of the U.S.\n"),
             Page("s", 4, "Approximately 50,000 employees, which constitute 32% of our total workforce, were union "
                          "represented as of December 31, 2022.\n")]
    for year, value in ((2022, 156_000), (2021, 142_000)):
        reading = read_number(NeverCalled(), f"How many employees did Globex have at the end of {year}?",
                              "employees", pages, default_lexicon(), year=year, counted="employees")
        assert reading.value == value and reading.candidate.page_index == 3
    assert counted_noun("Approximately how many people did Globex employ at the end of 2022?") == "employees"
    assert counted_noun("How many people did Globex's clinics treat in 2022?") == "people"


def test_employees_are_also_counted_as_the_people_a_sentence_says_the_company_employs():
    """'At year end the Group employed 812 people' counts employees (the model, left to choose, wrote N/A for it);
    '812 people visited' does not (no verb of employing)."""
    from rag_assets.answer.evidence.counts import counted_in

    assert counted_in("At year end the Group employed 812 people across its operations.", "employees") == ["812"]
    assert counted_in("The company employs 4,210 staff in three countries.", "employees") == ["4,210"]
    assert counted_in("The 812 people who visited our stores in 2022 were surveyed.", "employees") == []


def test_a_count_is_of_the_noun_as_qualified_after_it_and_never_a_flattened_table_row():
    """'diluted shares outstanding' counts shares (not 'outstanding'), and only shares outstanding: not '944,033,056
    shares issued', nor the '9' of a balance sheet's row flattened into text ('... par value 9 9 Shares
    outstanding')."""
    from rag_assets.answer.evidence.counts import counted_in
    from rag_assets.answer.question.counts import head_noun, noun_parts

    assert head_noun("diluted shares outstanding") == "shares" and noun_parts("shares outstanding") == \
        ("shares", "outstanding")
    assert head_noun("full time employees") == "employees"
    flattened = ("Common stock par value, $.01 par value; 944,033,056 shares issued 9 9 Shares outstanding - "
                 "December 31, 2022: 549,245,105")
    assert counted_in(flattened, "shares", "outstanding") == []
    assert counted_in("At year end, 549,245,105 shares were outstanding and 12,000 shares outstanding remained.",
                      "shares", "outstanding") == ["12,000"]
    assert counted_in("As of December 31, 2022, we had approximately 92,000 employees.", "employees") == ["92,000"]


def test_a_sentence_about_the_future_counts_nothing_the_year_had():
    from rag_assets.answer.evidence.counts import count_candidates
    from rag_assets.answer.evidence.operands import SourcePage

    page = SourcePage("b", 22, "We project demand for approximately 41,170 new airplanes over the next 20 years.\n\n"
                               "In 2022 we delivered 480 commercial airplanes.\n", False)
    found = count_candidates([page], "commercial airplanes", 2022)
    assert [c.figures[0].written for c in found] == ["480"]


def test_a_count_since_a_start_is_no_years_count():
    """'Since program inception we have delivered 612 production Z-9 aircraft' names the model asked, but counts
    every year's deliveries: the year's count is the 97; asked with no year, the cumulative count stays."""
    from rag_assets.answer.evidence.counts import count_candidates
    from rag_assets.answer.evidence.operands import SourcePage

    page = SourcePage("t", 32, "In 2022 we delivered 97 aircraft and had a backlog of 210 production aircraft. Since "
                               "program inception we have delivered 612 production Z-9 aircraft to customers, "
                               "including 400 Z-9A variants.\n", False)
    assert [c.figures[0].written for c in count_candidates([page], "z 9 aircraft", 2022)] == ["97"]
    assert "612" in [c.figures[0].written for c in count_candidates([page], "z 9 aircraft", None)]
    since = count_candidates([page], "z 9 aircraft", 2022, since_start=True)
    assert [c.figures[0].written for c in since] == ["612"]
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import plan_question
    asked = plan_question("How many Z-9 aircraft has Tarn delivered since program inception, as of the end of 2022?",
                          "number", default_library())
    assert asked.counted and asked.since_start
    assert not plan_question("How many Z-9 aircraft did Tarn deliver in 2022?", "number", default_library()).since_start
    # the start named in an opening phrase before a comma ('Since program inception, we have ...') is the
    # clause's too: the 612 had been the year's count
    page = SourcePage("t", 35, "During 2022, the fleet surpassed 470,000 flight hours. Since program inception, we "
                               "have delivered 612 production Z-9 aircraft to customers.\n", False)
    assert count_candidates([page], "z 9 aircraft", 2022) == []
    assert [c.figures[0].written for c in count_candidates([page], "z 9 aircraft", 2022, since_start=True)] == ["612"]


def test_a_headcount_row_counts_employees_at_the_latest_date_of_the_year_and_a_noun_is_no_verb():
    """A 10-Q's selected data prints 'Headcount' by quarter: at June 30 of the year asked it is the latest
    quarter's (300,066), the firm's, not a segment's smaller headcount; '5,132 individuals ... who became
    employees' counts no employees ('employees' is no verb of employing)."""
    pages = [Page("s", 2, "Selected data\n\n(in millions, except headcount) 2Q24 1Q24 4Q23 3Q23\n\n"
                          "| Net income | 14,472 | 12,622 | 9,937 | 13,151 |\n|---|---|---|---|---|\n"
                          "| Headcount | 300,066 | 296,877 | 293,723 | 288,474 |\n\n"
                          "(e) Excluded 5,132 individuals associated with the acquisition who became employees "
                          "effective July 2, 2024.\n"),
             Page("s", 26, "Consumer banking\n\n| | 2024 | 2023 |\n|---|---|---|\n| Headcount | 137,087 | 130,907 |\n")]
    reading = read_number(NeverCalled(), "How many employees did Globex have at June 30, 2024?", "employees",
                          pages, default_lexicon(), year=2024, counted="employees")
    assert reading.value == 300_066 and reading.candidate.page_index == 2
    assert counted_in("Excluded 5,132 individuals who became employees in July.", "employees") == []


def test_a_count_a_sentence_prints_is_read_before_a_table_rows():
    """'approximately 152,700 employees worldwide' in the business section is the count; the table of employees
    and full-time positions further on is read only where no sentence prints one."""
    pages = [Page("s", 6, "Item 1. BUSINESS\n\nGeneral Globex and its subsidiaries have approximately 152,700 "
                          "employees worldwide engaged in research.\n"),
             Page("s", 10, "Employees\n\n| | 2022 | 2021 |\n|---|---|---|\n| Employees | 155,800 | 144,300 |\n")]
    assert [c.figures[0].written for c in count_candidates(pages, "employees", 2022)] == ["152,700"]
    assert [c.figures[0].written for c in count_candidates(pages[1:], "employees", 2022)] == ["155,800"]


def test_a_count_of_shares_repurchased_is_never_the_amount_spent_on_them():
    """'How many shares did X repurchase' counts shares; 'how much did X spend on share repurchases' is the
    cash-flow amount."""
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import plan_question

    lib = default_library()
    counted = plan_question("How many shares of common stock did Globex repurchase in 2022, in millions?", "number", lib)
    assert counted.counted == "shares" and counted.metric is None
    in_millions = plan_question("How many million shares did Globex repurchase in 2022?", "number", lib)
    assert in_millions.counted == "shares" and in_millions.metric is None  # the scale written with no 'of'
    spent = plan_question("How much did Globex spend on share repurchases in 2022, in USD millions?", "number", lib)
    assert spent.formula == "share repurchases 2022"


@pytest.mark.parametrize("rewording", [
    "What was the number of stores Globex operated at the end of FY2022?",  # the noun ends before the company
    "What was Globex's number of stores at the end of FY2022?",
    "What was Globex's store count at the end of FY2022?",
])
def test_a_count_reworded_is_planned_as_the_count(rewording):
    """A count asked as 'the number of N' or 'N count' is read as 'how many N' is: by the count reader, not as a
    row printed with those words (the plan had a line item 'number of stores globex operated')."""
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import plan_question

    def plan(q):
        p = plan_question(q, "number", default_library())
        return p.years, p.counted, p.formula

    assert plan(rewording) == plan("How many stores did Globex operate at the end of FY2022?") == ((2022,), "stores", "")


QUALIFIED = [Page("s", 5, "Human Capital\n\nOn December 31, 2022, the Company employed approximately 61,000 people "
                          "(full-time equivalents), with approximately 24,000 employed in the United States and 37,000 "
                          "employed internationally.\n"),
             Page("s", 6, "Labor relations\n\nAs of December 31, 2022, approximately 2,900 employees, excluding "
                          "seasonal hires, in North America were covered by collective bargaining agreements.\n"),
             Page("s", 7, "Stores\n\nAt December 31, 2022, Globex operated 612 stores worldwide: 431 in the United "
                          "States located in 38 states and Puerto Rico, 97 in Canada and 84 in Mexico.\n")]


@pytest.mark.parametrize("question, value", [
    ("How many people did Globex employ in the United States at the end of 2022?", 24_000),
    ("How many people did Globex employ internationally at the end of 2022?", 37_000),
    ("How many Globex employees in North America were covered by collective bargaining agreements in 2022?", 2_900),
    ("How many employees did Globex have at the end of 2022?", 61_000),  # no qualifier: the whole, as before
    # '38 states' counts states, not the stores in the United States and Puerto Rico
    ("How many Globex stores were located in the United States and Puerto Rico at the end of 2022?", 431),
])
def test_a_count_qualified_by_the_question_is_the_count_its_sentence_qualifies_so(question, value):
    """'in the United States', 'covered by collective bargaining agreements': the count whose own clause says so
    (a part of the workforce), not the largest; a sentence may give a part's figure without repeating the noun
    ('with approximately 24,000 employed in the United States'). Both had been answered with the whole."""
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import company_plan

    plan = company_plan(question, "number", ("Globex",), default_library())
    assert plan.counted in ("employees", "stores") and "globex" not in plan.qualifiers
    reading = read_number(NeverCalled(), question, question, QUALIFIED, default_lexicon(), year=2022,
                          counted=plan.counted, qualifiers=plan.qualifiers)
    assert reading.value == value, (plan.qualifiers, reading.notes)


def test_a_percentage_asked_of_a_workforce_counts_nothing():
    """'What percentage of X's total workforce was union represented': a percent, never a headcount (153,000
    had been answered)."""
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import plan_question

    lib = default_library()
    assert plan_question("What percentage of Globex's total workforce was union represented in 2018?", "number",
                         lib).counted == ""
    assert plan_question("What was Globex's workforce at the end of 2018?", "number", lib).counted == "employees"


def test_a_counts_qualifiers_are_the_words_of_its_own_clause_not_of_the_template_around_it():
    """'Assume that you are an analyst ... shown in the 10-K: how many employees ...': the template's words
    qualify nothing (they had made any clause naming 'information' or 'analyst' the count)."""
    from rag_assets.answer.question.counts import count_qualifiers

    assert count_qualifiers("Assume that you are a public equities analyst. Answer the following question by "
                            "primarily using information that is shown in the 10-K: how many employees did the "
                            "company have at the end of fiscal 2021?", "employees") == ()
    assert count_qualifiers("How many employees in North America were covered by collective bargaining agreements "
                            "at the end of 2017? Give a response relying on the details shown.", "employees") == \
        ("north", "america", "covered", "collective", "bargaining", "agreements")
    # an instruction's verb and 'in operation' qualify nothing: 'state' had kept only counts beside 'states'
    assert count_qualifiers("State the number of warehouses in operation at the end of fiscal 2021.", "warehouses") == ()
    assert count_qualifiers("Tell me how many employees were in Canada in 2022.", "employees") == ("canada",)


@pytest.mark.parametrize("question", ["What was Globex's headcount at the end of 2Q23?",
                                      "What was the Globex workforce at the end of FY22?",
                                      "What was the size of Globex's workforce at the end of 2022?",
                                      "How many employees did Globex have on the 31st of December 2022?"])
def test_the_counts_own_name_and_its_period_qualify_nothing(question):
    """'headcount at the end of 2Q23': the headcount itself (a sentence naming 'headcount' had been taken for a
    part of it: 45,235 for 300,066)."""
    from rag_assets.answer.question.counts import count_qualifiers

    assert count_qualifiers(question.replace("Globex's ", "").replace("Globex ", ""), "employees") == ()


def test_a_count_written_in_words_is_read_as_its_number():
    """'operates in five reportable segments': five, read by Python; before, no count was found and the model
    chose 'Net sales of reportable segments 13,143' (in millions)."""
    pages = [Page("s", 1, "Tarn manufactures products at 124 plants in 15 countries and operates in five "
                          "reportable segments: Optical, Display, Specialty, Environmental and Life Sciences.\n")]
    assert counted_in(pages[0].text, "segments") == ["five"]
    reading = read_number(NeverCalled(), "How many reportable segments does Tarn have?", "reportable segments",
                          pages, default_lexicon(), counted="reportable segments")
    assert reading.value == 5
    assert counted_in("one of our employees retired", "employees") == []  # 'of our': no count


def test_a_count_whose_noun_is_modified_is_the_figure_the_modifiers_stand_before():
    """'152 aircraft and ... a backlog of 398 production aircraft': production aircraft are 398, aircraft 152 (the
    first count had answered both)."""
    from rag_assets.answer.evidence.operands import SourcePage

    page = SourcePage("s", 3, "F-35 Program\n\nIn 2023 we delivered 152 aircraft and had a backlog of 398 production "
                              "aircraft, including orders from international customers.\n", False)
    assert counted_noun("How many production aircraft were in Tarn's backlog at the end of 2023?") == \
        "production aircraft"
    assert [c.figures[0].written for c in count_candidates([page], "production aircraft", 2023)] == ["398"]
    assert [c.figures[0].written for c in count_candidates([page], "aircraft", 2023)] == ["152"]


def test_a_change_of_a_count_is_no_count_and_a_suspended_compound_modifies_the_noun():
    """'the net addition of approximately 2,300 employees' in 2021 is a change: the count is the 21,400 of
    'full- and part-time employees', a sentence without a year, read as the whole."""
    pages = [Page("s", 8, "Our people\n\nEach of our 21,400 full- and part-time employees in 30 countries makes a "
                          "difference.\n"),
             Page("s", 9, "Talent\n\nIn 2021, our hiring processes supported the net addition of approximately 2,300 "
                          "employees.\n")]
    assert count_candidates(pages, "employees", 2021)[0].figures[0].written == "21,400"
    reading = read_number(NeverCalled(), "How many people did Globex employ at the end of 2021?", "employ",
                          pages, default_lexicon(), year=2021, counted="employees")
    assert reading.value == 21_400 and reading.candidate.page_index == 8


def test_two_counts_before_one_noun_are_each_years_in_the_sentences_order():
    pages = [Page("s", 10, "Employees\n\nAs of December 31, 2023 and 2022, the Company had approximately 48,200 and "
                           "71,500 employees, respectively.\n")]
    for year, value in ((2023, 48_200), (2022, 71_500)):
        reading = read_number(NeverCalled(), f"What was the size of Globex's workforce at the end of {year}?",
                              "size of workforce", pages, default_lexicon(), year=year, counted="employees")
        assert reading.value == value


def test_a_share_of_a_workforce_a_sentence_states_is_planned_as_no_formula_of_words():
    """'What percentage of X's employees were represented by unions': no library item on either side, so no
    'unions / employees' of words (it had divided the number of unions, two, by employee benefit obligations);
    the number reader reads the percentage the sentence states. A share of a library item is still computed."""
    from rag_assets.answer.question.formulas import show
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import plan_question

    lib = default_library()
    plan = plan_question("What percentage of Globex's employees were represented by unions at the end of 2022?",
                         "number", lib)
    assert plan.metric is None and plan.counted == "" and plan.unit == "percent"
    plan = plan_question("What percentage of Globex's 2022 revenue came from its Cloud segment?", "number", lib)
    assert show(plan.metric.node) == "(revenue [cloud] 2022 / revenue 2022)"


OWN_CLAUSES = [Page("s", 4, "Our people\n\nAt March 31, 2024, Halvorsen had approximately 18,400 employees, with "
                            "approximately 6,100 in the U.S. and approximately 12,300 based in our operations outside "
                            "of the U.S. Our workforce is divided between approximately 7,900 employees in production "
                            "and approximately 10,500 in other roles.\n"),
               Page("s", 9, "Capital returns\n\nDuring 2024, 2023 and 2022, we repurchased 12 million ordinary shares "
                            "for $1.1 billion, 9 million ordinary shares for $0.8 billion and 4 million ordinary "
                            "shares "
                            "for $0.3 billion, respectively. At December 31, 2024, approximately 30 million ordinary "
                            "shares remained available under the repurchase program.\n")]


@pytest.mark.parametrize("question, value", [
    # the clause naming 'the U.S.' after 'outside of' counts the others: 12,300 had been read; the sentence after
    # 'the U.S.' is another one ('Our workforce ...'), whose 7,900 is no count of the sentence before
    ("How many of Halvorsen's employees were located in the U.S. at March 31, 2024?", 6_100),
    # the verb leading to the count is what was done ('we repurchased 12 million'); the 30 million remaining under
    # the repurchase program had been read ('in millions' had been a qualifier, as 'million' its clause prints)
    ("How many ordinary shares did Halvorsen repurchase in 2024, in millions?", 12),
])
def test_a_counts_own_clause_is_its_verb_and_its_words_but_not_what_it_is_outside_of(question, value):
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import company_plan

    plan = company_plan(question, "number", ("Halvorsen",), default_library())
    assert "millions" not in plan.qualifiers
    reading = read_number(NeverCalled(), question, question, OWN_CLAUSES, default_lexicon(), year=2024,
                          counted=plan.counted, qualifiers=plan.qualifiers)
    assert reading.value == value * (1e6 if "millions" in question else 1), (plan.qualifiers, reading.notes)


CONNECTIONS = [Page("s", 3, "Consumer segment\n\nAs of December 31, 2024, Consumer had approximately 41 million "
                            "wireless "
                            "retail connections, of which 78% are postpaid connections. In addition, at December 31, "
                            "2024 Consumer had approximately 6 million total broadband connections (which includes "
                            "fiber "
                            "internet and DSL connections), and approximately 2 million fiber video connections.\n")]


@pytest.mark.parametrize("question, value", [
    # 'wireless' ends in s but is a modifier before the head: the 41 million had been dropped as a count of 'wireless'
    ("How many wireless retail connections did Halvorsen's Consumer segment have at the end of 2024, in millions?", 41),
    # the count whose noun phrase holds the modifiers asked: '6 million total broadband connections' is another one
    ("How many fiber video connections did Halvorsen Consumer have at year-end 2024, in millions?", 2),
    ("How many total broadband connections did Halvorsen's Consumer segment have at December 31, 2024, in millions?",
     6),
])
def test_a_count_is_of_the_noun_phrase_asked_with_its_modifiers(question, value):
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import company_plan

    plan = company_plan(question, "number", ("Halvorsen",), default_library())
    reading = read_number(NeverCalled(), question, question, CONNECTIONS, default_lexicon(), year=2024,
                          counted=plan.counted, qualifiers=plan.qualifiers)
    assert reading.value == value * 1e6, (plan.counted, plan.qualifiers, reading.notes)


STORES = [Page("s", 2, "General\n\nTarn operated 412, 398, and 371 stores worldwide at January 28, 2024, January 29, "
                       "2023, and January 30, 2022, respectively.\n"),
          Page("s", 6, "International\n\nAt the end of 2023, we operated 139 stores outside of the U.S., and we plan "
                       "to "
                       "continue expanding abroad.\n"),
          Page("s", 7, "Our people\n\nAt the end of 2023, we employed 52,000 employees worldwide. The large majority "
                       "(approximately 90%) work in our stores and approximately 6,400 employees are represented by "
                       "unions.\n"),
          Page("s", 9, "Share repurchases\n\nIn fiscal 2023, we purchased 2.6 million shares of Tarn's Class A Common "
                       "Stock for $310 million under the program.\n")]


@pytest.mark.parametrize("question, year, value", [
    # a list of counts before their noun, dated in order by the dates after it: the year's (371, the largest, had
    # been read: only the figure next to the noun counted)
    ("How many stores did Tarn operate worldwide at January 29, 2023?", 2023, 398),
    # 'and we plan to continue' is another clause: the count is no forecast (the sentence had been dropped)
    ("How many stores did Tarn operate outside of the U.S. at the end of 2023?", 2023, 139),
    # a sentence naming no year is of the year its paragraph named (the dated 52,000 had been the only count)
    ("How many Tarn employees were represented by unions at the end of 2023?", 2023, 6_400),
    # the money of the same sentence is no count of shares ('$310 million' had been read)
    ("How many shares of Class A Common Stock did Tarn purchase in fiscal 2023, in millions?", 2023, 2.6e6),
])
def test_counts_in_lists_clauses_and_paragraphs(question, year, value):
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import company_plan

    plan = company_plan(question, "number", ("Tarn",), default_library())
    reading = read_number(NeverCalled(), question, question, STORES, default_lexicon(), year=year,
                          counted=plan.counted, qualifiers=plan.qualifiers)
    assert reading.value == value, (plan.counted, plan.qualifiers, reading.notes)


def test_a_noun_modified_otherwise_is_another_count():
    """'270 urgent care clinics' counts no managed clinics (it had been the answer for them), while it counts
    clinics; a bare '1,900 clinics' would count the managed ones where no sentence names them."""
    page = [Page("s", 2, "Our network\n\nAcross 20 states we run 182 hospitals, including:\n\n270\n\nurgent care "
                         "clinics\n\n43\n\nhome health agencies\n")]
    assert count_candidates(page, "managed clinics", None) == []
    assert [c.figures[0].written for c in count_candidates(page, "clinics", None)] == ["270"]
    bare = [Page("s", 3, "Our network\n\nIn 2024 we ran 1,900 clinics.\n")]
    assert [c.figures[0].written for c in count_candidates(page + bare, "managed clinics", 2024)] == ["1,900"]


MODELS = [Page("s", 3, "Aeronautics\n\nDuring 2024, we delivered 140 production aircraft to our customers. We "
                       "delivered 25 T-50A aircraft in 2024. We delivered 12 KX-3 aircraft in 2024, and we have 31 "
                       "KX-3 aircraft in backlog.\n")]


@pytest.mark.parametrize("question, value", [
    ("How many T-50A aircraft did Globex deliver in 2024?", 25),
    ("How many KX-3 aircraft did Globex deliver in 2024?", 12),
    ("How many KX-3 aircraft did Globex have in backlog at the end of 2024?", 31),
])
def test_a_count_of_a_model_is_the_count_its_sentence_names_that_model(question, value):
    """A model's name of letters and digits between count and noun ('25 T-50A aircraft') is a modifier, not a
    table's figure, and the question's 'T-50A' is a qualifier whole (it had been folded to 't'): the count of that
    model, not the 140 production aircraft of the year."""
    plan, reading = _read_count(question, "Globex", MODELS, 2024)
    assert reading.value == value, (plan.qualifiers, reading.notes)


PROGRAMS = [Page("s", 3, "Rotary and Mission Systems\n\nWe delivered 31 RX-7 helicopters in 2024.\n"),
            Page("s", 40, "Aeronautics\n\nZK-9 program. During 2024, we delivered 96 production aircraft to our "
                          "partner nations. During the second half of 2024, the customer awarded the production of "
                          "14 ZK-9 Lot 6 aircraft in addition to the 300 aircraft awarded earlier. We delivered 9 "
                          "TA-2 aircraft in 2024.\n")]


@pytest.mark.parametrize("question, value", [
    ("How many ZK-9 aircraft did Globex deliver in 2024?", 96),
    ("Number of TA-2 aircraft Globex delivered in 2024?", 9),
])
def test_a_model_named_is_one_word_asked_and_another_models_count_is_none_of_it(question, value):
    """'ZK-9' asked is one qualifier, named once: the award of '14 ZK-9 ... aircraft' had counted it twice ('zk9'
    and 'zk'), as much as the verb asked leading to '96 production aircraft'; and '9 TA-2 aircraft' counts another
    model, never the one asked."""
    plan, reading = _read_count(question, "Globex", PROGRAMS, 2024)
    assert reading.value == value, (plan.qualifiers, reading.notes)


def _read_count(question: str, company: str, pages, year: int):
    """The question's plan as the answerer makes it, and the number reader's count on ``pages``."""
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import company_plan

    plan = company_plan(question, "number", (company,), default_library())
    return plan, read_number(NeverCalled(), question, question, pages, default_lexicon(), year=year,
                             counted=plan.counted, qualifiers=plan.qualifiers)


MEMBERS = [Page("s", 4, "Membership\n\nExecutive members totaled 19.2 million and represented 48% of paid members in "
                        "2024. Our membership was made up of the following (in thousands):\n\n"
                        "| | 2024 | 2023 |\n| --- | --- | --- |\n| Gold members | 33,100 | 31,800 |\n"
                        "| Business members | 7,000 | 6,900 |\n| Total paid members | 40,100 | 38,700 |\n"
                        "| Household cards | 31,500 | 30,200 |\n| Total cardholders | 71,600 | 68,900 |\n")]


@pytest.mark.parametrize("question, value", [
    # the sentence counts Executive members, its 'paid members' is of another figure: the table's row is the count
    ("How many paid members did Tarn have at the end of 2024, in millions?", 40.1),
    ("How many cardholders did Tarn have at the end of 2023?", 68_900_000),
    ("How many executive members did Tarn have in 2024, in millions?", 19.2),
])
def test_a_count_printed_after_its_noun_is_modified_by_the_words_before_that_noun(question, value):
    from rag_assets.answer.question.unit import asked_unit

    plan, reading = _read_count(question, "Tarn", MEMBERS, 2024 if "2024" in question else 2023)
    assert reading.value is not None and asked_unit(question).amount(reading.value) == pytest.approx(value), \
        (plan.counted, reading.notes)


def test_a_count_row_is_never_in_the_money_scale_of_a_table_above_it():
    """'(Dollars in millions)' declares the scale of the segment's results; the deliveries table below a paragraph
    and its own caption ('deliveries as of December 31 were as follows:') counts airplanes in units (806, not
    806 million); a count whose caption declares its scale ('(in thousands)') is read in it."""
    money = ("Results of Operations\n\n(Dollars in millions)\n\n| Years ended December 31, | 2018 | 2017 |\n"
             "|---|---|---|\n| Revenues | $60,715 | $58,014 |\n| Earnings from operations | $7,879 | $5,452 |\n\n"
             "Revenues increased in 2018 due to higher deliveries of twin aisle airplanes.\n\n")
    pages = [Page("s", 27, money + "Commercial Airplanes deliveries as of December 31 were as follows:\n\n"
                  "| | 2018 | 2017 |\n|---|---|---|\n| Deliveries | 806 | 763 |\n")]
    found = count_candidates(pages, "commercial airplane deliveries", 2018)
    assert [(c.figures[0].written, c.value_of(c.figures[0])) for c in found] == [("806", 806.0)]
    pages = [Page("s", 27, money + "Deliveries (in thousands)\n\n| | 2018 | 2017 |\n|---|---|---|\n"
                  "| Deliveries | 806 | 763 |\n")]
    assert [c.value_of(c.figures[0]) for c in count_candidates(pages, "deliveries", 2018)] == [806_000.0]


def test_the_first_n_delivered_is_a_count_since_a_start():
    """'The first 611 Z-9 aircraft delivered include 438 Z-9A variants' counts every delivery so far, never the
    year's (611 had been read as 2020's deliveries)."""
    from rag_assets.answer.evidence.operands import SourcePage

    page = SourcePage("t", 35, "In 2020, the first 611 Z-9 aircraft delivered to customers include 438 Z-9A variants "
                               "and 128 Z-9B variants.\n", False)
    assert "611" not in [c.figures[0].written for c in count_candidates([page], "z 9 aircraft", 2020)]
    assert "611" in [c.figures[0].written for c in count_candidates([page], "z 9 aircraft", 2020, since_start=True)]
