"""A part of the company (a segment, a division, a region) is read, not refused: the question's words name the
part and the figure ('the Aeronautics segment's net sales', 'what share of revenue came from its Cloud
segment', 'the operating margin of the Snacks division'), and Python reads the part's figure from the rows the
filing prints for it: a segment table (a row per segment under the item's heading or caption) or a segment's own
results (the item's rows under a caption naming the segment); never the company's total. In wordings and
companies of our own (issue 45, class 1)."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.question.formulas import Item, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.parts import read_part
from rag_assets.answer.question.plan import plan
from rag_assets_tests.filing_factory import answerer_over_10k

LIB = default_library()


def formula(question: str) -> str | None:
    found = plan(question, LIB)
    return show(found.node) if found else None


@pytest.mark.parametrize("text, part", [
    ("What were Globex's Cloud Services segment revenues in FY2021?", "cloud services"),
    ("net sales of the Snacks division in 2020", "snacks"),
    ("Initech's Defense, Space & Security segment operating profit", "defense space & security"),
    ("the operating income of its pet food business in 2022", "pet food"),
    ("What share of sales came from Greater China in fiscal 2019?", "greater china"),
    ("international sales as a percentage of total sales", "international"),
    ("What were Globex's Cloud Services revenues in 2021?", "cloud services"),  # a name before an item
    ("the operating margin for Globex's Safety and Graphics in 2021", "safety and graphics"),  # owned, then the period
    ("What is Globex's Membership fee revenue for fiscal 2021?", ""),  # one printed item, capitalized
    ("What was Globex's Revenue in 2022?", ""),  # an item, capitalized
    ("What was the EBIT of Globex's Greater Asia segment in FY2019?", "greater asia"),  # owner after 'of'
    ("What was the net income of Vandelay Group in 2021?", ""),  # a company's name, no part
    ("Which segment had the largest revenue in 2021?", ""),  # no part named
    ("revenue by reportable segment", ""),
    ("revenue in United States dollars", ""),  # a currency, not a region
    ("What were Globex's net sales in its Other International Operations in 2021?",
     "other international"),  # a region inside the name the filing prints, 'Other' kept
    ("What was the operating income of Globex's United States Operations in 2021?", "united states"),
    ("What share of Globex's revenue came from its Canadian Operations?", "canada"),  # 'its'
    ("What was Globex's North America EBIT in fiscal 2021?", "north america"),  # a metric ends the name
    ("Europe Q2 sales", "europe"),
    ("What were Globex's domestic streaming revenues in 2016?", "domestic streaming"),  # lower-case words before
    ("international DVD net sales in 2016", "international dvd"),  # the item name the part with the region
    ("What were Globex's international net sales in 2016?", "international"),
    ("What were Globex's Canadian operations total revenue in fiscal 2021?", "canada"),  # adjective
    ("What were Globex's Premier Services total revenues net of interest expense in 2022?", "premier services"),
    ("What were Globex's Business segment operating revenues in 2022?", "business"),  # a name capitalized alone
    ("operating revenues of the Business segment in 2022", "business"),
    ("Globex's Orbital business segment operating profit", "orbital"),  # 'business' lower-case names none
    ("What Segment had the largest revenue in 2021?", ""),  # a question's word capitalized names none
    ("the contribution profit of Globex's domestic DVD segment in 2015", "domestic dvd"),  # lower case, an acronym
    ("What was Globex's VoIP segment revenue?", "voip"),
    ("Using the segment note, what is the Canadian Operations' total revenue?", "canada"),  # its own 's
    ("What was Globex's EBIT for the North America region in fiscal 2019?", "north america"),  # a region's noun
    ("What was the operating income of Globex's United States operations in 2021?", "united states"),
    ("What were Globex's net sales in its Canadian operations?", "canada"),  # the adjective: the region
    ("What were Globex's European net sales in 2021?", "europe"),
    ("What was Globex's income from continuing operations in 2021?", ""),  # 'operations' after lower case: none
    ("What was Globex's cash flow from operations in 2021?", ""),
    ("the pretax segment income of Globex's Orbital segment", "orbital"),  # 'pretax' names no part
    ("Globex's unit case volume in 2017", ""),  # the owner's possessive before a part noun of a longer name
    ("What was Globex's revenue in Brazil in fiscal 2021?", "brazil"),  # a place no list holds
    ("What were Globex's net sales in South Korea in 2022?", "south korea"),
    ("What was Globex's revenue in Fiscal 2021?", ""),  # capitalized words of a period, a unit, a filing's part
    ("What were Globex's sales in March 2023, in Millions?", ""),
    ("What was the revenue reported in Item 7 of Globex's 10-K?", ""),
    ("What was the change in Johnson & Johnson's net earnings?", ""),  # a company's name goes on after it
    # a period between the owner and the part's name; 'total' or 'worldwide' before the item: all of the part's
    ("What was Globex's Q3-2024 Home Goods worldwide sales growth?", "home goods"),
    ("What were Globex's third-quarter 2024 Home Goods revenues?", "home goods"),
    ("What was Globex's fiscal 2024 Wealth Advisory total net revenue?", "wealth advisory"),
    ("What was Globex's Wealth Advisory total net revenue in the first half of 2024?", "wealth advisory"),
    ("What was Globex's international streaming contribution profit in 2017?", "international streaming"),
    ("What was Globex's Retail contribution profit in 2017?", "retail"),  # a profit the library does not name
    ("What was Globex's 2024 total revenue?", ""),  # the company's total: no part
    ("What was Globex's FY2024 Total Revenue?", ""),
])
def test_the_part_a_phrase_names(text, part):
    assert read_part(text, LIB)[0] == part


@pytest.mark.parametrize("question, expected", [
    ("What share of Globex's 2019 segment net revenues came from Arcade?",
     "(revenue [arcade] 2019 / segment net revenues 2019)"),  # the whole: the segments' own total as printed
    ("What were Globex's 2019 segment net revenues?", "segment net revenues 2019"),
    ("What was the pretax segment income of Globex's Orbital segment in 2022?", "income before taxes [orbital] 2022"),
    ("What was the segment operating income of Globex's Cloud segment in 2022?", "operating income [cloud] 2022"),
    ("What was Globex's Premier Services pretax segment income in 2022?",
     "income before taxes [premier services] 2022"),  # 'segment' inside the item's words after the part's name
    ("Globex's Cloud Services revenues, FY2022, in millions", "revenue [cloud services] 2022"),  # the year after a comma
    ("What was Globex's operating profit by segment in 2022?", None),  # no part named: still refused
    ("What share of Globex's 2015 net revenue came from the Storage, Networking and Edge segment, in percent?",
     "(revenue [storage networking and edge] 2015 / revenue 2015)"),  # a comma inside the part's name
    ("What share of Globex's net revenue came from the Storage, Networking and Edge segment, FY2015?",
     "(revenue [storage networking and edge] 2015 / revenue 2015)"),
    ("What share of Globex's net revenue was from Storage, in percent, in 2015?",
     "(revenue [storage] 2015 / revenue 2015)"),  # a comma before words in lower case ends it
])
def test_segment_before_an_items_name_is_the_segment_notes_measure_of_the_part_or_of_all(question, expected):
    """'segment net revenues', 'pretax segment income': the part's figure as its segment note prints it; with no
    part named, the segments' total row. Before, the word 'segment' refused the question (a part not named)."""
    assert formula(question) == expected


