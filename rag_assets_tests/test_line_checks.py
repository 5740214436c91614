"""Python's checks on the figure the number reader's model picked (``readers.line_checks``): a figure of another
kind, period or measure than the one asked is refused with its reason, whatever the model said; a line that
states the metric in other words is kept, with no second look by the model."""

from __future__ import annotations

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.readers.line_checks import Asked, figure_problem, states_metric
from rag_assets.answer.readers.metric_words import metric_query
from rag_assets.answer.readers.number_reader import read_number
from rag_assets.answer.routing.question_text import retrieval_query
from rag_assets.retrieval.query import default_lexicon
from rag_assets_tests.llm_fakes import ScriptedLLM
from rag_assets_tests.test_number_reader import Page, _Judge, _pick


def _metric(question: str):
    return metric_query(retrieval_query(question, "Globex"), default_lexicon())


def _problem(sentence: str, written: str, question: str, asked: Asked) -> str | None:
    cand = next(c for c in page_candidates(sentence, "s", 1) if any(f.written == written for f in c.figures))
    fig = next(f for f in cand.figures if f.written == written)
    return figure_problem(cand, fig, _metric(question), asked)


def test_an_amount_of_money_is_no_count():
    line = "Commercial Airplanes revenues were $25,867 million in 2022, on 480 airplane deliveries."
    q = "How many commercial airplanes did Globex deliver in 2022?"
    assert "amount of money" in _problem(line, "$25,867 million", q, Asked(2022, "commercial airplanes"))
    assert _problem(line, "480", q, Asked(2022, "commercial airplanes")) is None


def test_a_change_is_no_level_unless_a_change_is_asked():
    line = "Average daily users increased by 12 million, or 9%, in 2023 compared with 2022."
    level = "What were Globex's average daily users in 2023, in millions?"
    assert "change" in _problem(line, "12 million", level, Asked(2023))
    growth = "By how much did Globex's average daily users increase in 2023, in millions?"
    assert _problem(line, "12 million", growth, Asked(2023, change=True)) is None
    # the percentage after the amount of a change ('decreased $1.4 million, or 21.5%') is the change's too
    loans = "Impaired loans decreased $1.4 million, or 21.5%, to $5.1 million at December 31, 2023."
    ratio = "What was Globex's impaired loans ratio at the end of 2023?"
    assert "change" in _problem(loans, "21.5%", ratio, Asked(2023))


def test_a_row_per_share_is_no_total_unless_an_amount_per_share_is_asked():
    """'Basic net income (loss) per share (0.65)' had answered a quarter's net income 'in USD millions' (as
    -6.5e-07): it states the words 'net income', but per share."""
    row = "| (In millions) | 2023 |\n|---|---|\n| Basic net income (loss) per share | (0.65) |\n"
    asked = Asked(2023)
    assert "per share" in _problem(row, "(0.65)", "What was Globex's net income in 2023, in USD millions?", asked)
    assert _problem(row, "(0.65)", "What was Globex's basic net income per share in 2023?", asked) is None
    assert _problem(row, "(0.65)", "What was Globex's basic EPS in 2023?", asked) is None


def test_a_sentence_about_other_years_is_not_the_year_asked():
    line = "In the fourth quarter of 2021, we contributed $2 billion of common stock to our pension plans."
    q = "How much did Globex contribute to its pension plans in 2023, in USD millions?"
    assert "about 2021, not 2023" in _problem(line, "$2 billion", q, Asked(2023))
    assert _problem(line, "$2 billion", q, Asked(2021)) is None
    after_year_end = "At January 31, 2024, there were 61,900 shareholders of record."  # printed in the FY2023 10-K
    assert _problem(after_year_end, "61,900", "How many shareholders of record did Globex have at the end of "
                    "2023?", Asked(2023, "shareholders of record")) is None


def test_a_line_states_the_metric_in_most_of_its_words_or_by_one_of_its_names():
    employees = "We had approximately 41,000 employees worldwide, including retail and part-time employees."
    assert states_metric(_metric("How many full-time employees did Globex have?"), employees)
    issued = "During 2023 we issued 1.8 million shares of common stock from treasury stock."
    repurchased = "During 2023 we repurchased 1.8 million shares of our common stock."
    buyback = _metric("How many shares of common stock did Globex repurchase in 2023?")
    assert not states_metric(buyback, issued) and states_metric(buyback, repurchased)
    clinics = _metric("What was the number of managed clinics of Globex at year-end?")
    assert not states_metric(clinics, "Managed Medicare 17 16 15")
    cash = _metric("What was Globex's cash flow from operations in 2023?")
    assert states_metric(cash, "In 2023, operating activities provided Globex with $20.0 million in net cash.")
    eps = _metric("What was Globex's full-year adjusted EPS in 2023?")
    assert not states_metric(eps, "Basic net earnings per share 6.83 7.93")  # the adjusted figure is another one
    assert states_metric(eps, "Adjusted earnings per share 10.15 10.32")


