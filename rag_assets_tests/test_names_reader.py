"""Names of a change: Python finds the statements that report it and the names beside their event word (a roster
is not a change), the real embedded model judges each statement, and the answer does not depend on page order."""

from __future__ import annotations

from rag_assets.answer.question_text import retrieval_query
from rag_assets.answer.name_spans import asked, event_names
from rag_assets.answer.names_reader import cited, read_names
from rag_assets.answer.numbers import NA
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
    launched = "During the year we launched AeroShield 500, PrimeWeave and Flexo Pro."
    assert event_names(launched, "products", lex) == ["AeroShield 500", "PrimeWeave", "Flexo Pro"]
    assert event_names("Ola Hansen – Chief Executive Officer", "titles", lex) == []  # no event, no change


def test_a_roster_without_a_change_and_a_generic_mention_give_na_without_asking_the_model():
    query = retrieval_query(POSITIONS_Q, COMPANY)
    generic = FILLER + " Our leadership team is described on page 40; the CEO leads the company's strategy."
    for texts in ({2: ROSTER, 5: FILLER}, {2: generic}):
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
