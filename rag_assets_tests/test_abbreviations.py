"""A metric written as its standard abbreviation and a line printing it in full, or the other way round ('adjusted
diluted earnings per share' and the row 'Adjusted EPS (diluted)'; 'R&D expense' and 'Research and development'),
name one metric, the long form read as the abbreviation (one word): each wording of the question reads the same figure, by Python, without the model. Wording of our
own."""

from __future__ import annotations

import pytest

from rag_assets.answer.evidence.metric_query import MetricQuery
from rag_assets.answer.readers.number_reader import read_number
from rag_assets.retrieval.query import Lexicon, default_lexicon
from rag_assets_tests.llm_fakes import NeverCalled
from rag_assets_tests.pages import Page

RELEASE = ("Vandelay Industries reports fourth-quarter and full-year 2024 results\n\n"
           "Fourth Quarter Full Year\n\n"
           "| (in millions, except per share) | 2024 | 2023 | % Change | 2024 | 2023 | % Change |\n"
           "|---|---|---|---|---|---|---|\n"
           "| Net earnings | 480 | 450 | 6.7% | 1,910 | 1,800 | 6.1% |\n"
           "| Adjusted net earnings | 610 | 550 | 10.9% | 2,480 | 2,300 | 7.8% |\n"
           "| EPS (diluted) | $0.87 | $0.82 | 6.1% | $3.47 | $3.27 | 6.1% |\n"
           "| Adjusted EPS (diluted) | $1.10 | $1.00 | 10.0% | $4.40 | $4.00 | 10.0% |\n")

STATEMENT = ("Vandelay Industries\nConsolidated Statements of Earnings\n(in millions)\n\n"
             "| | 2024 | 2023 |\n|---|---|---|\n"
             "| Net sales | 12,400 | 11,900 |\n"
             "| Cost of products sold | 7,100 | 6,900 |\n"
             "| Selling, general and administrative expenses | 2,350 | 2,280 |\n"
             "| Research and development expense | 1,234 | 1,100 |\n"
             "| Operating income | 1,716 | 1,620 |\n")


def _read(question: str, query: str, page: str, months: int = 0, quarter=None):
    return read_number(NeverCalled(), question, query, [Page("v", 0, page)], default_lexicon(), year=2024,
                       months=months, quarter=quarter, own_quarters={"v": 4}, company=("Vandelay",))


@pytest.mark.parametrize("query", ["adjusted diluted earnings per share", "adjusted EPS", "adjusted diluted EPS",
                                   "adjusted earnings per share", "diluted adjusted EPS"])
def test_an_abbreviated_or_written_out_metric_reads_the_same_row(query):
    """Each wording read the adjusted figure, not the reported one nor the adjusted net earnings ($610 million)."""
    reading = _read(f"What was Vandelay's {query} in the fourth quarter of 2024?", query, RELEASE, months=3,
                    quarter=(2024, 4))
    assert reading.value == pytest.approx(1.10) and reading.candidate.label == "Adjusted EPS (diluted)"
    year = _read(f"What was Vandelay's full-year 2024 {query}?", query, RELEASE)
    assert year.value == pytest.approx(4.40)


@pytest.mark.parametrize("query, value", [("R&D expense", 1234), ("research and development expense", 1234),
                                          ("SG&A expenses", 2350),
                                          ("selling, general and administrative expenses", 2350)])
def test_a_statement_row_printed_in_full_is_the_abbreviation_asked(query, value):
    reading = _read(f"What was Vandelay's {query} in 2024, in USD millions?", query, STATEMENT)
    assert reading.value == pytest.approx(value * 1e6)


def test_a_line_prints_both_forms_of_an_abbreviation_and_the_metric_keeps_its_own_words():
    lex = default_lexicon()
    for asked, own in (("adjusted EPS", ("adjust", "ep")), ("adjusted earnings per share", ("adjust", "earn", "share"))):
        metric = MetricQuery.of(asked, lex)
        assert metric.own == own  # as asked: 'per' is a template word
        assert set(metric.own) <= set(metric.words("Adjusted earnings per share (diluted)"))
        assert set(metric.own) <= set(metric.words("Adjusted EPS"))
        assert not set(metric.own) <= set(metric.words("Adjusted net earnings"))
    assert set(MetricQuery.of("earnings per share", lex).own) <= set(MetricQuery.of("x", lex).words(
        "Diluted earnings per common share"))  # a variant of the long form still prints its words
    assert {"r&d", "research", "develop"} <= set(MetricQuery.of("R&D expense", lex).words("Research and development"))
    # an abbreviation the metric does not write adds no words: 'EBITDA' spelled out prints 'interest'
    assert "interest" not in MetricQuery.of("net interest margin", lex).words("Segment EBITDA margin")


def test_an_abbreviation_must_be_one_token_standing_for_several_words():
    with pytest.raises(ValueError, match="abbreviation"):
        Lexicon.from_dict({"abbreviations": {"gross margin": "gross profit over revenue"}})
    with pytest.raises(ValueError, match="abbreviation"):
        Lexicon.from_dict({"abbreviations": {"EPS": "EPS"}})