def test_the_reader_keeps_a_line_python_finds_stated_and_asks_the_model_only_of_a_thin_one():
    text = ("Shareholder returns. During 2023 we repurchased 1.8 million shares of common stock under the "
            "program.")
    q = "How many shares of common stock did Globex repurchase in 2023?"
    pick = {"step_by_step_analysis": "[1]", "candidate": 1, "value_as_written": "1.8 million"}
    kept = read_number(_Judge([pick], 0.1), q, retrieval_query(q, "Globex"), [Page("s", 3, text)], default_lexicon(),
                       year=2023, verify_min=0.6)  # stated in its words: the model's doubt is not asked
    assert kept.value == 1.8e6 and kept.p_yes is None and "no model check" in kept.notes[-1]
    issued = [Page("s", 3, text.replace("repurchased", "issued").replace("under the program", "from treasury"))]
    doubt = read_number(_Judge([pick], 0.4), q, retrieval_query(q, "Globex"), issued, default_lexicon(), year=2023,
                        verify_min=0.6)
    assert doubt.value == "N/A" and doubt.p_yes == 0.4
    wrong_year = [Page("s", 3, text.replace("During 2023", "During 2021"))]
    vetoed = read_number(_Judge([pick], 0.9), q, retrieval_query(q, "Globex"), wrong_year, default_lexicon(),
                         year=2023, verify_min=0.6)  # Python's veto, whatever the model's yes
    assert vetoed.value == "N/A" and "about 2021, not 2023" in vetoed.notes[0] and vetoed.result is None


def test_the_model_chooses_only_among_figures_the_checks_pass():
    """Python's checks run before the model chooses: a count is asked of a page printing the part's revenue in
    dollars and a sentence about another year, and only the row counting units is in the list the model sees."""
    page = ("## Tarn Aerostructures segment results\n\n| | 2023 | 2022 |\n|---|---|---|\n"
            "| Regional jets revenue | $4,310,000 | $3,980,000 |\n| Jets delivered to customers | 61 | 54 |\n\n"
            "In 2021, regional jet deliveries were 38 units, held back by the supply of engines.")
    q = "How many regional jets did Tarn deliver in 2023?"
    llm = ScriptedLLM([_pick(1, "61")])
    got = read_number(llm, q, retrieval_query(q, "Tarn"), [Page("t", 8, page)], default_lexicon(), year=2023,
                      counted="regional jets", qualifiers=("deliver",))
    shown = llm.requests[0]["messages"][-1]["content"]
    assert got.value == 61 and "$4,310" not in shown and "In 2021" not in shown
    assert "amount of money" in got.notes[0] and "about 2021, not 2023" in got.notes[0]


def test_of_a_sentences_figures_the_one_whose_clause_names_the_metric_is_read():
    """The model copied the first percentage of 'Approximately 71% of our employees work in manufacturing and an
    estimated 58% are represented by a union or works council'; the union's share is the second, whose own clause
    names the metric. A figure whose clause names no more than the copied one's stays the model's choice."""
    text = ("Our people\n\nApproximately 71% of our employees work in manufacturing and an estimated 58% are "
            "represented by a union or works council.\n")
    q = "What percentage of Tarn's employees were represented by a union or works council in 2024?"
    got = read_number(ScriptedLLM([_pick(1, "71%")]), q, retrieval_query(q, "Tarn"), [Page("t", 8, text)],
                      default_lexicon(), year=2024, percent=True)
    assert got.value == 58 and "'58%' is the figure whose clause names the metric" in got.notes[0]
    q = "What percentage of Tarn's employees work in manufacturing?"
    kept = read_number(ScriptedLLM([_pick(1, "71%")]), q, retrieval_query(q, "Tarn"), [Page("t", 8, text)],
                       default_lexicon(), percent=True)
    assert kept.value == 71
    # a figure whose own clause names a word of the metric but not half of them does not replace the copied one
    staff = ("Our people\n\nOur people, nearly 29,400 colleagues and 4,500 physicians on our medical staff, served "
             "our communities with high-quality healthcare.\n")
    q = "How many healthcare professionals did Tarn have on staff at the end of 2024?"
    colleagues = read_number(ScriptedLLM([_pick(1, "29,400")]), q, retrieval_query(q, "Tarn"), [Page("t", 2, staff)],
                             default_lexicon())
    assert colleagues.value == 29_400, colleagues.notes


def test_of_percentages_listed_in_parallel_the_one_whose_words_after_it_name_the_asked_qualifier_is_read():
    """'Our retention rate was 93% in the home market and 90% worldwide': the worldwide rate is the second figure;
    the model copied the first. Asked without the qualifier, the model's choice stays."""
    text = ("Members\n\nOur subscriber retention rate was 93% in the home market and 90% worldwide at the end of "
            "2024.\n")
    q = "What was Tarn's worldwide subscriber retention rate at the end of 2024?"
    got = read_number(ScriptedLLM([_pick(1, "93%")]), q, retrieval_query(q, "Tarn"), [Page("t", 4, text)],
                      default_lexicon(), year=2024, percent=True)
    assert got.value == 90, got.notes
    q = "What was Tarn's subscriber retention rate in its home market at the end of 2024?"
    kept = read_number(ScriptedLLM([_pick(1, "93%")]), q, retrieval_query(q, "Tarn"), [Page("t", 4, text)],
                       default_lexicon(), year=2024, percent=True)
    assert kept.value == 93, kept.notes


