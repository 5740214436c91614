"""Any figure the filings print as an operand (issue 45): a ratio as printed ('CET1 capital ratio 13.8 %') is an
operand of a formula in percent; a table whose columns are headed by dates ('June 30, 2023 | December 31, 2022')
dates its rows; an operand no row prints is read by the number reader, and Python checks what it read before
computing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rag_assets.answer.evidence.candidates import Candidate, page_candidates
from rag_assets.answer.evidence.figures import Figure
from rag_assets.answer.evidence.operands import SourcePage, find_operand
from rag_assets.answer.question.formulas import Item, money, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.plan import plan
from rag_assets.answer.question.unit import asked_unit
from rag_assets.answer.readers.number_reader import NumberReading
from rag_assets.answer.readers.operand_reader import MODEL_OPERANDS, operand_from, operand_question, read_missing

LIB = default_library()
CAPITAL = ("Capital metrics of the Firm\n| (in millions, except ratios) | June 30, 2023 | December 31, 2022 |\n"
           "| --- | --- | --- |\n| CET1 capital | $ 235,827 | $ 218,934 |\n| CET1 capital ratio | 13.8 % | 13.2 % |\n"
           "| Tier 1 leverage ratio | 7.2 % | 6.6 % |\n")


def test_a_change_in_points_of_a_ratio_the_library_does_not_know_is_planned_as_printed():
    q = "By how many percentage points did Tarn's CET1 capital ratio change between December 31, 2022 and June 30, 2023?"
    found = plan(q, LIB)
    assert show(found.node) == "(cet1 capital ratio 2023 - cet1 capital ratio 2022)" and not money(found.node)
    assert asked_unit(q).ratio(0.006) == pytest.approx(0.6)
    q = "How many basis points did Tarn's Tier 1 leverage ratio change from 2022 to 2023?"
    assert show(plan(q, LIB).node) == "(tier 1 leverage ratio 2023 - tier 1 leverage ratio 2022)"
    assert money(plan("What was Tarn's membership fee revenue in 2023?", LIB).node)  # an amount stays one


@pytest.mark.parametrize("written", ["(ROTCE)", "(“ROTCE”)", ""])
def test_a_printed_item_written_with_its_abbreviation_is_the_item_as_printed(written):
    """'return on tangible common equity (ROTCE)' is the row 'Return on tangible common equity': the
    abbreviation in brackets names it again, it is no word of it."""
    q = f"What was Tarn's return on tangible common equity {written} in the second quarter of 2023, in percent?"
    assert show(plan(q, LIB).node) == "return on tangible common equity 2023 (Q2)"


def test_columns_headed_by_dates_date_the_rows_and_declare_their_scale():
    rows = {c.label: c for c in page_candidates(CAPITAL, "s", 3)}
    assert [f.period for f in rows["CET1 capital"].figures] == ["2023", "2022"]
    assert rows["CET1 capital"].scale == 1e6


def test_a_ratio_operand_is_read_from_its_percentage_and_an_amount_never_is():
    pages = [SourcePage("s", 3, CAPITAL, False)]
    later, earlier = (find_operand(Item("cet1 capital ratio", y), None, pages) for y in (2023, 2022))
    assert (later.value, earlier.value, later.scale) == (pytest.approx(0.138), pytest.approx(0.132), 1.0)
    assert find_operand(Item("cet1 capital", 2023), None, pages).value == 235_827e6
    percent_only = ("| | 2023 | 2022 |\n| --- | --- | --- |\n| Membership fee revenue | 4.2 % | 4.0 % |\n")
    assert find_operand(Item("membership fee revenue", 2023), None, [SourcePage("s", 1, percent_only, False)]) is None


def _reading(written: str, value: float, percent: bool) -> NumberReading:
    row = Candidate("s", 9, "row", "Net interest margin", (Figure(written, value, percent, "2023"),), 1e6, "in millions")
    return NumberReading(value=value, candidate=row, percent=percent, written=written)


def test_what_the_number_reader_read_is_an_operand_only_of_its_kind():
    item = Item("net interest margin", 2023, quarter=2)
    assert operand_question("Tarn", item) == "What was Tarn's net interest margin in the second quarter of 2023?"
    assert operand_question("Tarn", Item("revenue", 2022, part="cloud", months=6)) == \
        "What was Tarn's cloud revenue in the first six months of 2022?"
    assert operand_question("Tarn", Item("retail stores", 2023), printed=True) == \
        "How many retail stores did Tarn have in 2023?"  # a count, read beside its noun
    assert operand_question("Tarn", Item("membership fees", 2023), printed=True) == \
        "What was Tarn's membership fees in 2023?"  # an amount is no count
    found, _ = operand_from(item, _reading("2.64 %", 2.64, True))
    assert found.value == pytest.approx(0.0264) and found.page_index == 9 and found.scale == 1.0
    found, why = operand_from(item, _reading("21,779", 21_779e6, False))
    assert found is None and "is not a percentage" in why
    found, why = operand_from(Item("net interest income", 2023), _reading("2.64 %", 2.64, True))
    assert found is None and "an amount" in why
    assert operand_from(Item("net interest income", 2023), NumberReading())[0] is None


def test_more_operands_missing_than_the_model_may_read_are_not_read():
    asked = []
    items = [Item(f"x{i}", 2023) for i in range(MODEL_OPERANDS + 1)]
    assert read_missing(items, lambda item: asked.append(item)) == (None, [], []) and asked == []
    given, readings, notes = read_missing(items[:1], lambda item: NumberReading(error="timeout"))
    assert given is None and readings[0].error == "timeout"


def test_one_printed_figure_is_not_the_operand_of_two_periods():
    reading = _reading("12.0 %", 12.0, True)
    items = [Item("cet1 capital ratio", 2023), Item("cet1 capital ratio", 2022)]
    given, readings, notes = read_missing(items, lambda item: reading)
    assert given is None and len(readings) == 2 and "is the one read for 2023" in notes[-1]


def test_a_parts_own_results_may_say_whose_row_it_is():
    """'Business segment operating income (millions)' under the part's caption is the part's operating income."""
    page = ("Fibre Networks Business (20.1% of consolidated sales):\n| | 2023 | 2022 |\n| --- | --- | --- |\n"
            "| Sales (millions) | $ 5,120 | $ 5,402 |\n| Organic sales | (0.9) % | 9.8 % |\n"
            "| Business segment operating income (millions) | $ 987 | $ 1,104 |\n")
    spec = LIB.items["operating income"]
    found = find_operand(Item("operating income", 2023, part="fibre networks"), spec, [SourcePage("s", 7, page, False)],
                         LIB.other_entities, LIB.item_names)
    assert found is not None and found.value == 987e6


def test_a_per_share_heading_over_the_profit_row_is_the_per_share_figure():
    """'Diluted Earnings Per Common Share' / 'Net income attributable to Tarn 2.38': the heading names the item,
    the row the profit it divides; the shares row under the same heading is not it."""
    page = ("CONSOLIDATED STATEMENTS OF INCOME\n| (dollars in millions, except per share amounts) | 2023 | 2022 |\n"
            "| --- | --- | --- |\n| Net Income | $ 9,640 | $ 9,120 |\n| Basic Earnings Per Common Share | | |\n"
            "| Net income attributable to Tarn | $ 2.41 | $ 2.15 |\n"
            "| Weighted-average shares outstanding (in millions) | 4,002 | 4,241 |\n"
            "| Diluted Earnings Per Common Share | | |\n| Net income attributable to Tarn | $ 2.38 | $ 2.11 |\n"
            "| Weighted-average shares outstanding (in millions) | 4,050 | 4,322 |\n")
    pages = [SourcePage("s", 5, page, True)]
    read = {name: find_operand(Item(name, 2022), LIB.items[name], pages) for name in ("diluted eps", "basic eps")}
    assert (read["diluted eps"].value, read["basic eps"].value) == (2.11, 2.15)


@pytest.fixture(scope="module")
def samples_ingested(tmp_path_factory, sample_pdfs):
    """The sample reports ingested into one data root: (root, {company: sha1})."""
    import shutil

    from rag_assets.orchestration.resources import ReportStore
    from rag_assets_tests.filing_factory import ingest_inbox

    root = tmp_path_factory.mktemp("operands_data")
    (root / "pdfs").mkdir()
    for p in [*sample_pdfs, sample_pdfs[0].parent / "subset.csv"]:
        shutil.copy(p, root / "pdfs" / p.name)
    found = ingest_inbox(ReportStore(data_root=str(root)))
    return root, {r.company_name: r.sha1 for r in found}


def test_an_operand_printed_only_in_a_sentence_is_read_by_the_model_and_computed_by_python(samples_ingested):
    """Revenue is a statement row, the head count only a sentence ('the Group employed 4,210 people'): the
    number reader reads that count beside its noun (with the served model at hand, needed only where sentences
    disagree), and Python divides, citing both pages."""
    from rag_assets.answer.service.run import build_answerer
    from rag_assets.config import get_config
    from rag_assets.index.embedding import MiniLMOnnxEmbedder
    from rag_assets_tests.conftest import NORTHWIND, embedded_llm

    root, sha = samples_ingested
    answerer = build_answerer(get_config("local"), root, {v: k for k, v in sha.items()},
                              llm=embedded_llm("qwen2.5-coder-1.5b"), embedder=MiniLMOnnxEmbedder())
    rec = answerer.answer(f"What was the ratio of {NORTHWIND.company}'s revenue to its employees in "
                          f"{NORTHWIND.year}?", "number")
    assert rec.error is None and rec.value == pytest.approx(NORTHWIND.revenue[0] * 1000 / NORTHWIND.employees), rec.notes
    operands = {o["item"]: o for o in rec.computation["operands"]}
    assert operands["employees"]["chosen"] and not operands["revenue"]["chosen"]
    assert operands["employees"]["page_index"] != operands["revenue"]["page_index"]
    assert any("read by the number reader" in n for n in rec.notes)


def test_a_money_figure_without_a_declared_scale_takes_the_one_its_statements_declare(samples_ingested):
    """The sample's statements declare 'All amounts in thousands': a revenue read from a table declaring none
    is in thousands too; a per-share figure and a figure the number reader read keep theirs."""
    from dataclasses import replace

    from rag_assets.answer.evidence.operand_scales import statement_scale, statements_scale
    from rag_assets.answer.evidence.operands import Operand
    from rag_assets.retrieval.query import default_lexicon
    from rag_assets.retrieval.search import Retriever
    from rag_assets_tests.conftest import NORTHWIND

    root, sha = samples_ingested
    retriever, lex = Retriever(root, None, "bm25"), default_lexicon()
    sha1 = sha[NORTHWIND.company]
    assert statements_scale(retriever, sha1, lex)[0] == 1000.0
    bare = Operand("revenue", 2023, 2_950_400.0, "2,950,400", "Revenue", sha1, 7, 1.0, "")
    notes: list[str] = []
    eps = replace(bare, item="diluted eps", value=1.2, written="1.20", label="Diluted earnings per share")
    read = replace(bare, chosen=True)
    scaled, kept, chosen = statement_scale([bare, eps, read], retriever, LIB, lex, notes)
    assert scaled.value == 2_950_400_000.0 and "as the report's statements" in scaled.scale_words
    assert (kept.value, chosen.value) == (1.2, 2_950_400.0) and len(notes) == 1


def test_a_region_written_with_its_dots_under_a_regional_caption_is_the_part():
    """An earnings release's 'REGIONAL SALES RESULTS' table: 'U.S.' is the part a question writes 'US', and
    'regional sales' names sales, split by region."""
    page = ("REGIONAL SALES RESULTS\n\nQ2 % Change\n\n| ($ in Millions) | 2023 | 2022 | Reported |\n"
            "|---|---|---|---|\n| U.S. | $13,120 | $12,040 | 9.0% |\n| International | 11,980 | 11,700 | 2.4 |\n"
            "| Worldwide | $25,100 | $23,740 | 5.7% |\n")
    pages, spec = [SourcePage("r", 1, page, False)], LIB.items["revenue"]
    read = {(part, year): find_operand(Item("revenue", year, part=part, months=3, quarter=2), spec, pages,
                                       LIB.other_entities, LIB.item_names, quarters={"r": 2})
            for part in ("us", "international") for year in (2023, 2022)}
    assert read[("us", 2023)].value == 13_120e6 and read[("international", 2022)].value == 11_700e6


RATIOS = ("Selected ratios of the Firm (in millions, except ratios)\n2Q23 1Q23 2Q22\n"
          "| Return on common equity(b) | 21 % | 17 % | 12 % |\n|---|---|---|---|\n"
          "| Return on assets(b) | 1.47 | 1.32 | 0.93 |\n| Overhead ratio | 49 | 53 | 60 |\n"
          "| Book value per share | $ 101.40 | $ 98.10 | $ 90.15 |\n")


@pytest.mark.parametrize("name, quarter, value", [("return on asset", 2, 0.0147), ("return on assets", 2, 0.0147),
                                                  ("overhead ratio", 1, 0.53), ("return on common equity", 2, 0.21)])
def test_ratios_under_the_one_row_that_prints_its_percent_sign_are_percentages_too(name, quarter, value):
    """A table that marks only its first ratio with '%' prints the ratios below it in percent as well; a row
    label's footnote letter ('assets(b)') is no word of it. Both had left the row unread (N/A)."""
    pages = [SourcePage("s", 2, RATIOS, False)]
    year = 2023
    found = find_operand(Item(name, year, months=3, quarter=quarter), None, pages, quarters={"s": 2})
    assert found is not None and found.value == pytest.approx(value)
    alone = RATIOS.replace("| Return on common equity(b) | 21 % | 17 % | 12 % |\n|---|---|---|---|\n", "")
    if name == "overhead ratio":  # no row above prints '%': a plain figure is not read as a percentage
        assert find_operand(Item(name, year, months=3, quarter=quarter), None, [SourcePage("s", 2, alone, False)],
                            quarters={"s": 2}) is None


