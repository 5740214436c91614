"""A figure printed in another filing of the period (issue 45: N/A only when none of the company's filings prints
it): a year's figure only the fourth-quarter earnings release prints is read there when the annual report does
not print it; a year's question reads the release's full-year columns, never the quarter's beside them; the
quarters a change names are read each in its own column. In wordings and filings of our own."""

from __future__ import annotations


import pytest

from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.evidence.rows import label_match
from rag_assets.answer.question.formulas import show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.period import asked_period
from rag_assets.answer.question.plan import plan
from rag_assets.answer.readers.metric_words import without_full_year
from rag_assets.answer.readers.number_reader import shortlist
from rag_assets.answer.routing.filings import Filing, also_printing, select
from rag_assets.answer.service.run import NoLLM, build_answerer
from rag_assets.config import get_config
from rag_assets.orchestration.resources import ReportStore
from rag_assets.retrieval.query import default_lexicon
from rag_assets_tests.filing_factory import ingest_inbox, write_10k, write_release
from rag_assets_tests.pages import Page

COMPANY = "Harrow Quill"
LIB = default_library()


def test_the_other_filings_that_print_the_period_asked():
    annual = Filing("a", COMPANY, "annual", 2024)
    release = Filing("r", COMPANY, "earnings", 2024, 4)
    next_q2 = Filing("n", COMPANY, "quarterly", 2025, 2)
    older = Filing("o", COMPANY, "annual", 2023)
    filings = [annual, release, next_q2, older]
    # a year: its fourth-quarter release prints the full year; the next year's 10-Q prints no full year
    assert also_printing(filings, {"a"}, asked_period("revenue in fiscal 2024")) == [release]
    # a quarter: that year's annual report (its quarterly data), the next year's filing of that quarter
    assert also_printing(filings, {"r"}, asked_period("revenue in the second quarter of 2024")) == [annual, next_q2]
    # the full year asked of the release itself: no other filing is that document
    assert also_printing(filings, {"r"}, asked_period(
        "full-year 2024 revenue according to the Q4 2024 earnings release")) == []
    assert also_printing(filings, {"a"}, asked_period("revenue")) == []  # no period asked


def test_a_date_on_an_annual_reports_cover_is_read_in_that_report():
    """'Shares outstanding as of January 31, 2025' is printed on the cover of the FY2024 10-K, filed weeks after
    the year's end: that report is read, not N/A for want of a 2025 filing; a date later in the year is not."""
    annual = Filing("a", COMPANY, "annual", 2024)
    filings = [annual, Filing("o", COMPANY, "annual", 2023)]
    chosen, why = select(filings, asked_period("shares outstanding as of January 31, 2025"))
    assert chosen == [annual] and "cover" in why
    assert select(filings, asked_period("total debt as of June 30, 2025"))[0] == []  # no filing covers it
    # a report of the year the date is in comes first (a fiscal year that ends on March 31)
    later = Filing("l", COMPANY, "annual", 2025)
    assert select(filings + [later], asked_period("total assets as of March 31, 2025"))[0] == [later]
    # the year's end of a 52/53-week year is its own year's: read as FY2024, as before
    assert select(filings, asked_period("total assets as of January 2, 2025"))[0] == [annual]


RELEASE_PAGE = ("Harrow Quill reports results\n\nSales grew in every region.\n\nFourth Quarter Full Year\n\n"
                "| (in millions, except per share) | 2024 | 2023 | % Change | 2024 | 2023 | % Change |\n"
                "|---|---|---|---|---|---|---|\n"
                "| Adjusted net earnings | 610 | 550 | 10.9% | 2,480 | 2,300 | 7.8% |\n"
                "| Adjusted EPS (diluted) | $1.10 | $1.00 | 10.0% | $4.40 | $4.00 | 10.0% |\n")


def test_a_years_question_keeps_the_full_year_columns_of_a_release_never_the_quarters():
    lex = default_lexicon()
    [row] = shortlist([Page("r", 1, RELEASE_PAGE)], "adjusted EPS diluted 2024", lex, 8)
    assert [f.written for f in row.figures] == ["$4.40", "$4.00"]  # the full year's (it held $1.10 first)
    [row] = shortlist([Page("r", 1, RELEASE_PAGE)], "adjusted EPS diluted Q4 2024", lex, 8, months=3)
    assert [f.written for f in row.figures] == ["$1.10", "$1.00"]


def test_the_words_of_a_full_year_are_no_words_of_the_metric():
    own = MetricQuery.of(without_full_year("full-year 2024 adjusted net earnings"), default_lexicon()).own
    assert "full" not in own and {"adjust", "net", "earn"} <= set(own)


