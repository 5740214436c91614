"""Filings by period, companies by alias, the unit asked, and metrics computed from cited statement rows:
on synthetic 10-Ks ingested by the real pipeline, answered without a model (Python computes)."""

from __future__ import annotations

import csv

import dagster as dg
import pytest

from rag_assets.answer.routing.filings import Filing, select
from rag_assets.answer.question.period import asked_period
from rag_assets.answer.question.formulas import Parser, evaluate, items_of, show
from rag_assets.answer.question.metric_library import default_library
from rag_assets.answer.question.plan import plan
from rag_assets.answer.routing.router import Router
from rag_assets.answer.service.run import NoLLM, build_answerer
from rag_assets.answer.question.unit import asked_unit
from rag_assets.config import get_config
from rag_assets.orchestration.definitions import ingestion_graph
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore
from rag_assets_tests.filing_factory import write_10k

COMPANY = "Harrow & Quill Industries"
FIGURES = {  # in millions, by fiscal year
    "Total revenues": {2021: 1800, 2022: 2000, 2023: 2400},
    "Cost of sales": {2021: 1100, 2022: 1200, 2023: 1500},
    "Operating income": {2021: 210, 2022: 250, 2023: 330},
    "Net income": {2021: 150, 2022: 180, 2023: 240},
    "Total current assets": {2022: 900, 2023: 1000},
    "Total assets": {2022: 4000, 2023: 4400},
    "Total current liabilities": {2022: 600, 2023: 800},
    "Net cash provided by operating activities": {2021: 260, 2022: 300, 2023: 380},
    "Purchases of property, plant and equipment": {2021: -90, 2022: -100, 2023: -120},
}