def test_a_printed_row_naming_both_signs_keeps_its_sign_and_another_printed_row_is_an_amount():
    """'Net cash provided by (used in) financing activities (6,701)' is -6,701: its label names both signs, as
    filings print them; a printed row naming one ('Purchases of tooling (173)') is the amount spent."""
    page = ("Consolidated statement of cash flows (in millions)\n\n| | 2018 | 2017 |\n|---|---|---|\n"
            "| Net cash provided by (used in) financing activities | (6,701) | 2,655 |\n"
            "| Purchases of tooling | (173) | (150) |\n")
    pages = [SourcePage("s", 59, page, True)]
    used = find_operand(Item("net cash provided by used in financing activities", 2018), None, pages)
    assert used.value == -6701e6 and find_operand(Item("net cash provided by used in financing activities", 2017),
                                                   None, pages).value == 2655e6
    assert find_operand(Item("purchases of tooling", 2018), None, pages).value == 173e6


def test_the_label_the_question_writes_is_read_with_or_without_its_total():
    """'total net sales' asked where the statement prints 'Net sales' and, below the membership fees, 'Total
    revenue': the row the question names, not the library's first label."""
    page = ("CONSOLIDATED STATEMENTS OF INCOME\n| (in millions) | 2021 | 2020 |\n| --- | --- | --- |\n"
            "| Net sales | $ 192,052 | $ 163,220 |\n| Membership fees | 3,877 | 3,541 |\n"
            "| Total revenue | 195,929 | 166,761 |\n")
    spec = LIB.items["revenue"]
    for written, value in (("total net sales", 192_052e6), ("net sales", 192_052e6), ("total revenue", 195_929e6),
                           ("", 195_929e6)):
        found = find_operand(Item("revenue", 2021, written=written), spec, [SourcePage("s", 4, page, True)])
        assert found.value == value, written