def test_a_copy_with_a_decimal_zero_is_the_figure_printed_without_it():
    """The model wrote '69.0' for the printed '69 percent': the same figure, not a copy printed nowhere."""
    text = "Volume\n\nSparkling soft drinks represented 69 percent of our worldwide unit case volume in 2024.\n"
    q = "What percentage of Tarn's worldwide unit case volume did sparkling soft drinks represent in 2024?"
    got = read_number(ScriptedLLM([_pick(1, "69.0")]), q, retrieval_query(q, "Tarn"), [Page("t", 6, text)],
                      default_lexicon(), year=2024, percent=True)
    assert got.value == 69, got.notes


def test_a_figure_no_column_dates_is_no_figure_of_a_year_its_page_never_names():
    """Read beyond the best-ranked pages (``wide``), a row of a table without year columns ('Shares contributed
    to the savings plan') on a page naming 2023 and 2024 is no answer for 2026; the same row on a page naming 2026
    still is, and so is the first row on any page read as ranked. Python refuses it before the model chooses."""
    table = ("Changes in shareholders' equity\n\n| (Shares in millions) | Common | Treasury | Total |\n"
             "| --- | --- | --- | --- |\n| Shares contributed to the savings plan | 1,210 | 870 | 2,080 |\n")
    q = "How many shares did Tarn contribute to its savings plan in 2026, in millions?"
    def read(page: str, wide: bool):
        return read_number(ScriptedLLM([_pick(1, "2,080")]), q, retrieval_query(q, "Tarn"), [Page("t", 5, page)],
                           default_lexicon(), year=2026, wide=wide)
    older = read("Balances at December 31, 2023 and 2024\n\n" + table, True)
    assert older.value == "N/A" and older.candidates == []
    assert "prints no year, on a page naming no 2026" in older.notes[0]
    assert read("Balances at December 31, 2026\n\n" + table, True).value == 2080e6
    assert read("Balances at December 31, 2023 and 2024\n\n" + table, False).value == 2080e6


def test_read_beyond_the_best_ranked_pages_a_line_must_print_the_metrics_words_not_a_synonym():
    """'Total income tax expense' holds 'total income', a synonym of revenue, and 'employees let go' is a
    synonym of 'severance' in a sentence about legal risks: on the best-ranked pages the model may be shown such
    lines; on every other page of the filings only lines printing three of four words of the metric are."""
    q = "What was Tarn's total revenue in 2024, in USD?"
    page = Page("t", 40, "Income taxes\n\nTotal income tax expense was $18.0 million for the year ended December "
                         "31, 2024, compared to $24.2 million for 2023.\n")
    def read(wide: bool):
        return read_number(ScriptedLLM([_pick(1, "$18.0 million")]), q, retrieval_query(q, "Tarn"), [page],
                           default_lexicon(), year=2024, wide=wide)
    assert read(False).candidates  # the synonym names it where pages were ranked for the question
    beyond = read(True)
    assert beyond.value == "N/A" and beyond.candidates == []


def test_the_words_after_an_and_lead_to_the_next_figure_never_the_one_before():
    """'EPS of $1.40 decreasing 20.5% and adjusted EPS of $2.50 increasing by 11.2%': the adjusted EPS growth is
    11.2 %, the figure 'adjusted EPS' leads to; the clause of 20.5 % ends before that 'and' (it had been read as the
    figure whose clause names 'adjusted EPS', the reported EPS's fall); a list joined by 'and' keeps its words
    ('91% in the U.S. and Canada and 89% worldwide')."""
    from rag_assets.answer.evidence.clauses import clause_of, distinct_names
    from rag_assets.answer.readers.line_checks import exacter_clause

    sentence = "Fourth-quarter earnings per share (EPS) of $1.40 decreasing 20.5% and adjusted EPS of $2.50 increasing by 11.2%"
    [cand] = [c for c in page_candidates(sentence + ".\n", "s", 0) if c.source == "text"]
    metric = metric_query("adjusted EPS growth", default_lexicon())
    copied = next(f for f in cand.figures if f.written == "11.2%")
    assert exacter_clause(cand, copied, metric) is None
    assert clause_of(sentence, "20.5%")[1] == "20.5% "
    listed = "Satisfaction was 91% in the U.S. and Canada and 89% worldwide"
    assert clause_of(listed, "91%")[1] == "91% in the U.S. and Canada "
    assert distinct_names(listed, ["91%", "89%"], {"worldwide"}) == [0, 1]