@pytest.mark.parametrize("question, formula", [
    ("What was the change in Harrow Quill's net income from 1Q24 to 2Q24, in USD millions?",
     "(net income 2024 (Q2) - net income 2024 (Q1))"),
    ("By how much did Harrow Quill's net income change from the fourth quarter of 2023 to the second quarter "
     "of 2024, in USD millions?", "(net income 2024 (Q2) - net income 2023 (Q4))"),
    ("What was Harrow Quill's net income growth from Q2 2023 to Q2 2024, in percent?",  # as before: a year apart
     "((net income 2024 (Q2) - net income 2023 (Q2)) / net income 2023 (Q2))"),
])
def test_each_quarter_a_change_names_is_read_in_its_own_column(question, formula):
    assert show(plan(question, LIB).node) == formula
    assert asked_period(question).quarter == 2  # routed by the latest quarter named


def test_a_rows_aside_that_prints_per_share_figures_is_not_its_name():
    """'Dividends (per share - $1.48 ...)' prints the dividends paid, in millions: not dividends per share."""
    labels = tuple(LIB.items["dividends per share"].labels)
    aside = "Dividends (per share — $1.52, $1.44 and $1.36 in 2024, 2023 and 2022, respectively)"
    assert label_match(aside, labels) == 0
    assert label_match("Cash dividends declared per share", labels) == 3


@pytest.fixture(scope="module")
def annual_and_release(tmp_path_factory):
    """A 10-K for FY2024 that prints no research and development expense, and the fourth-quarter 2024 earnings
    release that does (quarter and full-year columns), ingested by the real pipeline."""
    root = tmp_path_factory.mktemp("other_filings")
    inbox = root / "pdfs"
    inbox.mkdir()
    write_10k(inbox / "hq_2024.pdf", COMPANY, 2024, {"Net sales": {2024: 9000, 2023: 8000, 2022: 7000},
                                                     "Net earnings": {2024: 2000, 2023: 1900, 2022: 1700}})
    write_release(inbox / "hq_2024q4.pdf", COMPANY, 2024, {"Net sales": (2400, 2100, 9000, 8000),
                                                           "Research and development expense": (610, 550, 2480, 2300)})
    store = ReportStore(data_root=str(root))
    found = store.scan_inbox()
    rows = ["sha1,company_name,doc_name,doc_type,doc_period"]
    for r in found:
        release = "q4" in r.path
        rows.append(f"{r.sha1},{COMPANY},{'HQ_2024Q4_EARNINGS' if release else 'HQ_2024_10K'},"
                    f"{'Earnings' if release else '10k'},2024")
    (inbox / "subset.csv").write_text("\n".join(rows) + "\n")
    found = ingest_inbox(store)
    reports = store.indexed_reports()
    answerer = build_answerer(get_config("local"), root, reports, llm=NoLLM(), filings=store.filings(reports))
    return answerer, {("release" if "q4" in r.path else "annual"): r.sha1 for r in found}


def test_a_years_figure_the_annual_report_does_not_print_is_read_in_the_years_release(annual_and_release):
    answerer, sha1 = annual_and_release
    rec = answerer.answer(f"What was {COMPANY}'s 2024 research and development expense, in USD millions?", "number")
    assert rec.error is None and rec.value == 2480.0  # the full year's column, not the quarter's 610
    assert rec.references == [{"pdf_sha1": sha1["release"], "page_index": 0}]
    assert any("not found in the filings chosen; read in" in n for n in rec.notes)
    # what the annual report prints is still read there
    rec = answerer.answer(f"What were {COMPANY}'s 2024 net sales, in USD millions?", "number")
    assert rec.value == 9000.0 and [r["pdf_sha1"] for r in rec.references] == [sha1["annual"]]


def test_a_figure_no_filing_of_the_period_prints_stays_na_and_says_where_it_was_looked_for(annual_and_release):
    answerer, _ = annual_and_release
    rec = answerer.answer(f"What was {COMPANY}'s 2024 goodwill impairment, in USD millions?", "number")
    assert rec.value == "N/A" and rec.references == []
    assert any("not found in the other filings of the period either" in n for n in rec.notes)