def test_a_figure_of_a_part_is_planned_with_the_parts_name_in_every_formula():
    assert formula("What were Globex's Cloud Services segment revenues in FY2021? Answer in USD millions.") == \
        "revenue [cloud services] 2021"
    assert formula("What was the operating margin of Initech's Snacks division in fiscal 2022, in percent?") == \
        "(operating income [snacks] 2022 / revenue [snacks] 2022)"
    assert formula("What share of Globex's 2021 operating income came from its Cloud segment?") == \
        "(operating income [cloud] 2021 / operating income 2021)"  # the part over the whole
    for verb in ("came from", "were to", "were made to", "was derived from"):  # a rewording reads the same
        assert formula(f"What percentage of Globex's 2021 net sales {verb} its Cloud segment?") == \
            "(revenue [cloud] 2021 / revenue 2021)", verb
    assert formula("By how much did the Medical Devices segment's net sales of Acme grow from 2020 to 2021, in "
                   "percent?") == ("((revenue [medical devices] 2021 - revenue [medical devices] 2020) / "
                                   "revenue [medical devices] 2020)")
    assert formula("What were Acme's international sales as a percentage of its total sales in FY2022?") == \
        "(revenue [international] 2022 / revenue 2022)"
    assert formula("What was the operating profit margin for Initech's Missiles and Sensors in 2021?") == \
        "(operating income [missiles and sensors] 2021 / revenue [missiles and sensors] 2021)"  # after 'for Initech's'
    assert formula("What were Initech's Medical Devices net sales in 2018?") == "revenue [medical devices] 2018"


def test_a_part_owned_by_the_company_is_planned_without_the_owner_in_the_formulas_words():
    """The company's possessive goes with the part's name: the margin, the sum over years and the share are the
    part's, whichever word owns it ('Globex's', 'its') and wherever the rewording put it ("Operations's")."""
    assert formula("What was the operating margin of Globex's United States Operations in fiscal 2021, in "
                   "percent?") == "(operating income [united states] 2021 / revenue [united states] 2021)"
    assert formula("What was the combined depreciation and amortization of Globex's Canadian Operations over "
                   "fiscal 2019 through 2021, in USD millions?") == (
        "((depreciation and amortization [canada] 2019 + depreciation and amortization [canada] 2020) + "
        "depreciation and amortization [canada] 2021)")
    assert formula("What share of Globex's fiscal 2021 total revenue came from its Canadian Operations, in "
                   "percent?") == "(revenue [canada] 2021 / revenue 2021)"
    assert formula("What total revenue did Globex's United States Operations generate for the fiscal year ended "
                   "August 29, 2021, in USD millions?") == "revenue [united states] 2021"


