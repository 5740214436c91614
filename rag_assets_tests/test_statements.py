"""Yes/no from statements: Python finds and checks the sentences that speak of the asked topic, the real
embedded model judges each one alone, and the answer does not depend on the order of the pages."""

from __future__ import annotations

from rag_assets.answer.readers.boolean_reader import cited, read_boolean
from rag_assets.answer.routing.filings import cover_year
from rag_assets.answer.evidence.statements import find_statements, page_statements
from rag_assets.retrieval.query import default_lexicon
from rag_assets.retrieval.search import RetrievedPage
from rag_assets_tests.conftest import embedded_llm, run_in_fresh_process

BUYBACK_Q = "Did Fjordlys Ferjer ASA announce a share buyback plan in the annual report? If there is no mention, return False."
BUYBACK_QUERY = "announce a share buyback plan in the annual report"
FILLER = ("Fjordlys Ferjer operates 14 ferry routes along the western coast. Passenger numbers recovered during "
          "the year as tourism returned. The fleet was renewed with two electric vessels.")


def _pages(texts: dict[int, str], sha1: str = "a" * 40) -> list[RetrievedPage]:
    """Pages as retrieval returns them, the first the best ranked."""
    return [RetrievedPage(sha1, i, 1.0 / (n + 1), text, []) for n, (i, text) in enumerate(texts.items())]


def test_a_page_is_split_into_sentences_and_table_rows():
    text = ("# Capital\nThe Board approved a buyback in March. It began in May and ended in June.\n\n"
            "| Item | 2022 |\n|---|---|\n| Shares bought back under the programme | 1,200 |\nShort.")
    assert page_statements(text) == [("The Board approved a buyback in March.", False),  # stubs are dropped
                                     ("It began in May and ended in June.", False),
                                     ("Shares bought back under the programme | 1,200", True)]
    # a blank line the PDF put inside a sentence does not cut it; one after a sentence's end does
    broken = ("The Board approved a dividend increase of 8% for the shareholders of record on\n\nthe last day of "
              "March 2024 and the\n\nquarterly payment rose accordingly.\n\nthe next paragraph opens in lower case "
              "here.")
    assert page_statements(broken) == [
        ("The Board approved a dividend increase of 8% for the shareholders of record on the last day of March 2024 "
         "and the quarterly payment rose accordingly.", False), ("the next paragraph opens in lower case here.", False)]


def test_a_possibility_a_table_row_and_an_old_event_do_not_prove_it_happened():
    pages = _pages({
        3: "We may consider a share buyback programme in the future if conditions allow.",
        7: "| Share buyback programme announced | 2022 | 2021 |\n|---|---|---|\n| Shares | 10 | 0 |",
        9: "In 2015 the Board announced a share buyback programme, completed in 2016.",
        12: FILLER,
    })
    found, refused = find_statements(pages, BUYBACK_Q, BUYBACK_QUERY, default_lexicon(), 8, year=2022)
    assert found == []
    assert set(refused) == {"it speaks of the topic as a possibility",
                            "a table row shows figures, not that something happened",
                            "it dates the event long before the report's period"}
    reading = read_boolean(None, BUYBACK_Q, BUYBACK_QUERY, pages, default_lexicon(), 8, 0.5, year=2022)
    assert reading.value is False and cited(reading) == []  # no statement passed: the model is never asked


MERGER_Q = ("Did Fjordlys Ferjer ASA mention any mergers or acquisitions in the annual report? If there is no "
            "mention, return False.")
MERGER_QUERY = "mergers or acquisitions"
NOT_EVENTS = {
    2: "Acquisitions of other ferry operators involve risks, and integrating an acquired business is uncertain.",
    4: "Our loan agreement contains covenants restricting, among other things, mergers, acquisitions and disposals.",
    6: "Under our acquisitions policy the Board approves any purchase above NOK 50m.",
    8: "From time to time we receive approaches about mergers with other operators.",
}