@pytest.fixture(scope="module")
def filings(tmp_path_factory):
    """Two 10-Ks of one company (FY2022, FY2023), ingested; subset.csv names the company only, so each
    filing's type and year are read from its cover. Returns (root, {year: sha1})."""
    root = tmp_path_factory.mktemp("filings_data")
    inbox = root / "pdfs"
    inbox.mkdir()
    for year in (2022, 2023):
        write_10k(inbox / f"hq_{year}.pdf", COMPANY, year, FIGURES)
    store = ReportStore(data_root=str(root))
    found = store.scan_inbox()
    with open(inbox / "subset.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["sha1", "company_name", "aliases"])
        for r in found:
            w.writerow([r.sha1, COMPANY, "Harrow Quill;H&Q"])
    found = store.scan_inbox()
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(reports_partitions.name, [r.sha1 for r in found])
        res = {"store": store, "parser": ParserResource(route="weight_free"), "embedder": EmbedderResource(),
               "llm": LLMResource()}
        metadata = {}
        for r in found:
            result = dg.materialize(ingestion_graph(res), partition_key=r.sha1, instance=instance, resources=res)
            [mat] = result.asset_materializations_for_node("report_pages")
            metadata[r.sha1] = {k: v.value for k, v in mat.metadata.items()}
    by_year = {int(r.path.rsplit("_", 1)[1][:4]): r.sha1 for r in found}
    for year, sha1 in by_year.items():  # the Dagster metadata shows each filing as its cover states it
        assert (metadata[sha1]["doc_type"], metadata[sha1]["fiscal_year"]) == ("annual", year)
        assert metadata[sha1]["form"] == "Form 10-K"  # issue 47 item 15: the form as the cover prints it
    return root, by_year


def _answerer(root):
    store = ReportStore(data_root=str(root))
    reports = store.indexed_reports()
    return build_answerer(get_config("local"), root, reports, llm=NoLLM(), filings=store.filings(reports))


def test_a_year_routes_to_its_filing_and_a_missing_year_to_the_later_one(filings):
    root, by_year = filings
    answerer = _answerer(root)
    routed = lambda q: [s for r in answerer.routes(q) for s in r.sha1s]  # noqa: E731
    assert routed(f"What were {COMPANY}'s FY2022 total assets?") == [by_year[2022]]
    assert routed(f"What were {COMPANY}'s total assets?") == [by_year[2023]]  # no period: the latest
    assert routed(f"What was {COMPANY}'s FY2021 revenue?") == [by_year[2022]]  # printed in the FY2022 10-K
    assert routed("What were H&Q's FY2023 total assets?") == [by_year[2023]]  # an alias from subset.csv


def test_an_amount_in_the_unit_asked_from_the_asked_years_column(filings):
    root, by_year = filings
    rec = _answerer(root).answer(f"What were {COMPANY}'s total assets at the end of FY2022? Answer in USD "
                                 "billions.", "number")
    assert rec.error is None and rec.value == pytest.approx(4.0)
    assert rec.references and {r["pdf_sha1"] for r in rec.references} == {by_year[2022]}


def test_a_defined_ratio_over_a_two_year_average_is_computed_and_every_operand_cited(filings):
    root, by_year = filings
    q = (f"What is the FY2023 return on assets (ROA) for {COMPANY}? ROA is defined as: FY2023 net income / "
         "(average total assets between FY2022 and FY2023). Round your answer to two decimal places.")
    rec = _answerer(root).answer(q, "number")
    assert rec.value == pytest.approx(round(240 / 4200, 2))
    ops = {(o["item"], o["year"]): o for o in rec.computation["operands"]}
    assert set(ops) == {("net income", 2023), ("total assets", 2022), ("total assets", 2023)}
    assert ops[("total assets", 2022)]["written"] == "4,000" and ops[("total assets", 2023)]["written"] == "4,400"
    assert all(o["sha1"] == by_year[2023] for o in ops.values())  # the FY2023 10-K prints both years
    pages = {r["page_index"] for r in rec.references}
    assert pages == {o["page_index"] for o in ops.values()} and len(pages) == 2  # income statement, balance sheet


def test_a_margin_in_percent_rounded_and_an_average_over_three_years(filings):
    root, _ = filings
    answerer = _answerer(root)
    rec = answerer.answer(f"What is the FY2023 operating income % margin for {COMPANY}? Answer in units of "
                          "percents and round to one decimal place.", "number")
    assert rec.value == pytest.approx(13.8)  # 330 / 2400
    rec = answerer.answer(f"What is the FY2021 - FY2023 3 year average of capex as a % of revenue for {COMPANY}? "
                          "Answer in units of percents and round to one decimal place.", "number")
    assert rec.value == pytest.approx(round(100 * (90 / 1800 + 100 / 2000 + 120 / 2400) / 3, 1))
    rec = answerer.answer(f"What is {COMPANY}'s FY2023 revenue growth? Answer in units of percents.", "number")
    assert rec.value == pytest.approx(20.0)  # (2400 - 2000) / 2000, both columns of the FY2023 10-K


def test_a_missing_operand_gives_na_and_names_it(filings):
    root, _ = filings
    q = (f"What is the FY2023 inventory turnover ratio for {COMPANY}? Inventory turnover ratio is defined as: "
         "(FY2023 COGS) / (average inventory between FY2022 and FY2023).")
    rec = _answerer(root).answer(q, "number")
    assert rec.value == "N/A" and rec.references == []
    assert rec.computation["missing"] == ["inventory 2022", "inventory 2023"]


def test_asked_period_and_filing_choice():
    assert asked_period("Did X's margin grow in Q2 of FY2023 compared to Q2 of FY2022?").quarter == 2
    assert asked_period("between 2022 and the 2021 fiscal period").target == 2022
    fs = [Filing("a", "X", "annual", 2022), Filing("b", "X", "earnings", 2023, 2), Filing("c", "X", "annual", 2020)]
    assert [f.sha1 for f in select(fs, asked_period("in the second fiscal quarter of 2023"))[0]] == ["b"]
    assert [f.sha1 for f in select(fs, asked_period("FY2022 revenue"))[0]] == ["a"]
    assert [f.sha1 for f in select(fs, asked_period("FY2019 revenue"))[0]] == ["c"]  # the next annual report
    assert [f.sha1 for f in select(fs, asked_period("revenue"))[0]] == ["a"]  # the latest annual report


def test_abbreviations_route_only_when_no_name_is_written():
    router = Router({"s1": "Harrow & Quill Industries", "s2": "Quillmark", "s3": "Hollis Quarry Group"})
    assert [r.company for r in router.route("Did HQI grow?")] == ["Harrow & Quill Industries"]
    assert [r.company for r in router.route("Did QUIL grow?")] == ["Quillmark"]
    assert router.route("Is FY2022 revenue up? What changed?") == []  # words, not abbreviations


def test_the_first_word_of_a_name_routes_when_it_opens_one_known_name_only():
    router = Router({"s1": "Harrow Quill Industries", "s2": "Quillmark", "s3": "General Tarn", "s4": "General Ash"})
    for question in ("What were Harrow's net sales in 2022?", "In 2022, how much did Harrow's Tools segment sell?",
                     "Net sales of Harrow in 2022"):
        [route] = router.route(question)
        assert route.company == "Harrow Quill Industries" and route.written == ("Harrow",)
    assert router.route("What were General's net sales in 2022?") == []  # it opens two names
    assert router.route("Harrow-based suppliers' sales in 2022?") == []  # a word joined to another is no name
    assert router.route("Harrow tools sold in 2022?") == []  # the question's first word, owning nothing


def test_units_asked():
    assert asked_unit("(in USD millions)").scale == 1e6 and asked_unit("in USD billions").scale == 1e9
    u = asked_unit("Answer in units of percents and round to one decimal place.")
    assert u.percent and u.decimals == 1 and u.ratio(0.05432) == 5.4
    assert asked_unit("What was the revenue (in USD)?").words == "full units"  # the ERC convention
    assert asked_unit("How many cents of diluted earnings per share did Globex report?").scale == 0.01
    assert asked_unit("How many cents per share did Globex pay?").scale == 1.0  # what is counted is not the unit


def test_formula_language():
    lib = default_library()
    node = Parser(lib, 2020).parse("365 * (average accounts payable between FY2019 and FY2020) / (FY2020 COGS + "
                                   "change in inventory between FY2019 and FY2020)")
    assert {(i.name, i.year) for i in items_of(node)} == {
        ("accounts payable", 2019), ("accounts payable", 2020), ("cost of goods sold", 2020),
        ("inventory", 2019), ("inventory", 2020)}
    given = {("accounts payable", 2019): 10, ("accounts payable", 2020): 30, ("cost of goods sold", 2020): 100,
             ("inventory", 2019): 5, ("inventory", 2020): 15}
    values = {i: given[(i.name, i.year)] for i in items_of(node)}
    assert evaluate(node, values) == pytest.approx(365 * 20 / (100 + 10))
    assert show(Parser(lib, 2021).parse("total current assets less total current liabilities")) == \
        "(total current assets 2021 - total current liabilities 2021)"
    assert plan("What is the gross margin (%) according to the annual report?", lib) is None  # no year: read
    assert show(plan("What is the FY2022 effective tax rate?", lib).node) == \
        "(income tax expense 2022 / income before taxes 2022)"
    assert show(plan("What was the change in total assets between FY2021 and FY2022?", lib).node) == \
        "(total assets 2022 - total assets 2021)"


def test_a_yes_no_on_figures_is_decided_by_python_with_its_rows_cited(filings):
    root, by_year = filings
    answerer = _answerer(root)
    rec = answerer.answer(f"Does {COMPANY} have positive working capital based on FY2023 data?", "boolean")
    assert rec.value is True and rec.llm_calls == 0
    assert {o["written"] for o in rec.computation["operands"]} == {"1,000", "800"}
    assert rec.references and {r["pdf_sha1"] for r in rec.references} == {by_year[2023]}
    rec = answerer.answer(f"Did {COMPANY}'s revenue decrease between FY2022 and FY2023?", "boolean")
    assert rec.value is False and rec.computation["formula"] == "revenue 2023 vs revenue 2022"
    rec = answerer.answer(f"Did {COMPANY} increase its total assets between FY2022 and FY2023?", "boolean")
    assert rec.value is True


def test_a_wrong_computed_answer_leads_to_its_operands_in_the_cli_lines_and_the_evaluation_table(filings):
    from rag_assets.answer.evidence.computed import describe
    from rag_assets.answer.service.scoring import evaluate
    from rag_assets.orchestration.answer_assets import wrong_answers_table

    root, by_year = filings
    q = (f"What is {COMPANY}'s FY2023 working capital ratio? Define working capital ratio as total current assets "
         "divided by total current liabilities. Round your answer to two decimal places.")
    rec = _answerer(root).answer(q, "number")
    assert rec.value == 1.25
    lines = describe(rec.computation, {by_year[2023]: "HQ 10-K 2023"})
    assert lines[0].startswith("computed: (total current assets 2023 / total current liabilities 2023)")
    assert any("total current assets 2023 = 1,000 x 1e+06" in ln and "of HQ 10-K 2023" in ln for ln in lines)
    gold = {q: {"kind": "number", "answers": ["1.5"], "reference_pools": []}}  # a wrong gold: the row shows why
    table = wrong_answers_table(evaluate([rec.to_dict()], gold).rows, {by_year[2023]: "HQ 10-K 2023"})
    [row] = table.records
    assert "total current liabilities 2023 = 800" in row.data["computation"]


def test_a_formula_the_question_writes_is_read_whole_and_a_part_of_the_company_is_not_computed():
    lib = default_library()
    written = plan("What is the FY2021 unadjusted EBITDA less capex for X? Answer in USD millions.", lib)
    assert show(written.node) == ("((operating income 2021 + depreciation and amortization 2021) - "
                                  "capital expenditure 2021)")  # not EBITDA alone
    assert plan("What is the FY2021 EBITDA less litigation settlements for X?", lib) is None  # an unknown operand
    assert show(plan("What is the FY2021 EBITDA less restructuring costs for X?", lib).node) == \
        "((operating income 2021 + depreciation and amortization 2021) - restructuring costs 2021)"  # a known one
    assert show(plan("What was the FY2022 revenue of the Services segment for X?", lib).node) == \
        "revenue [services] 2022"  # a part of the company is read as its own rows (test_parts.py)
    assert plan("What is X's FY2022 adjusted EBITDA?", lib) is None
    assert plan("What is X's FY2022 unadjusted EBITDA?", lib) is not None


def test_an_analysts_judgement_is_decided_by_the_librarys_rule_of_thumb(filings):
    root, by_year = filings
    answerer = _answerer(root)
    rec = answerer.answer(f"Is {COMPANY} a capital-intensive business based on FY2023 data?", "boolean")
    assert rec.value is False and rec.llm_calls == 0  # capital expenditure 120 of revenue 2,400: 5 % < 10 %
    assert rec.computation["formula"] == "(capital expenditure 2023 / revenue 2023)"
    assert any("at least 10 % of revenue" in n for n in rec.notes)
    rec = answerer.answer(f"Are {COMPANY}'s FY2023 financials that of a high growth company?", "boolean")
    assert rec.value is True  # revenue 2,000 -> 2,400: 20 % >= 15 %
    assert {o["written"] for o in rec.computation["operands"]} == {"2,400", "2,000"}