def test_what_the_filing_cannot_print_as_such_is_still_refused():
    assert formula("What was Acme's FY2022 revenue by segment?") is None  # no part named
    assert formula("What was the Snacks segment's adjusted operating income in FY2022?") is None
    assert formula("What was Acme's FY2022 revenue per employee?") is None


SEGMENT_TABLE = ("Summary operating results for each of our business segments were as follows (in millions):\n"
                 "| | 2022 | 2021 |\n| --- | --- | --- |\n| Net sales | | |\n| Avionics | $ 4,210 | $ 3,980 |\n"
                 "| Marine Systems | 2,105 | 2,240 |\n| Total net sales | $ 6,315 | $ 6,220 |\n| Operating profit | | |\n"
                 "| Avionics | 512 | 470 |\n| Marine Systems | 188 | 231 |\n| Total operating profit | 700 | 701 |\n")
OWN_RESULTS = ("Marine Systems\nOur Marine Systems business segment designs naval sensors.\n"
               "Marine Systems' operating results included the following (in millions):\n"
               "| | 2022 | 2021 |\n| --- | --- | --- |\n| Net sales | $ 2,105 | $ 2,240 |\n"
               "| Operating profit | 188 | 231 |\n| Operating margin | 8.9 % | 10.3 % |\n")
CAPTIONED = ("The following table summarizes Revenues:\n(Dollars in millions)\n"
             "| Years ended December 31, | 2022 | 2021 |\n| --- | --- | --- |\n| Avionics | $4,210 | $3,980 |\n"
             "| Marine Systems | 2,105 | 2,240 |\n| Total | $6,315 | $6,220 |\n")
STATEMENT = ("CONSOLIDATED STATEMENTS OF EARNINGS\n(In millions)\n| | 2022 | 2021 |\n| --- | --- | --- |\n"
             "| Net sales | 6,315 | 6,220 |\n| Operating profit | 700 | 701 |\n")


@pytest.mark.parametrize("text, item, year, value", [
    (SEGMENT_TABLE, "operating income", 2022, 188e6),  # under the table's 'Operating profit' heading row
    (SEGMENT_TABLE, "revenue", 2021, 2_240e6),  # under 'Net sales', not the 'Operating profit' rows
    (OWN_RESULTS, "operating income", 2021, 231e6),  # the item's row under a caption naming the segment
    (CAPTIONED, "revenue", 2022, 2_105e6),  # a caption naming the item above rows by segment
])
def test_a_parts_figure_is_read_from_the_rows_printed_for_it(text, item, year, value):
    statement = SourcePage("s", 50, STATEMENT, True)
    found = find_operand(Item(item, year, part="marine systems"), LIB.items[item],
                         [statement, SourcePage("s", 41, text, False)])
    assert found is not None and (found.value, found.page_index, found.part) == (value, 41, "marine systems")


BLOCKS = ("Business Segment Information Net Sales Operating Income\n(Millions) 2022 2021 2022 2021\n"
          "| | 2022 | 2021 | 2022 | 2021 |\n| --- | --- | --- | --- | --- |\n"
          "| Marine Systems | 2,105 | 2,240 | 188 | 231 |\n| Avionics | 4,210 | 3,980 | 512 | 470 |\n")
OTHER_REVENUE = ("The following table provides Fios revenues for our two reportable segments: (dollars in millions)\n"
                 "| Years Ended December 31, | 2022 | 2021 |\n| --- | --- | --- |\n| Marine Systems | 611 | 580 |\n")
PARAGRAPH = ("Cost of sales decreased in 2022 compared with 2021 primarily due to lower earnings charges, partially "
             "offset by higher costs as a result of higher revenue in our segments and elsewhere in the company.\n"
             "| | 2022 | 2021 |\n| --- | --- | --- |\n| Marine Systems | 945 | 818 |\n")


def test_a_parts_row_is_read_in_the_column_block_its_caption_names_for_the_item():
    """'Net Sales ... Operating Income' over '2022 2021 2022 2021': the second block is operating income."""
    page = [SourcePage("s", 40, BLOCKS, False)]
    found = find_operand(Item("operating income", 2022, part="marine systems"), LIB.items["operating income"], page,
                         library_names=LIB.item_names)
    assert found.value == 188e6
    found = find_operand(Item("revenue", 2021, part="marine systems"), LIB.items["revenue"], page,
                         library_names=LIB.item_names)
    assert found.value == 2_240e6


@pytest.mark.parametrize("text", [OTHER_REVENUE, PARAGRAPH])
def test_a_caption_naming_another_item_or_a_paragraph_is_no_heading_of_the_item(text):
    """'Fios revenues' is another item than revenue; a paragraph above a table is prose, not its caption."""
    assert find_operand(Item("revenue", 2022, part="marine systems"), LIB.items["revenue"],
                        [SourcePage("s", 7, text, False)], library_names=LIB.item_names) is None


def test_a_part_the_pages_do_not_print_is_not_found_and_never_the_companys_total():
    statement = SourcePage("s", 50, STATEMENT, True)
    for text in (SEGMENT_TABLE, OWN_RESULTS):
        assert find_operand(Item("revenue", 2022, part="space"), LIB.items["revenue"],
                            [statement, SourcePage("s", 41, text, False)]) is None