def test_a_risk_a_restriction_a_policy_or_a_general_practice_never_proves_it_happened():
    pages = _pages(NOT_EVENTS)
    found, refused = find_statements(pages, MERGER_Q, MERGER_QUERY, default_lexicon(), 8, year=2022)
    assert found == [] and refused == {"it states a rule, a risk or a general practice, not what happened": 4}
    reading = read_boolean(None, MERGER_Q, MERGER_QUERY, pages, default_lexicon(), 8, 0.5, year=2022)
    assert reading.value is False and cited(reading) == []  # no statement passed: the model is never asked
    # "May" the month is no hedge; an event of the period that mentions a requirement is still an event
    happened = _pages({**NOT_EVENTS, 10: "In May 2022 we completed the acquisition of Kystlinjen AS for NOK 410m.",
                       11: "The merger with Vestfjord AS, which required approval by the competition authority, "
                           "was completed in March 2022."})
    found, _ = find_statements(happened, MERGER_Q, MERGER_QUERY, default_lexicon(), 8, year=2022)
    assert sorted(s.page_index for s in found) == [10, 11]


def test_a_risk_answers_a_question_about_what_the_business_is_exposed_to():
    """The check holds for questions about what happened; what a business is exposed to is stated as a risk,
    and a word the question itself prints ("risk") is not a sign of a general statement."""
    pages = _pages(NOT_EVENTS)
    found, _ = find_statements(pages, "Is Fjordlys Ferjer's growth exposed to the risks of acquisitions?",
                               "growth exposed to the risks of acquisitions", default_lexicon(), 8, year=2022)
    assert 2 in [s.page_index for s in found]
    found, _ = find_statements(pages, "Did Fjordlys Ferjer report any risks from acquisitions in 2022?",
                               "risks from acquisitions", default_lexicon(), 8, year=2022)
    assert 2 in [s.page_index for s in found] and 4 not in [s.page_index for s in found]


def test_a_reported_result_does_not_answer_what_is_expected():
    q = "Is growth in Fjordlys Ferjer's passenger revenue expected to accelerate in FY2023?"
    query = "growth passenger revenue expected to accelerate"
    pages = _pages({
        2: "Passenger revenue grew 12% in 2022, accelerating from 4% in 2021.",
        5: "For 2023 we expect passenger revenue growth of 6 to 8%, as the fleet renewal is completed.",
    })
    found, refused = find_statements(pages, q, query, default_lexicon(), 8, year=2022)
    assert [s.page_index for s in found] == [5]  # the outlook, not the result already reported
    assert refused == {"it reports a result, not an expectation": 1}
    found, refused = find_statements(pages, "Did Fjordlys Ferjer's passenger revenue growth accelerate in 2022?",
                                     "passenger revenue growth accelerate", default_lexicon(), 8, year=2022)
    assert {s.page_index for s in found} == {2, 5} and not refused  # a question about results reads both


def test_the_cover_year_is_the_year_printed_most_often():
    assert cover_year(["Annual Report 2022", "Letter to shareholders 2022, looking at 2023", "1,995 staff"]) == 2022
    assert cover_year(["no year here"]) is None


def _late_sentence_and_reordering() -> None:
    llm = embedded_llm("qwen2.5-coder-1.5b")
    texts = {i: FILLER for i in range(1, 8)}
    texts[41] = (FILLER + " On 3 March 2022 the Board announced a share buyback programme of up to 10 million "
                 "shares, to be completed by the end of 2022.")
    pages = _pages(texts)
    reading = read_boolean(llm, BUYBACK_Q, BUYBACK_QUERY, pages, default_lexicon(), 8, 0.5, year=2022)
    assert reading.value is True, reading.notes
    assert cited(reading) == [{"pdf_sha1": "a" * 40, "page_index": 41}]
    again = read_boolean(llm, BUYBACK_Q, BUYBACK_QUERY, list(reversed(pages)), default_lexicon(), 8, 0.5, year=2022)
    assert again.value is True and cited(again) == cited(reading)  # the pages' order changes nothing but
    assert [(s.page_index, s.text) for s in again.statements] == [(s.page_index, s.text) for s in reading.statements]
    for s1, s2 in zip(again.statements, reading.statements):  # the KV cache's reuse: a different batch split
        assert abs(s1.p_yes - s2.p_yes) < 0.01
    generic = {1: FILLER + " Our capital allocation framework covers dividends and investment in the fleet."}
    assert read_boolean(llm, BUYBACK_Q, BUYBACK_QUERY, _pages(generic), default_lexicon(), 8, 0.5).value is False
    _the_record_keeps_the_decisive_statement(reading, pages, read_boolean(
        llm, BUYBACK_Q, BUYBACK_QUERY, pages, default_lexicon(), 8, 0.999, year=2022))