def test_an_answer_that_may_be_read_in_another_filing_is_reused_only_while_that_filing_is_unchanged(
        annual_and_release):
    """The answer's key holds every report it may read: the release too, whose figure answers when the annual
    report prints none (the key had held the annual report only, so a re-ingested release left a stale answer)."""
    from rag_assets.answer.service.fingerprint import answer_key
    from rag_assets.answer.service.run import question_key

    answerer, sha1 = annual_and_release
    question = f"What was {COMPANY}'s 2024 research and development expense, in USD millions?"
    assert answerer.filing_routes.reports_read(question) == [sha1["annual"], sha1["release"]]
    annual_only = answer_key("fp", {sha1["annual"]: answerer.retriever.index(sha1["annual"]).versions()})
    assert question_key(answerer, question, "fp") not in ("", annual_only)


def test_the_model_calls_of_both_readings_are_counted_in_the_answer():
    """What the reading in the other filings cost (calls and tokens) is added to the answer's, whether or not it
    found the figure (its tokens had been dropped)."""
    from rag_assets.answer.readers.record import AnswerRecord
    from rag_assets.answer.routing.router import Route
    from rag_assets.answer.service.answerer import take_other_filings

    for value, expected in ((2480.0, 2480.0), ("N/A", "N/A")):
        rec = AnswerRecord("q", "number", llm_calls=2, prompt_tokens=900, completion_tokens=40)
        second = AnswerRecord("q", "number", value=value, llm_calls=1, prompt_tokens=500, completion_tokens=20,
                              references=[{"pdf_sha1": "r", "page_index": 0}] if value != "N/A" else [])
        take_other_filings(rec, second, Route(COMPANY, ("r",), 0), "release")
        assert (rec.value, rec.llm_calls, rec.prompt_tokens, rec.completion_tokens) == (expected, 3, 1400, 60)


def test_nine_months_no_column_prints_are_the_year_less_its_fourth_quarter(annual_and_release):
    """Issue 45, class 2: the release prints the fourth quarter and the year, no nine months: 'the first nine
    months of 2024' is the year less the fourth quarter (9,000 - 2,400), both operands cited."""
    answerer, sha1 = annual_and_release
    rec = answerer.answer(f"What were {COMPANY}'s net sales in the first nine months of 2024, in USD millions?",
                          "number")
    assert rec.error is None and rec.value == 6600.0
    assert {"pdf_sha1": sha1["release"], "page_index": 0} in rec.references
    assert any("no column prints revenue 2024 (9 months): computed as" in n for n in rec.notes)


def test_a_quarter_no_filing_reports_is_na_never_the_quarter_the_release_reports(annual_and_release):
    """The third quarter of 2024 is printed nowhere and cannot be derived (no six or nine months): N/A, not the
    fourth quarter's 2,400 that the release's three-month column prints."""
    answerer, _ = annual_and_release
    rec = answerer.answer(f"What were {COMPANY}'s net sales in the third quarter of 2024, in USD millions?", "number")
    assert rec.error is None and rec.value == "N/A" and rec.references == []


def _read_from_the_cover_only(answerer, sha1: str, question: str):
    """``question`` read by the number reader with only the annual report's cover ranked (no figure row on it)."""
    from rag_assets.answer.readers.record import AnswerRecord
    from rag_assets.answer.routing.question_text import retrieval_query
    from rag_assets.answer.routing.router import Route
    from rag_assets.retrieval.search import RetrievedPage

    route = Route(COMPANY, (sha1,), 0)
    cover = RetrievedPage(sha1, 0, 1.0, answerer.retriever.index(sha1).pages[0], [])
    rec = AnswerRecord(question, "number")
    answerer.numbers.question(question, retrieval_query(question, COMPANY, ()), route, [cover], rec,
                              answerer.plan(question, "number"))
    return rec


def test_a_figure_on_no_page_ranked_is_read_on_the_filings_other_pages(annual_and_release):
    """Issue 45: N/A only when no page of the filings prints the figure. The best-ranked pages (here the cover
    alone) name no net earnings: every page of the annual report is read, and its income statement's row is."""
    answerer, sha1 = annual_and_release
    rec = _read_from_the_cover_only(answerer, sha1["annual"], f"What were {COMPANY}'s net earnings in 2023?")
    assert rec.error is None and rec.value == 1900e6
    assert rec.references and rec.references[0]["page_index"] > 0
    assert any("every page of the filings read" in n for n in rec.notes)


def test_a_figure_no_page_prints_is_na_after_every_page_was_read(annual_and_release):
    answerer, sha1 = annual_and_release
    pages = len(answerer.retriever.index(sha1["annual"]).pages)
    rec = _read_from_the_cover_only(answerer, sha1["annual"], f"What was {COMPANY}'s backlog of orders in 2024?")
    assert rec.value == "N/A" and rec.references == []
    assert any(f"of the {pages} pages names the metric" in n for n in rec.notes), rec.notes