COMPANY = "Halvorsen Instruments Inc"
FIGURES = {"Total revenues": {2021: 6220, 2022: 6315, 2023: 6600}, "Operating income": {2021: 701, 2022: 700, 2023: 760},
           "Net income": {2021: 520, 2022: 515, 2023: 580}, "Total assets": {2022: 9000, 2023: 9400}}
SEGMENTS = {"Net sales": {"Avionics": {2021: 3980, 2022: 4210, 2023: 4350}, "Marine Systems": {2021: 2240, 2022: 2105, 2023: 2250}},
            "Operating profit": {"Avionics": {2021: 470, 2022: 512, 2023: 540}, "Marine Systems": {2021: 231, 2022: 188, 2023: 220}}}


@pytest.fixture(scope="module")
def answerer(tmp_path_factory):
    return answerer_over_10k(tmp_path_factory.mktemp("parts_data"), COMPANY, 2023, FIGURES, SEGMENTS)


@pytest.mark.slow
def test_a_segments_figures_are_answered_from_the_ingested_segment_note(answerer):
    rec = answerer.answer(f"What were the net sales of {COMPANY}'s Marine Systems segment in FY2023? Answer in USD "
                          "millions.", "number")
    assert rec.value == pytest.approx(2250.0) and rec.llm_calls == 0
    assert rec.computation["operands"][0]["label"] == "Marine Systems"
    rec = answerer.answer(f"What was the operating margin of {COMPANY}'s Avionics segment in 2022, in percent?",
                          "number")
    assert rec.value == pytest.approx(100 * 512 / 4210, rel=1e-3)
    rec = answerer.answer(f"What share of {COMPANY}'s 2023 operating income came from its Avionics segment? "
                          "Answer in percent.", "number")
    assert rec.value == pytest.approx(100 * 540 / 760, rel=1e-3)
    assert {o["part"] for o in rec.computation["operands"]} == {"avionics", ""}
    rec = answerer.answer("What were Halvorsen Instruments Avionics segment net sales in FY2022, in USD millions?",
                          "number")  # the company without its possessive: still the segment's owner
    assert rec.value == pytest.approx(4210.0) and rec.computation["operands"][0]["part"] == "avionics"


@pytest.mark.slow
def test_a_place_the_filing_prints_no_figure_of_is_na_never_the_companys_total(answerer):
    """'revenue in Brazil': a part of the company the filing prints nothing of is N/A, with the reason (it had been
    answered with the company's total revenues, 6,600)."""
    rec = answerer.answer(f"What was {COMPANY}'s revenue in Brazil in 2023, in USD millions?", "number")
    assert rec.value == "N/A" and rec.references == []
    assert any("the part 'brazil'" in n for n in rec.notes), rec.notes


@pytest.mark.slow
def test_a_part_named_without_its_noun_is_the_owner_of_its_figure(answerer):
    """'Halvorsen Instruments Marine Systems net sales': the part's figure (it had been the company's total);
    'what share of operating income came from Avionics': the part's operating income, not a row named so."""
    rec = answerer.answer("Halvorsen Instruments Marine Systems net sales in FY2022, in USD millions", "number")
    assert rec.value == pytest.approx(2105.0) and rec.computation["operands"][0]["part"] == "marine systems"
    rec = answerer.answer(f"What share of {COMPANY}'s 2022 operating income came from Avionics, in percent?", "number")
    assert rec.value == pytest.approx(100 * 512 / 700, rel=1e-3)


@pytest.mark.slow
def test_a_row_is_never_read_with_the_companys_name_in_it(answerer):
    """'Halvorsen Instruments contribution profit in 2022': the row 'contribution profit' the company prints; the
    plan had read 'halvorsen instruments contribution profit', a row no filing prints."""
    written = ("Halvorsen Instruments",)
    for question in ("Halvorsen Instruments contribution profit in 2021 and 2022 combined",
                     "What was Halvorsen Instruments contribution profit in 2022?"):
        formula = answerer.plan(question, "number", written).formula
        assert "contribution profit" in formula and "halvorsen" not in formula, formula


@pytest.mark.slow
def test_a_segment_the_filing_does_not_print_is_na_with_its_reason(answerer):
    rec = answerer.answer(f"What were the net sales of {COMPANY}'s Rail segment in FY2023? Answer in USD millions.",
                          "number")
    assert rec.value == "N/A"  # no segment of the filing is named 'Rail', and no page prints 'Rail segment'
    assert "no 'rail' segment or division: its filings name Avionics" in rec.to_dict()["na_reason"]  # ask, evaluate