def _the_record_keeps_the_decisive_statement(true_reading, pages, strict_reading) -> None:
    """The record, `ask` and the viewer show the statement that decided with its strength, or the strongest
    when none reached the threshold."""
    from rag_assets.answer.readers.readings import take_boolean
    from rag_assets.answer.readers.record import AnswerRecord, judgement_lines

    names = {"a" * 40: "Fjordlys Ferjer ASA"}
    rec = AnswerRecord(question_text=BUYBACK_Q, kind="boolean")
    take_boolean(rec, true_reading, pages)
    strength = true_reading.proof[0].p_yes
    assert judgement_lines(rec.to_dict(), names) == [
        f"decided by the statement on page 41 of Fjordlys Ferjer ASA, strength p(yes) {strength:.2f}: "
        f"\"{true_reading.proof[0].text}\""]
    rec = AnswerRecord(question_text=BUYBACK_Q, kind="boolean")
    take_boolean(rec, strict_reading, pages)
    assert rec.value is False and rec.references == []
    strongest = max(strict_reading.statements, key=lambda st: st.p_yes)
    assert strongest.page_index == 41 and judgement_lines(rec.to_dict(), names)[0].startswith(
        f"no statement reached the threshold; the strongest, p(yes) {strongest.p_yes:.2f} on page 41 of Fjordlys "
        "Ferjer ASA")


def test_one_sentence_on_a_late_page_gives_true_with_the_real_model_in_any_page_order():
    run_in_fresh_process(_late_sentence_and_reordering)


def test_the_topic_is_what_is_asked_not_its_period_direction_or_basis():
    """Issue 38: a yes/no worded with its period, direction and basis ("based on ..., was X in 2Q23 lower than
    in 2Q22") found no statement: those words, half of the question, were counted as topic words that the
    decisive sentence ("X decreased ... compared with the same period") does not print. Each wording finds it."""
    pages = _pages({40: "Fjordlys Ferjer ASA\nAverage fuel hedge exposure decreased by NOK 7 million for the three "
                        "months ended June 30, 2023, compared with the same period in the prior year.",
                    41: FILLER})
    for question in ("Looking at its fuel hedge exposure, did Fjordlys face less in the second fiscal quarter of "
                     "2023 compared to the same period in the prior year?",
                     "Based on average fuel hedge exposure, was it in the second quarter of 2023 lower than in the "
                     "second quarter of 2022?",
                     "Measured by fuel hedge exposure, did the average decline in 2Q23 versus 2Q22?"):
        found, _ = find_statements(pages, question, question, default_lexicon(), 8, year=2023)
        assert [s.page_index for s in found] == [40], question
    # the filler shares only frame words with the question: it never names the topic
    found, _ = find_statements(_pages({41: FILLER + " Passenger numbers fell in the second quarter."}),
                               "Was fuel hedge exposure lower in the second quarter?",
                               "Was fuel hedge exposure lower in the second quarter?", default_lexicon(), 8)
    assert found == []


def test_a_statement_names_the_topic_in_the_words_of_the_question_or_of_its_restatement():
    """"Is X exposed to cyclicality, i.e. do its results move with economic and industry cycles?" found no
    statement: each sentence printed one wording, under half of both together. Either wording now names it."""
    question = ("Is Fjordlys Ferjer's business exposed to seasonality, i.e. do its earnings move with the tourist "
                "seasons?")
    main = {5: "Our business is exposed to strong seasonality in passenger traffic."}
    again = {6: "Earnings move with the tourist seasons, peaking in July."}
    for texts in (main, again):
        found, _ = find_statements(_pages({**texts, 12: FILLER}), question, question, default_lexicon(), 8)
        assert [s.page_index for s in found] == list(texts), texts
    found, _ = find_statements(_pages({5: "Our business is exposed to seasonality, and so are our earnings."}),
                               "Is the fleet (i.e. its vessels) exposed to ice damage?",
                               "Is the fleet (i.e. its vessels) exposed to ice damage?", default_lexicon(), 8)
    assert found == []  # 'exposed' alone is under half of 'fleet exposed ice damage'
