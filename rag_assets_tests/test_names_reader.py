"""Names of a change: Python finds the statements that report it and the names beside their event word (a roster
is not a change), the real embedded model judges each statement, and the answer does not depend on page order."""

from __future__ import annotations

from rag_assets.answer.routing.question_text import retrieval_query
from rag_assets.answer.evidence.name_spans import asked, change_events, event_names
from rag_assets.answer.readers.names_reader import cited, read_names
from rag_assets.answer.evidence.numbers import NA
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.search import RetrievedPage
from rag_assets_tests.conftest import embedded_llm, run_in_fresh_process

COMPANY = "Fjordlys Ferjer ASA"
POSITIONS_Q = (f"Which leadership positions changed at {COMPANY} in the reporting period? If data is not available, "
               "return 'N/A'. Give me the title of the position.")
PEOPLE_Q = f"What are the names of all new executives that took on new leadership positions in {COMPANY}?"
FILLER = ("Fjordlys Ferjer operates 14 ferry routes along the western coast. Passenger numbers recovered during "
          "the year as tourism returned. The fleet was renewed with two electric vessels.")
ROSTER = ("# Board and management\nKari Nordmann – Chair of the Board, Independent Director\n"
          "Ola Hansen – Chief Executive Officer\nLiv Berg – Chief Financial Officer\n"
          "Per Dahl – Chief Operating Officer\nAnne Lie – Company Secretary\n\n" + FILLER)
APPOINTMENT = FILLER + " On 1 September 2022, Liv Berg was appointed Chief Financial Officer, succeeding Tor Moe."


def _pages(texts: dict[int, str]) -> list[RetrievedPage]:
    return [RetrievedPage("a" * 40, i, 1.0 / (n + 1), text, []) for n, (i, text) in enumerate(texts.items())]


def test_the_question_says_whether_titles_people_or_products_are_asked():
    lex = default_lexicon()
    assert asked(POSITIONS_Q, lex) == "titles"
    assert asked(PEOPLE_Q, lex) == "people"  # 'executives' before 'positions'
    assert asked(f"What are the names of new products launched by {COMPANY}?", lex) == "products"


def test_a_roster_line_gives_the_title_beside_its_event_word_only():
    lex = default_lexicon()
    roster = ("Directors Brett Kelly – Chairman, Executive Director Stephen Rouvray – Deputy Chairman, Non-Executive "
              "Independent Director Lawrence Cunningham – Non-Executive Independent Director (Appointed on 1 July "
              "2022) Paul Kuchta – Executive Director")
    assert event_names(roster, "titles", lex) == ["Non-Executive Independent Director"]
    assert event_names(roster, "people", lex) == ["Lawrence Cunningham"]
    two = "Mr. Peter Long stepped down as Chief Executive Officer in June and Dr Anna Berg was appointed CEO."
    assert event_names(two, "titles", lex) == ["Chief Executive Officer", "CEO"]
    assert event_names(two, "people", lex) == ["Peter Long", "Anna Berg"]  # honorifics dropped
    arrivals = change_events(PEOPLE_Q, "people", lex)  # new executives: who arrived, not who left
    assert event_names(two, "people", lex, arrivals) == ["Anna Berg"]
    assert event_names("On 1 May 2022 Ola Lie joined the Board, succeeding Per Dahl on his retirement.",
                       "people", lex, arrivals) == ["Ola Lie"]
    launched = "During the year we launched AeroShield 500, PrimeWeave and Flexo Pro."
    assert event_names(launched, "products", lex) == ["AeroShield 500", "PrimeWeave", "Flexo Pro"]
    assert event_names("Ola Hansen – Chief Executive Officer", "titles", lex) == []  # no event, no change
    honorifics = ("Mr Ian Berg Chairman Mr Per Dahl Managing Director and CEO (appointed 17 January 2022) "
                  "Mr Ola Lie Executive Director Mr Kari Moe Executive Director (appointed 1 November 2021)")
    assert event_names(honorifics, "titles", lex) == ["CEO", "Executive Director"]  # no person in a title
    initials = "P S Dahl Independent Non-executive Director (retired 30 September 2022) K Moe Chairman"
    assert event_names(initials, "titles", lex) == ["Independent Non-executive Director"]
    assert event_names("The company's pay for the Chief Executive Officer was approved in 2022.", "titles",
                       lex) == []  # approving pay changes nobody
    assert event_names("Contributions to the Supplemental Executive Retirement Plan of the Chief Executive "
                       "Officer rose in 2022.", "titles", lex) == []  # a plan's name is not a retirement


def test_owners_codes_and_generic_words_are_no_product_names():
    lex = default_lexicon()
    assert event_names("In 2022, Fjordlys's new ferry booking offerings were launched.", "products", lex) == []
    assert event_names("In 2022 we launched the GPS feature and the Tidewater Planner in Q1 2023.", "products",
                       lex) == ["Tidewater Planner"]
    assert event_names("This innovation has resulted in new MC products across our lines.", "products", lex) == []


def test_a_roster_a_generic_mention_an_approval_and_an_undated_career_give_na_without_asking_the_model():
    query = retrieval_query(POSITIONS_Q, COMPANY)
    generic = FILLER + " Our leadership team is described on page 40; the CEO leads the company's strategy."
    approval = "The Remuneration Committee reviewed and approved the pay of the Chief Executive Officer in 2022."
    career = "Since retiring as Chief Financial Officer of Nordbank, Kari continues to advise two of its funds."
    old = "Ola Hansen was appointed Chief Executive Officer in 2009 and has led the company since."
    for texts in ({2: ROSTER, 5: FILLER}, {2: generic}, {3: approval}, {4: career}, {5: old}):
        reading = read_names(None, POSITIONS_Q, query, _pages(texts), default_lexicon(), 8, 0.5, year=2022)
        assert reading.value == NA and cited(reading) == [] and reading.judged == []


def _appointment_among_a_roster() -> None:
    llm = embedded_llm("qwen2.5-coder-1.5b")
    lex = default_lexicon()
    pages = _pages({2: ROSTER, 5: FILLER, 30: APPOINTMENT})
    for question, expected in ((POSITIONS_Q, ["Chief Financial Officer"]), (PEOPLE_Q, ["Liv Berg"])):
        query = retrieval_query(question, COMPANY)
        reading = read_names(llm, question, query, pages, lex, 8, 0.5, year=2022)
        assert reading.value == expected, reading.notes
        assert cited(reading) == [{"pdf_sha1": "a" * 40, "page_index": 30}]
        again = read_names(llm, question, query, list(reversed(pages)), lex, 8, 0.5, year=2022)
        assert again.value == reading.value and cited(again) == cited(reading)


def test_a_roster_page_and_a_one_line_appointment_give_the_appointment_with_the_real_model():
    run_in_fresh_process(_appointment_among_a_roster)