def test_yes_no_comparing_two_parts_reads_each_parts_figure_of_the_year_asked():
    """'Did X's Cloud segment have higher net sales than its Devices segment in 2021' compares two parts in one
    year, never the first part's 2021 with its 2020; 'than that of its ...' is the same item of the other part;
    the part may stand before the verb ('Globex's Canadian Operations earn more ...')."""
    from rag_assets.answer.question.criterion import criterion

    def crit(question: str) -> tuple[str, str] | None:
        found = criterion(question, LIB)
        return (found.test, show(found.now)) if found else None

    assert crit("Did Globex's Cloud segment have higher net sales than its Devices segment in 2021?") == \
        ("positive", "(revenue [cloud] 2021 - revenue [devices] 2021)")
    assert crit("Was the operating income of Globex's Canadian Operations higher than that of its Other "
                "International Operations in fiscal 2021?") == \
        ("positive", "(operating income [canada] 2021 - operating income [other international] 2021)")
    assert crit("Did Globex's Canadian Operations earn more operating income in fiscal 2021 than its Other "
                "International Operations?") == \
        ("positive", "(operating income [canada] 2021 - operating income [other international] 2021)")
    assert crit("Did Globex have higher net sales in 2021 than in 2020?")[0] == "up"  # two years: a movement


# a segment's own results under its heading, its backlog dated by 'at year-end', its contribution as printed
OWN_TABLE = ("Marine Systems\n\nMarine Systems' operating results included the following (in millions):\n\n"
             "| | 2022 | 2021 |\n|---|---|---|\n| Net sales | $ 2,105 | $ 2,240 |\n"
             "| Contribution profit | 388 | 402 |\n| Backlog at year-end | $ 9,480 | $ 8,870 |\n")


@pytest.mark.parametrize("question, value", [
    ("What was the backlog of Globex's Marine Systems segment at year-end 2022?", 9_480e6),
    ("What was the contribution profit of Globex's Marine Systems segment in 2021?", 402e6),
])
def test_a_parts_row_the_library_does_not_know_is_read_as_printed(question, value):
    """'Backlog at year-end' is the backlog ('at year-end' says when, not what); 'contribution profit' is a row
    as printed (a noun, not the verb 'contribute')."""
    found = plan(question, LIB)
    assert found is not None and isinstance(found.node, Item) and found.node.part == "marine systems"
    op = find_operand(found.node, LIB.items.get(found.node.name), [SourcePage("s", 43, OWN_TABLE, False)])
    assert op is not None and op.value == value


@pytest.mark.parametrize("question, written, part", [
    ("What were Tarn Consumer segment operating revenues in 2022?", ("Tarn",), "consumer"),
    ("What was Tarn Holdings Aeronautics segment net sales in 2021?", ("Tarn Holdings", "Tarn"), "aeronautics"),
    ("What were Tarn's Consumer segment revenues in 2022?", ("Tarn",), "consumer"),  # already its owner
    ("Did Tarn Communications report a loss in 2022?", ("Tarn",), ""),  # the company's longer name, no part
    ("Tarn Safety and Industrial net sales in 2022 (USD millions)", ("Tarn",), "safety and industrial"),
    ("What was Tarn Holdings Marine Systems operating income in 2021?", ("Tarn Holdings", "Tarn"), "marine systems"),
    ("Tarn Total revenue in 2022", ("Tarn",), ""),  # a word of the whole company, no part
    ("Tarn FY2022 revenue", ("Tarn",), ""),  # a period, no part
    ("Did Tarn Marine Systems deliver more ships in 2022?", ("Tarn",), ""),  # no item after it: the name is left
])
def test_the_company_written_before_a_part_without_a_possessive_owns_it(question, written, part):
    """'Tarn Consumer segment': the routed company (as the question writes it) owns the part, which is
    'consumer', not 'tarn consumer' (no filing prints that)."""
    from rag_assets.answer.question.owners import owned_parts

    assert read_part(owned_parts(question, written, LIB), LIB)[0] == part


def test_a_place_asked_by_its_name_is_the_part_a_filing_names_by_its_adjective():
    """'Revenue in Canada' is the column or row 'Canadian Operations' (it had been N/A); 'Indiana' is not India."""
    from rag_assets.answer.evidence.column_parts import part_column
    from rag_assets.answer.evidence.operands import names_part

    lines = ("United States Operations", "Canadian Operations", "Other International Operations Total")
    assert part_column((), lines, "canada", 4) == 1
    assert part_column((), lines, "canadian operations", 4) == 1
    assert names_part("Canadian Operations", "canada") and names_part("European", "europe")
    assert names_part("North American operations", "north america")
    assert not names_part("Indiana", "india") and not names_part("Canadian dollar hedges", "canada")


def test_a_ratio_asked_as_a_share_of_its_own_denominator_is_the_ratio():
    """'the gross profit margin as a fraction of net sales' had been divided by revenue twice (2.2e-11)."""
    assert formula("Express Globex's FY2022 gross profit margin as a fraction of net sales.") == \
        "(gross profit 2022 / revenue 2022)"
    assert formula("What was Globex's FY2022 gross profit as a fraction of net sales?") == \
        "(gross profit 2022 / revenue 2022)"