def test_capital_expenditure_is_read_from_the_cash_flow_row_paying_for_property_plant_and_equipment():
    """'Payments to acquire property, plant and equipment' is a standard label of capital expenditure (it had been
    missed, and a segment table's capex read instead)."""
    cash_flow = ("CONSOLIDATED STATEMENTS OF CASH FLOWS\n| (Dollars in millions) | 2023 | 2022 |\n| --- | --- | --- |\n"
                 "| Net cash provided by operating activities | 4,120 | 3,512 |\n"
                 "| Payments to acquire property, plant and equipment | (1,430) | (1,222) |\n"
                 "| Proceeds from disposals of property, plant and equipment | 35 | 529 |\n")
    pages = [SourcePage("s", 58, cash_flow, True)]
    capex = find_operand(Item("capital expenditure", 2022), LIB.items["capital expenditure"], pages)
    assert abs(capex.value) == pytest.approx(1_222e6)


def test_an_amount_read_with_no_currency_and_no_scale_is_no_money_operand():
    """A part's revenue read as '454' from a table of warehouses (no currency, no scale) is a count: refused, never
    divided by the company's revenue in millions (a share of 0.0000002 %); with a '$' or a scale it is money."""
    item = Item("revenue", 2021, part="united states")
    warehouses = Candidate("s", 18, "row", "United States and Puerto Rico", (Figure("454", 454.0, False, "2021"),),
                           1.0, "", caption="At August 29, 2021, we operated 815 membership warehouses:")
    found, why = operand_from(item, NumberReading(value=454.0, candidate=warehouses, written="454"))
    assert found is None and "no currency and no scale" in why
    in_millions = replace(warehouses, scale=1e6, scale_words="in millions", caption="Net sales by region")
    assert operand_from(item, NumberReading(value=454e6, candidate=in_millions, written="454"))[0].value == 454e6
    sentence = replace(warehouses, source="text", label="Sales in the region were $454 thousand.")
    assert operand_from(item, NumberReading(value=454e3, candidate=sentence, written="$454 thousand"))[0] is not None


def test_the_reason_for_na_says_what_the_number_reader_read_and_why_python_refused_it():
    """An operand no row prints, read by the model and refused by Python: the N/A's reason the user sees (ask,
    evaluate, the viewer) says so, beside the rows that do not print it."""
    from rag_assets.answer.readers.record import na_reason

    item = Item("revenue", 2021, part="united states")
    warehouses = Candidate("s", 18, "row", "United States", (Figure("454", 454.0, False, "2021"),), 1.0, "")
    given, _, said = read_missing([item], lambda _: NumberReading(value=454.0, candidate=warehouses, written="454"))
    assert given is None
    notes = said + ["no statement row prints revenue [united states] 2021: N/A"]
    reason = na_reason({"value": "N/A", "notes": notes})
    assert reason.startswith("no statement row prints revenue [united states] 2021; the number reader did not read")
    assert "prints no currency and no scale" in reason
    assert na_reason({"value": "N/A", "notes": notes[1:]}) == "no statement row prints revenue [united states] 2021"
