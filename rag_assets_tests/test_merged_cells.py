"""A cell holding two figures ('1,687 1,787', as a PDF's text layer sometimes sets two columns into one, in
either order) is read as two figures, dated only when a change printed further along the row proves which is
the later one; a pair the row cannot order is left out (issue 45, quarters of an earnings release)."""

from __future__ import annotations

from rag_assets.answer.evidence.candidates import page_candidates
from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.question.formulas import Item
from rag_assets.answer.question.metric_library import default_library

LIB = default_library()
RELEASE = ("Supplementary Sales Data\n\n(Unaudited; Dollars in Millions)\n\nPercent Change\n\n"
           "2023 2022 Total Operations Currency 2023 2022 Total Operations Currency\n\n"
           "| Sales to customers | 24,020 25,530 | 7.5 6.3 | (1.2) | 47,446 50,276 | 8.2 6.0 | (2.2) |\n"
           "|---|---|---|---|---|---|---|\n"
           "| Domestic | 13,444 12,197 | 10.2 10.2 | - | 25,961 23,611 | 10.0 10.0 | - |\n"
           "| Overseas | 11,001 11,823 | | | 23,835 24,315 | | |\n\n"
           "SECOND QUARTER SIX MONTHS\n")


def test_two_figures_in_a_cell_are_dated_by_the_change_the_row_prints():
    rows = {c.label: c for c in page_candidates(RELEASE, "r", 7)}
    # printed earlier first: 25,530 / 24,020 - 1 = 6.3 %, the total change printed after them
    assert [(f.written, f.period, f.months) for f in rows["Sales to customers"].figures if not f.percent and f.period] == \
        [("25,530", "2023", 3), ("24,020", "2022", 3), ("50,276", "2023", 6), ("47,446", "2022", 6)]
    # printed later first: 13,444 / 12,197 - 1 = 10.2 %
    assert [f.written for f in rows["Domestic"].figures if f.period == "2023"] == ["13,444", "25,961"]
    assert "Overseas" not in rows  # no change printed: no order, so no figure


def test_a_quarters_and_six_months_revenue_are_read_from_cells_holding_two_figures():
    pages, quarters = [SourcePage("r", 7, RELEASE, False)], {"r": 2}
    read = lambda year, months: find_operand(Item("revenue", year, months=months, quarter=2 if months == 3 else 0),
                                             LIB.items["revenue"], pages, quarters=quarters)
    assert read(2023, 3).value == 25_530e6 and read(2022, 6).value == 47_446e6