@pytest.mark.parametrize("question, written, formula_shown", [
    ("Tarn: net interest income for the six months ended June 30, 2023", ("Tarn",), "net interest income 2023 (6 months)"),
    ("Tarn - net interest income in 2022", ("Tarn",), "net interest income 2022"),
    ("Tarn: what was net interest income in 2022?", ("Tarn",), "net interest income 2022"),  # a question of its own
])
def test_the_company_before_a_colon_or_a_dash_owns_the_figure_and_is_no_word_of_its_row(question, written, formula_shown):
    """'Tarn: net interest income' is Tarn's net interest income; the row is not 'tarn net interest income' (no
    filing prints it, and the number reader had then chosen another figure)."""
    from rag_assets.answer.question.owners import owned_parts
    from rag_assets.answer.question.planning import plan_question

    assert plan_question(owned_parts(question, written, LIB), "number", LIB).formula == formula_shown


@pytest.mark.parametrize("question, expected", [
    ("What share of Globex's 2022 operating profit came from Space?", "(operating income [space] 2022 / operating income 2022)"),
    ("What percentage of Globex's FY2021 total revenue came from Cloud Services?",
     "(revenue [cloud services] 2021 / revenue 2021)"),
    ("What was Cloud Services revenue as a percentage of Globex's 2022 revenue?",
     "(revenue [cloud services] 2022 / revenue 2022)"),
    ("What share of Globex's 2022 revenue came from interest income?", "(interest income 2022 / revenue 2022)"),
    ("Report Globex's 2022 sales of services as a percentage of total revenues.",
     "(sales of services 2022 / revenue 2022)"),  # a row of its own, not 'sales' (revenue over itself)
    ("What were Globex's 2022 net sales as a % of total net sales?", None),  # two names of one item: no share
    ("What share of Globex's 2022 total business segment operating profit came from Space, in percent?",
     "(operating income [space] 2022 / total business segment operating profit 2022)"),  # the parts' total row
    ("What was Globex's total segment net sales in 2022?", "total segment net sales 2022"),  # not refused
])
def test_a_share_that_came_from_a_name_is_that_parts_figure_of_the_whole(question, expected):
    """'what share of operating profit came from Space': Space's operating profit over the whole's, never a row
    'Space' (a segment table prints one per item: the first, net sales, had been read); a lower-case item
    ('interest income') stays an item."""
    assert formula(question) == expected


@pytest.mark.parametrize("question, written, own_names, expected", [
    ("Tarn Wholesale net income FY2021", ("Tarn",), ("Tarn", "Tarn Wholesale Corporation"), "net income 2021"),
    ("Tarn Chase net income in 2022", ("Tarn",), ("Tarn", "Tarn Chase & Co."), "net income 2022"),
    ("Tarn Marine Systems net sales in 2022", ("Tarn",), ("Tarn", "Tarn Wholesale Corporation"),
     "revenue [marine systems] 2022"),  # a name the company does not go by: its part
    ("Tarn total revenues net of interest expense in 2022", ("Tarn",), ("Tarn",), "revenue 2022"),  # not a part
    ("Boeing Global Services revenues 2022", ("Boeing",), ("Boeing", "The Boeing Company"),
     "revenue [global services] 2022"),
])
def test_the_companys_own_longer_name_is_never_a_part_of_it(question, written, own_names, expected):
    """'Tarn Wholesale net income': Tarn Wholesale Corporation's net income, not a part 'wholesale' (its covers
    print the longer name); the company's name before an item is its owner, not a part 'tarn'."""
    from rag_assets.answer.question.planning import company_plan

    assert company_plan(question, "number", written, LIB, own_names=own_names).formula == expected


@pytest.mark.parametrize("question, expected", [
    ("Tell me Tarn's Marine Systems revenues for 2022 in USD millions.", "revenue [marine systems] 2022"),
    ("Please give me Tarn's membership fee revenue for 2022.", "membership fee revenue 2022"),
    ("I need Tarn's Marine Systems operating profit in 2021", "operating income [marine systems] 2021"),
    ("Show me Tarn's 2022 contribution profit", "contribution profit 2022"),
])
def test_an_instruction_to_tell_or_show_is_no_word_of_the_figure(question, expected):
    """'Tell me X's Marine Systems revenues': the row had been 'tell me revenues' (N/A)."""
    assert formula(question) == expected


@pytest.mark.slow
def test_sales_outside_the_home_country_are_the_total_less_its_own_where_no_row_prints_them(tmp_path):
    """'What share of revenue came from outside the United States': a filing printing 'United States' and other
    regions but no 'International' row gives it as total revenues less the United States' (it had been N/A)."""
    figures = {"Total revenues": {2022: 6315, 2023: 6600}, "Net income": {2022: 515, 2023: 580}}
    regions = {"Net sales": {"United States": {2022: 2500, 2023: 2640}, "Europe": {2022: 2100, 2023: 2200},
                             "Asia Pacific": {2022: 1715, 2023: 1760}}}
    answerer = answerer_over_10k(tmp_path, "Quillon Devices Inc", 2023, figures, regions)
    rec = answerer.answer("What share of Quillon Devices Inc's 2023 revenues came from outside the United States? "
                          "Answer in percent.", "number")
    assert rec.value == pytest.approx(100 * (6600 - 2640) / 6600, rel=1e-3)
    assert {o["part"] for o in rec.computation["operands"]} == {"", "united states"}


@pytest.mark.parametrize("question, expected", [
    ("What was the combined operating income of Globex's Cloud and Devices segments in 2022?",
     "(operating income [cloud] 2022 + operating income [devices] 2022)"),
    ("What was the operating margin of Globex's Cloud and Devices segments in 2022?",  # the parts' sums, divided
     "((operating income [cloud] 2022 + operating income [devices] 2022) / (revenue [cloud] 2022 + revenue [devices] "
     "2022))"),
    ("What were Globex's Safety and Industrial segment net sales in 2022?", "revenue [safety and industrial] 2022"),
    ("How much did Johnson & Johnson's MedTech segment sell in Q2 2023?", "revenue [medtech] 2023 (Q2)"),
    ("What net income did Tarn's Retail & Commercial Lending segment report in the second quarter of 2023?",
     "net income [retail & commercial lending] 2023 (Q2)"),  # read as "the ... segment's net income": one part
])
def test_names_joined_by_and_before_a_plural_part_noun_are_several_parts(question, expected):
    """'the Cloud and Devices segments' are two parts, each part's figures added; 'the Safety and Industrial
    segment' is one part whose name holds 'and'; the owner's 'Johnson & Johnson's' is no part."""
    assert formula(question) == expected


@pytest.mark.parametrize("question, expected", [
    ("How many percentage points did products' share of Globex's total net sales move from 2021 to 2022?",
     "((products 2022 / revenue 2022) - (products 2021 / revenue 2021))"),  # had been left unplanned
    ("What was the share of Globex's net sales from services in 2022?", "(services 2022 / revenue 2022)"),
    ("What share of Globex's 2022 net sales came from services?", "(services 2022 / revenue 2022)"),
])
def test_a_rows_share_of_the_whole_is_that_row_over_the_whole(question, expected):
    """"products' share of total net sales", "the share of net sales from services": the row the filing prints
    under the whole ('Products', 'Services'), over the whole; before, the first was the whole itself."""
    assert formula(question) == expected


@pytest.mark.parametrize("question, formula", [
    ("In the quarter ended June 30, 2023, what was the net income of Globex's Corporate & Investment Bank?",
     "net income [corporate & investment bank] 2023 (Q2)"),  # it was the part's name read as the item
    ("What were the total assets of Globex's Consumer Banking as of June 30, 2023?",
     "total assets [consumer banking] 2023"),
    ("What was the revenue of Globex's Cloud Services for the year ended December 31, 2022?",
     "revenue [cloud services] 2022"),
])
def test_a_part_owned_after_a_preposition_is_read_before_a_period_written_as_a_date(question, formula):
    assert show(plan(question, LIB).node) == formula


@pytest.mark.parametrize("question, formula", [
    ("What was the operating margin of 4D's Imaging segment in 2022, in percent?",
     "(operating income [imaging] 2022 / revenue [imaging] 2022)"),  # an owner that opens with a figure
    ("What was the operating income for 7G's Wireless Networks segment in 2021?",
     "operating income [wireless networks] 2021"),
    ("What were the net sales of the company's Safety and Industrial segment in 2022?",
     "revenue [safety and industrial] 2022"),  # an owner written in lower case
])
def test_a_part_owned_by_a_possessive_that_is_no_capitalized_name_is_read_without_it(question, formula):
    """The possessive before a part's name is its owner whatever its spelling: it goes with the part's name, not
    into the item's words (the plan had read 'operating margin of 4D's' and found none)."""
    assert show(plan(question, LIB).node) == formula


SEGMENT_BLOCKS = ("YEAR ENDED DECEMBER 31, (Dollars in millions) 2023 2022\n\nREVENUES\n\n"
                  "| Americas | $ | 8,120 $ | 7,640 |\n|---|---|---|---|\n| Greater Asia | | 4,310 | 3,980 |\n"
                  "| TOTAL REVENUES | $ | 12,430 $ | 11,620 |\n| SEGMENT EARNINGS BEFORE INTEREST AND TAXES | | | |\n"
                  "| Americas | $ | 1,905 $ | 1,702 |\n| Greater Asia | | 1,288 | 1,090 |\n")


def test_a_row_named_as_a_part_is_shown_to_the_model_with_the_item_it_is_of():
    """In a segment table whose blocks are items ('REVENUES', then 'SEGMENT EARNINGS BEFORE INTEREST AND TAXES'),
    every row is named only as the part: the list the model chooses from shows each with its block's heading,
    or it cannot tell the part's revenue from its earnings (it had answered a margin of 100 %)."""
    from rag_assets.answer.readers.number_reader import shortlist
    from rag_assets.retrieval.query import default_lexicon

    page = SourcePage("s", 40, SEGMENT_BLOCKS, False)
    shown = [c.shown() for c in shortlist([page], "operating income greater asia", default_lexicon(), 8,
                                          part="greater asia")]
    assert any("REVENUES: Greater Asia | 2023: 4,310" in s for s in shown), shown
    assert any("SEGMENT EARNINGS BEFORE INTEREST AND TAXES: Greater Asia | 2023: 1,288" in s for s in shown), shown


def test_a_segments_operating_income_is_the_profit_measure_its_segment_note_prints():
    """A segment note reports one measure of each segment's profit; printed as 'earnings before interest and
    taxes', it is the segment's operating income (its operating margin had been refused). The whole company's
    operating income is never read from it."""
    lib = default_library()
    page = [SourcePage("s", 40, SEGMENT_BLOCKS, False)]
    spec = lib.items["operating income"]
    part = find_operand(Item("operating income", 2023, part="greater asia"), spec, page, library_names=lib.item_names)
    assert part is not None and part.value == 1288e6
    assert find_operand(Item("operating income", 2023), spec, page, library_names=lib.item_names) is None


def test_the_period_written_before_a_parts_name_stays_the_questions_period():
    assert formula("What was Globex's Q3-2024 Home Goods worldwide net sales?") == "revenue [home goods] 2024 (Q3)"


@pytest.mark.parametrize("text, part", [
    ("What was Globex's worldwide unit case volume in 2024?", ""),  # 'unit' goes on as a noun: no business unit
    ("What share of Globex's worldwide unit case volume came from Mexico in 2024?", "mexico"),
    ("What was the revenue of Globex's Cloud unit in 2024?", "cloud"),
    ("What was Globex's Cloud unit operating income in 2024?", "cloud"),  # an item's name follows the noun
    ("Did Globex's Commercial Airplanes segment post an operating loss in 2024?", "commercial airplanes"),
    # nouns that run to the last word of an item's name are the part's figure ('wireless service revenue' as a
    # segment's revenue was a longer noun: no part, and the company's total was read)
    ("What was Globex's Consumer segment wireless service revenue in 2024?", "consumer"),
    ("What were Globex's Pet segment pet food net sales in 2024?", "pet"),
    ("What was Globex's worldwide unit case volume growth in 2024?", ""),
])
def test_a_part_noun_that_two_more_nouns_continue_names_no_part(text, part):
    """A part noun two nouns continue is a word of a longer noun, unless those nouns end an item's name."""
    assert read_part(text, LIB)[0] == part


@pytest.mark.parametrize("text, part", [
    ("What was the unrecognized compensation cost of Globex's restricted share units at the end of 2024?", ""),
    ("How many restricted stock units did Globex grant in 2024?", ""),
    ("What were the Performance Share Units of Globex outstanding at the end of 2024?", ""),
    ("What was the revenue of Globex's Cloud unit in 2024?", "cloud"),  # a part noun alone is still a part's
    ("What was the operating income of Globex's Share Services unit in 2024?", "share services"),
])
def test_an_instrument_that_ends_in_a_part_noun_names_no_part(text, part):
    """'restricted share units' (the library's ``not_parts``) are an instrument, not a business unit named
    'restricted share': a question about them is the company's (it had asked every figure to name that part)."""
    assert read_part(text, LIB)[0] == part


@pytest.mark.parametrize("question, expected", [
    ("What percentage of Globex's 2023 revenues came from international streaming?",
     "(revenue [international streaming] 2023 / revenue 2023)"),  # the region's run ends the clause
    ("What share of Globex's revenue came from domestic licensing in 2023?",
     "(revenue [domestic licensing] 2023 / revenue 2023)"),
    ("What share of Globex's revenue came from international sales in 2023?",
     "(revenue [international] 2023 / revenue 2023)"),  # 'sales' is the item, no word of the part
])
def test_a_regions_words_that_end_the_share_asked_name_the_part_with_it(question, expected):
    """'came from international streaming' is the International Streaming part's revenue, not an item named
    'streaming' of the international part (the number reader had answered a 29,529 of another table: 0.25 %)."""
    assert formula(question) == expected


@pytest.mark.slow
def test_a_segment_the_filing_does_not_have_is_na_with_its_reason(tmp_path):
    """The filing names two segments (Consumer, Business) and prints a 'Wireless service revenue' row of the whole
    company: a 'Wireless segment' asked is none of its segments, so its revenue is N/A with that reason (it had been
    answered with the company's wireless service revenue, 7,435); a segment it names is read as before."""
    figures = {"Wireless service revenue": {2021: 7210, 2022: 7435}, "Total revenues": {2021: 13361, 2022: 13684},
               "Net income": {2021: 2210, 2022: 2153}}
    segments = {"Operating revenues": {"Consumer": {2021: 9530, 2022: 10351}, "Business": {2021: 3831, 2022: 3333}}}
    answerer = answerer_over_10k(tmp_path, "Kestrel Telecom Inc", 2022, figures, segments)
    rec = answerer.answer("What was Kestrel Telecom's Wireless segment revenue in 2022, in USD millions?", "number")
    assert rec.value == "N/A" and rec.references == []
    assert "no 'wireless' segment or division: its filings name Consumer" in rec.to_dict()["na_reason"]
    rec = answerer.answer("What was Kestrel Telecom's Consumer segment revenue in 2022, in USD millions?", "number")
    assert rec.value == pytest.approx(10351.0)
