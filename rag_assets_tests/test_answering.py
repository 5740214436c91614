"""The answering pipeline over ingested sample reports, with a scripted LLM at the model boundary."""

from __future__ import annotations

import dagster as dg
import pytest

from rag_assets.orchestration.definitions import ingestion_graph
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.config import get_config
from rag_assets.index.embedding import MiniLMOnnxEmbedder
from rag_assets.llm.clients import OpenAICompatibleLLM, TokenBudget
from rag_assets.llm.structured import parse_json_loose, structured_call
from rag_assets.retrieval.search import Retriever, rrf
from rag_assets.answer.service.lineage import AnswerDB, AnswerLog
from rag_assets.answer.routing.filings import Filing
from rag_assets.answer.service.run import answer_all, build_answerer
from rag_assets.answer.service.questions import Question
from rag_assets.llm.schemas import BooleanAnswer
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore
from rag_assets_tests.llm_fakes import ScriptedLLM, number_answer


@pytest.fixture(scope="module")
def ingested(tmp_path_factory, sample_pdfs):
    """Both sample reports ingested into one data root; returns (root, {company: sha1})."""
    import shutil

    root = tmp_path_factory.mktemp("answering_data")
    inbox = root / "pdfs"
    inbox.mkdir()
    for p in sample_pdfs:
        shutil.copy(p, inbox / p.name)
    shutil.copy(sample_pdfs[0].parent / "subset.csv", inbox / "subset.csv")
    store = ReportStore(data_root=str(root))
    found = store.scan_inbox()
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(reports_partitions.name, [r.sha1 for r in found])
        for r in found:
            res = {"store": store, "parser": ParserResource(route="weight_free"), "embedder": EmbedderResource(),
                   "llm": LLMResource()}
            dg.materialize(ingestion_graph(res), partition_key=r.sha1, instance=instance, resources=res)
    return root, {r.company_name: r.sha1 for r in found}


@pytest.fixture(scope="module")
def embedder():
    return MiniLMOnnxEmbedder()


def test_rrf_fuses_ranks():
    fused = rrf({"a": ["x", "y", "z"], "b": ["y", "w"]}, k=60)
    assert [c for c, _, _ in fused][:2] == ["y", "x"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61) and fused[0][2] == {"a": 2, "b": 1}


class RecordingEmbedder(MiniLMOnnxEmbedder):
    """The real embedder, keeping the texts it was asked to embed."""

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts):
        self.texts.extend(texts)
        return super().embed(texts)


def test_the_vector_side_embeds_the_question_without_template_phrases(ingested):
    from rag_assets.retrieval.query import default_lexicon, embedding_query

    lex = default_lexicon()
    asked = "For , what was the value of Total assets at the end of the period listed in annual report?"
    assert embedding_query(asked, lex) == "what was the value of Total assets ?"
    assert embedding_query("According to the annual report, what is the Revenue (within the last period or at "
                           "the end of the last period)?", lex) == "what is the Revenue ?"
    assert embedding_query(asked, None) == asked
    assert embedding_query("in the annual report", lex) == "in the annual report", "nothing left: as asked"
    root, sha = ingested
    spy = RecordingEmbedder()
    on = Retriever(root, spy, "hybrid", lexicon=lex)
    pages, _ = on.pages(sha["Northwind Widgets plc"], asked, 3)
    assert spy.texts == ["what was the value of Total assets ?"] and pages[0].page_index == 3
    Retriever(root, spy, "hybrid", lexicon=lex, embed_without_template=False).pages(
        sha["Northwind Widgets plc"], asked, 3)
    assert spy.texts[-1] == asked


@pytest.mark.parametrize("mode", ["vector", "bm25", "hybrid"])
def test_retrievers_find_the_table_page(ingested, embedder, mode):
    root, sha = ingested
    r = Retriever(root, embedder if mode != "bm25" else None, mode)
    pages, chunks = r.pages(sha["Northwind Widgets plc"], "total assets cash flow from operating activities", 3)
    assert pages[0].page_index == 3 and "| Total assets | 7,710,615 | 8,818,186 |" in pages[0].text
    assert len({p.page_index for p in pages}) == len(pages), "parent pages are de-duplicated"
    assert all(c.sha1 == sha["Northwind Widgets plc"] for c in chunks)


def _answerer(root, sha, llm, embedder, **overrides):
    cfg = get_config("local", **{"grounding": "cite_verified", "number_reader": "pages", **overrides})
    reports = {v: k for k, v in sha.items()}
    return build_answerer(cfg, root, reports, llm=llm, embedder=embedder)


def test_number_answer_applies_scale_checks_pages_and_grounding(ingested, embedder):
    root, sha = ingested
    llm = ScriptedLLM([number_answer("406,100", "thousands", 406100, [3, 42])])
    a = _answerer(root, sha, llm, embedder)
    rec = a.answer("What was the cash flow from operations (in USD) for Northwind Widgets plc?", "number")
    assert rec.value == 406_100_000.0
    assert rec.references == [{"pdf_sha1": sha["Northwind Widgets plc"], "page_index": 3}]
    assert any("not in the context dropped: [42]" in n for n in rec.notes)
    assert rec.grounded is True and rec.error is None
    assert rec.pages_sent[0]["page_index"] == 3 and rec.retrieved_chunks
    prompt = llm.requests[0]["messages"][1]["content"]
    assert "PAGE 3" in prompt and "7,710,615" in prompt and "Northwind Widgets plc" in prompt


def test_ungrounded_number_policy(ingested, embedder):
    root, sha = ingested
    q = "What was the cash flow from operations (in USD) for Northwind Widgets plc?"
    rec = _answerer(root, sha, ScriptedLLM([number_answer("999", "units", 999, [3])]), embedder).answer(q, "number")
    assert rec.value == 999.0 and rec.grounded is False
    strict = _answerer(root, sha, ScriptedLLM([number_answer("999", "units", 999, [3])]), embedder,
                       grounding="na_if_ungrounded")
    rec = strict.answer(q, "number")
    assert rec.value == "N/A" and rec.references == []


def test_na_and_false_cite_nothing_and_unknown_company_is_na(ingested, embedder):
    root, sha = ingested
    llm = ScriptedLLM([{"step_by_step_analysis": "no", "reasoning_summary": "no", "relevant_pages": [1],
                        "final_answer": False}])
    a = _answerer(root, sha, llm, embedder)
    rec = a.answer("Did Bluebird Mining Ltd announce a share buyback plan?", "boolean")
    assert rec.value is False and rec.references == []
    rec = a.answer("What was the revenue of Zenith Unknown Corp?", "number")
    assert rec.value == "N/A" and rec.error is None and "no known company" in " ".join(rec.notes) and not llm.requests[1:]
    assert rec.na_reason == "no known company is named in the question"
    rec = a.answer("Did Zenith Unknown Corp grow its revenue in 2022?", "boolean")  # False for want of evidence
    assert rec.value is False and rec.na_reason == "no known company is named in the question"


def test_schema_repair_then_give_up(ingested, embedder):
    root, sha = ingested
    good = {"step_by_step_analysis": "p2", "reasoning_summary": "buyback", "relevant_pages": [1],
            "final_answer": True}
    llm = ScriptedLLM(["I think yes!", good])
    rec = _answerer(root, sha, llm, embedder).answer("Did Northwind Widgets plc announce a share buyback plan?",
                                                       "boolean")
    assert rec.value is True and rec.llm_calls == 2 and "repaired" in " ".join(rec.notes)
    assert "Output to fix" in llm.requests[1]["messages"][1]["content"]
    llm = ScriptedLLM(["nope", "still nope"])
    rec = _answerer(root, sha, llm, embedder).answer("Did Northwind Widgets plc announce a share buyback plan?",
                                                       "boolean")
    assert rec.value is None and "unparseable after repair" in rec.error  # an error stores no answer


def test_comparative_is_split_and_compared_in_code(ingested, embedder):
    root, sha = ingested
    llm = ScriptedLLM([number_answer("7,710,615", "thousands", 7710615, [3]),
                       number_answer("1,204,330", "thousands", 1204330, [3])])
    q = 'Which of the companies had the lowest total assets: "Northwind Widgets plc", "Bluebird Mining Ltd"?'
    rec = _answerer(root, sha, llm, embedder).answer(q, "name")
    assert rec.value == "Bluebird Mining Ltd"
    assert [s["company"] for s in rec.sub_answers] == ["Northwind Widgets plc", "Bluebird Mining Ltd"]
    assert [s["value"] for s in rec.sub_answers] == [7_710_615_000.0, 1_204_330_000.0]
    assert {r["pdf_sha1"] for r in rec.references} == set(sha.values())
    # one number question per company, about the compared metric alone
    assert "What was the total assets of Bluebird Mining Ltd" in llm.requests[1]["messages"][1]["content"]
    llm = ScriptedLLM([number_answer("N/A", "units", "N/A", []), number_answer("1,204,330", "thousands", 1, [3])])
    rec = _answerer(root, sha, llm, embedder).answer(q.replace("lowest", "highest"), "comparative")
    # decided on one company's value it would be a confident guess: N/A, naming the company whose value is missing
    assert rec.value == "N/A" and rec.references == []
    assert "no value found and cited for Northwind Widgets plc" in " ".join(rec.notes)


def test_answer_log_resumes_and_lineage_is_queryable(ingested, embedder, tmp_path):
    root, sha = ingested
    questions = [Question(text="Did Northwind Widgets plc announce a share buyback plan?", kind="boolean"),
                 Question(text="What was the cash flow from operations (in USD) for Northwind Widgets plc?",
                          kind="number")]
    yes = {"step_by_step_analysis": "p1", "reasoning_summary": "yes", "relevant_pages": [1], "final_answer": True}
    log = AnswerLog(tmp_path / "a.jsonl")
    db = AnswerDB(tmp_path / "a.duckdb")
    first = answer_all(_answerer(root, sha, ScriptedLLM([yes]), embedder), questions[:1], log, db, run_id="r")
    assert len(first) == 1
    llm = ScriptedLLM([number_answer("406,100", "thousands", 406100, [3])])
    both = answer_all(_answerer(root, sha, llm, embedder), questions, log, db, run_id="r")
    assert [r["value"] for r in both] == [True, 406_100_000.0]
    assert len(llm.requests) == 1, "the answered question was not asked again"
    import duckdb

    con = duckdb.connect(str(db.path), read_only=True)  # nothing holds the file between writes
    rows = con.execute(
        "SELECT c.page_index, c.sent_to_llm, a.kind FROM answer_chunks c JOIN answers a USING (run_id, question_text) "
        "WHERE a.kind = 'number' ORDER BY c.rank LIMIT 1"
    ).fetchall()
    assert rows[0] == (3, True, "number")
    chunk_text = con.execute(
        f"SELECT p.text FROM answer_chunks c JOIN read_parquet('{root}/reports/*/chunks.parquet') p "
        "USING (chunk_id) WHERE c.run_id = 'r' AND c.rank = 1 AND c.question_text LIKE 'What was%'"
    ).fetchone()[0]
    assert "406,100" in chunk_text
    con.close()


def test_parse_json_loose_tolerates_fences_and_raw_newlines():
    assert parse_json_loose('```json\n{"a": "line1\nline2"}\n```') == {"a": "line1\nline2"}
    assert parse_json_loose('Sure! {"a": 1} trailing') == {"a": 1}
    with pytest.raises(ValueError):
        parse_json_loose("no json here")


class _FakeCompletions:
    """Mimics the openai client's chat.completions at the HTTP boundary."""

    def __init__(self, reject_formats, fail_times=0):
        self.reject = reject_formats
        self.fail_times = fail_times
        self.calls = []

    def create(self, **kw):
        self.calls.append(kw)
        rf = kw.get("response_format") or {}
        fmt = rf.get("type", "text") + ("_schema" if "schema" in rf else "")

        class Err(Exception):
            pass

        if self.fail_times:
            self.fail_times -= 1
            e = Err("rate limited")
            e.status_code = 429
            raise e
        if fmt in self.reject:
            e = Err(f"{fmt} unsupported")
            e.status_code = 500
            raise e
        from types import SimpleNamespace as NS

        body = '{"step_by_step_analysis":"a","reasoning_summary":"b","relevant_pages":[],"final_answer":false}'
        return NS(choices=[NS(message=NS(content=body))], usage=NS(prompt_tokens=10, completion_tokens=5))


def test_openai_route_steps_down_formats_and_retries():
    from types import SimpleNamespace as NS

    comp = _FakeCompletions(reject_formats={"json_schema", "json_object_schema"}, fail_times=1)
    llm = OpenAICompatibleLLM("gpt-x", client=NS(chat=NS(completions=comp)), max_retries=3)
    res = structured_call(llm, [{"role": "user", "content": "q"}], BooleanAnswer)
    assert res.value is not None and res.value.final_answer is False
    kinds = [c.get("response_format", {}).get("type") for c in comp.calls]
    assert kinds[:1] == ["json_schema"] and kinds[-1] == "json_object"
    assert llm.format_level(BooleanAnswer.model_json_schema()) == 2, "the working format is remembered"
    assert "maxLength" not in str(comp.calls[-2].get("response_format", {}))
    o_series = OpenAICompatibleLLM("o3-mini", client=NS(chat=NS(completions=_FakeCompletions(set()))))
    o_series.chat([{"role": "user", "content": "q"}], None, 100)
    sent = o_series.client.chat.completions.calls[0]
    assert "max_completion_tokens" in sent and "temperature" not in sent


def test_token_budget_waits():
    import time

    b = TokenBudget(tokens_per_minute=600)  # 10 tokens/s
    assert b.acquire(600) == 0
    t0 = time.monotonic()
    b.acquire(5)
    assert time.monotonic() - t0 >= 0.4


class ScriptedLLMResource(LLMResource):
    """The LLM resource with its client replaced by a scripted one (the model boundary)."""

    def client(self, cfg):
        yes = {"step_by_step_analysis": "p1", "reasoning_summary": "yes", "relevant_pages": [1], "final_answer": True,
               "evidence_quote": "the Board approved a share buyback programme of up to 5% of issued shares"}
        number = {"step_by_step_analysis": "[1] is the row", "candidate": 1, "value_as_written": "406,100"}
        no = {"step_by_step_analysis": "p1", "reasoning_summary": "no", "relevant_pages": [1], "final_answer": False,
              "evidence_quote": ""}
        return ScriptedLLM([yes, number, no])


def test_answers_and_evaluation_assets(ingested, tmp_path):
    import json

    from rag_assets.orchestration.answer_assets import answers, evaluation, question_set

    root, sha = ingested
    qs = [{"text": "Did Northwind Widgets plc announce a share buyback plan?", "kind": "boolean"},
          {"text": "What was the cash flow from operations (in USD) for Northwind Widgets plc?", "kind": "number"},
          {"text": "Did Northwind Widgets plc announce a share buyback programme?", "kind": "boolean"}]
    (tmp_path / "q.json").write_text(json.dumps(qs))
    nw = sha["Northwind Widgets plc"]
    gold = {qs[0]["text"]: {"kind": "boolean", "answers": ["True"], "reference_pools": [[f"{nw}:1"]]},
            qs[1]["text"]: {"kind": "number", "answers": ["406100000"], "reference_pools": [[f"{nw}:3"], [f"{nw}:5"]]},
            qs[2]["text"]: {"kind": "boolean", "answers": ["True"], "reference_pools": [[f"{nw}:1"]]}}
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    store = ReportStore(data_root=str(root), questions=str(tmp_path / "q.json"), gold=str(tmp_path / "gold.json"))
    with dg.instance_for_test() as instance:
        result = dg.materialize([question_set, answers, evaluation], partition_key="local", instance=instance,
                                resources={"store": store, "llm": ScriptedLLMResource(), "embedder": EmbedderResource()},
                                selection=["answers", "evaluation"])
        # every evaluation also records the latest figures of each configuration side by side (plotted)
        accuracy = instance.get_latest_materialization_event(dg.AssetKey("accuracy_by_config"))
        from rag_assets.orchestration.monitoring import accuracy_metadata, latest_evaluations

        latest = latest_evaluations(instance)
    assert result.success
    plotted = accuracy.asset_materialization.metadata
    assert plotted["local G_percent"].value == pytest.approx(100 * 2 / 3, abs=0.1)
    assert "| local | 3 |" in plotted["configurations"].value
    assert set(latest) == {"local"} and latest["local"]["G_percent"] == plotted["local G_percent"].value
    both = accuracy_metadata({**latest, "winner": {"questions": 3, "G_percent": 100.0}})
    assert both["winner G_percent"] == 100.0 and both["local G_percent"] == plotted["local G_percent"].value
    meta = result.asset_materializations_for_node("answers")[0].metadata
    assert meta["questions"].value == 3 and meta["errors"].value == 0
    assert (meta["answers_reused"].value, meta["answered_in_this_run"].value) == (0, 3)  # issue 47 item 1: said
    ev = result.asset_materializations_for_node("evaluation")[0].metadata
    (ev,) = [m.metadata for m in result.asset_materializations_for_node("evaluation")
             if m.asset_key == dg.AssetKey("evaluation")]  # the node also records accuracy_by_config
    assert ev["accuracy_number"].value == 1.0
    # the tables behind the score: per kind, none/value confusion, retrieval vs reading misses
    assert "| number | 1 | 1 | 1.000 |" in ev["tables"].value and ev["gold_value_answered_none"].value == 1
    assert ev["value_miss_retrieval"].value + ev["value_miss_reading"].value == 1
    # the wrong answer (and only it) is a row, linked to the partition view of its cited and gold pages
    (row,) = ev["wrong_answers"].value.records
    assert row.data["question"] == qs[2]["text"] and row.data["answer"] == "False" and row.data["gold"] == "True"
    assert row.data["gold_pages"] == f"Northwind Widgets plc p1 (printed 2) (Northwind Widgets plc 2023 {nw[:8]})"  # partition
    from rag_assets.viewer.evidence import answer_url  # the same wrong answer, a clickable link to the viewer

    assert f"({answer_url('http://127.0.0.1:3100', 'local', qs[2]['text'], 'boolean')})" in ev["wrong_answers_evidence"].value
    sub = json.loads((root / "answers" / "local" / "submission.json").read_text())
    assert [a["value"] for a in sub["answers"]] == [True, 406100000.0, False]
    assert sub["answers"][1]["references"] == [{"pdf_sha1": nw, "page_index": 3}]


def test_llm_reranker_blends_scores_and_reorders():
    from rag_assets.retrieval.rerank import LLMReranker
    from rag_assets.retrieval.search import RetrievedPage

    pages = [RetrievedPage("s", i, score, f"text of page {i}", []) for i, score in [(7, 0.9), (8, 0.5), (9, 0.1)]]
    llm = ScriptedLLM([{"page_rankings": [
        {"page": 7, "reasoning": "unrelated", "relevance_score": 0.0},
        {"page": 8, "reasoning": "so-so", "relevance_score": 0.5},
        {"page": 9, "reasoning": "answers it", "relevance_score": 1.0},
    ]}])
    ranked, usage = LLMReranker(llm, batch=3, llm_weight=0.7).rerank("q", pages, top=2)
    assert [p.page_index for p in ranked] == [9, 8]
    assert ranked[0].score == pytest.approx(0.3 * 0.0 + 0.7 * 1.0)
    assert ranked[1].score == pytest.approx(0.3 * 0.5 + 0.7 * 0.5)
    assert usage["calls"] == 1 and len(llm.requests) == 1
    assert "PAGE 7" in llm.requests[0]["messages"][1]["content"]


def test_names_not_in_the_context_are_dropped(ingested, embedder):
    root, sha = ingested
    copied = {"step_by_step_analysis": "x", "reasoning_summary": "x", "relevant_pages": [1],
              "final_answer": ["W-200", "SmartHub"]}
    rec = _answerer(root, sha, ScriptedLLM([copied]), embedder).answer(
        "What are the names of new products launched by Northwind Widgets plc?", "names")
    assert rec.value == "N/A" and rec.references == [] and rec.grounded is False
    real = {"step_by_step_analysis": "x", "reasoning_summary": "x", "relevant_pages": [1],
            "final_answer": ["Margaret Okafor", "Invented Person"]}
    rec = _answerer(root, sha, ScriptedLLM([real]), embedder).answer(
        "Who are the executives of Northwind Widgets plc?", "names")
    assert rec.value == ["Margaret Okafor"] and "Invented Person" in " ".join(rec.notes)
    one = {"step_by_step_analysis": "x", "reasoning_summary": "x", "relevant_pages": [1], "final_answer": "Nobody"}
    strict = _answerer(root, sha, ScriptedLLM([one]), embedder, grounding="na_if_ungrounded")
    assert strict.answer("Who is the CEO of Northwind Widgets plc?", "name").value == "N/A"


def test_strict_policy_needs_verifiable_evidence(ingested, embedder):
    root, sha = ingested
    q = "Did Northwind Widgets plc announce a share buyback plan?"

    def yes(quote):
        return {"step_by_step_analysis": "x", "reasoning_summary": "x", "relevant_pages": [1],
                "evidence_quote": quote, "final_answer": True}

    def run(answer, question=q, kind="boolean"):
        return _answerer(root, sha, ScriptedLLM([answer]), embedder, grounding="na_if_ungrounded").answer(
            question, kind)

    rec = run(yes("the Board approved a share buyback programme of up to 5% of issued shares"))
    assert rec.value is True and rec.evidence_ok is True and rec.references
    rec = run(yes("The company bought back lots of shares in a big programme."))  # not in the report
    assert rec.value is False and rec.evidence_ok is False and rec.references == []
    rec = run(yes("Management reviewed the portfolio of activities"))  # in the report, off topic
    assert rec.value is False and rec.evidence_ok is False
    num = {**number_answer("406,100", "thousands", 406100, [3]),
           "evidence_quote": "| Cash flow from operating activities | 406,100 | 388,250 |"}
    rec = run(num, "What was the cash flow from operating activities (in USD) for Northwind Widgets plc?", "number")
    assert rec.value == 406_100_000.0 and rec.evidence_ok
    wrong_row = {**num, "evidence_quote": "| Revenue | 2,950,400 | 2,610,900 |"}
    rec = run(wrong_row, "What was the cash flow from operating activities (in USD) for Northwind Widgets plc?",
              "number")
    assert rec.value == "N/A", "the quoted row does not hold the value"


def test_answers_asset_without_an_llm_backend_fails_with_what_to_install(ingested, tmp_path, monkeypatch):
    import json

    from rag_assets.orchestration.answer_assets import answers, question_set
    from rag_assets.llm import embedded as llm_embedded
    from rag_assets.orchestration.resources import LLMResource

    root, sha = ingested
    (tmp_path / "q.json").write_text(json.dumps([{"text": "Did Northwind Widgets plc buy back shares?",
                                                  "kind": "boolean"}]))
    monkeypatch.setattr(llm_embedded, "installed_backends", lambda: [])
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(tmp_path / "models"))
    store = ReportStore(data_root=str(root), questions=str(tmp_path / "q.json"))
    with dg.instance_for_test() as instance:
        result = dg.materialize([question_set, answers], partition_key="local", instance=instance,
                                resources={"store": store, "llm": LLMResource(), "embedder": EmbedderResource()},
                                selection=["answers"], raise_on_error=False)
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    assert "no embedded LLM backend" in failure.step_failure_data.user_failure_data.description
    assert not (tmp_path / "models").exists(), "no model download before the backend check"


def test_citations_are_matched_on_report_and_page(ingested, embedder):
    """Defect 8 (issue 10): one company with two reports, both sent with a page 3; the model cites 'page 3'
    and the reference is the report whose page 3 prints the value, not the first page 3 in the context."""
    root, sha = ingested
    nw, bb = sha["Northwind Widgets plc"], sha["Bluebird Mining Ltd"]
    reports = {nw: "Northwind Widgets plc", bb: "Northwind Widgets plc"}
    # two filings of one company that are no annual reports (an annual report of each year would route to the
    # latest): a question naming no period reads both
    filings = {s: Filing(s, "Northwind Widgets plc", "current") for s in (nw, bb)}
    cfg = get_config("local", grounding="cite_verified", number_reader="pages", top_pages=8, max_context_tokens=6000)
    q = "What were the total assets (in USD) of Northwind Widgets plc?"
    probe = build_answerer(cfg, root, reports, llm=ScriptedLLM([number_answer("N/A", "units", "N/A", [])]),
                           embedder=embedder, filings=filings).answer(q, "number")
    threes = [p["pdf_sha1"] for p in probe.pages_sent if p["page_index"] == 3]
    assert set(threes) == {nw, bb}, "both reports' page 3 are in the context"
    second = threes[1]  # the report a page-number-only match would miss
    value = {nw: ("7,710,615", 7710615), bb: ("1,204,330", 1204330)}[second]
    llm = ScriptedLLM([number_answer(value[0], "thousands", value[1], [3])])
    rec = build_answerer(cfg, root, reports, llm=llm, embedder=embedder, filings=filings).answer(q, "number")
    assert rec.references == [{"pdf_sha1": second, "page_index": 3}]


def test_unverifiable_citations_are_dropped_by_default_with_an_opt_out(ingested, embedder):
    """Defect 9 (issue 10): the API presets keep an answer of 42 but not its citation of a page without 42;
    the notes flag it; ``grounding=off`` keeps the citation as given."""
    from rag_assets.config import RunConfig

    root, sha = ingested
    reports = {v: k for k, v in sha.items()}
    q = "What was the cash flow from operations (in USD) for Northwind Widgets plc?"
    assert RunConfig(name="x").grounding == "cite_verified"
    for preset in ("hybrid-api", "winner"):
        cfg = get_config(preset, rerank="none", top_pages=3)
        assert cfg.grounding == "cite_verified"
        rec = build_answerer(cfg, root, reports, llm=ScriptedLLM([number_answer("42", "units", 42, [3])]),
                             embedder=embedder).answer(q, "number")
        assert rec.value == 42.0 and rec.references == [] and rec.grounded is False
        assert "no page in the context shows the answer: nothing cited" in rec.notes
    off = get_config("hybrid-api", rerank="none", grounding="off")
    rec = build_answerer(off, root, reports, llm=ScriptedLLM([number_answer("42", "units", 42, [3])]),
                         embedder=embedder).answer(q, "number")
    assert rec.value == 42.0 and rec.references == [{"pdf_sha1": sha["Northwind Widgets plc"], "page_index": 3}]


def test_cited_page_without_the_value_gives_way_to_the_page_that_has_it(ingested, embedder):
    root, sha = ingested
    q = "What was the cash flow from operations (in USD) for Northwind Widgets plc?"
    rec = _answerer(root, sha, ScriptedLLM([number_answer("406,100", "thousands", 406100, [1])]), embedder).answer(
        q, "number")
    assert rec.value == 406_100_000.0 and rec.grounded is True
    assert rec.references == [{"pdf_sha1": sha["Northwind Widgets plc"], "page_index": 3}]
    assert any("dropped: [1]" in n for n in rec.notes) and any("cited instead" in n for n in rec.notes)


def test_names_of_a_change_need_a_quote_that_says_it_happened(ingested, embedder):
    root, sha = ingested
    q = "Which leadership positions changed at Northwind Widgets plc in the reporting period?"

    def names(final, quote):
        return {"step_by_step_analysis": "x", "reasoning_summary": "x", "relevant_pages": [1],
                "evidence_quote": quote, "final_answer": final}

    def run(answer):
        return _answerer(root, sha, ScriptedLLM([answer]), embedder, grounding="na_if_ungrounded").answer(q, "names")

    said = run(names(["non-executive directors"],
                     "the Board appointed Priya Raman and Tomasz Lewicki as non-executive directors"))
    assert said.value == ["non-executive directors"] and said.evidence_ok and said.references
    # printed and on topic, but the quote does not say the position changed: not proven
    unsaid = run(names(["chief executive officer"], "Our chief executive officer, Margaret Okafor, led the business"))
    assert unsaid.value == "N/A" and unsaid.evidence_ok is False
    assert "does not say that it happened" in " ".join(unsaid.notes)


def test_comparative_sub_questions_search_the_compared_metric_only(ingested, embedder):
    from rag_assets.answer.routing.question_text import comparative_metric

    q = ('Which of the companies had the lowest total assets in USD in their annual reports: "Northwind Widgets '
         'plc", "Bluebird Mining Ltd"? If data is not available, return \'N/A\'.')
    assert comparative_metric(q) == "total assets in USD"
    assert comparative_metric('Which of the companies had the highest Operating margin (%): "A", "B"?') == \
        "Operating margin (%)"
    root, sha = ingested
    picks = [{"step_by_step_analysis": "the headcount sentence", "candidate": 1, "value_as_written": v}
             for v in ("4,210", "812")]
    a = _answerer(root, sha, ScriptedLLM(picks), embedder, number_reader="candidates")
    rec = a.answer('Which of the companies had the lowest number of employees: "Northwind Widgets plc", '
                   '"Bluebird Mining Ltd"?', "comparative")
    # "the Group employed 4,210 people" names the metric; the other company's name is not part of the search
    assert [s["value"] for s in rec.sub_answers] == [4210.0, 812.0]
    assert rec.value == "Bluebird Mining Ltd"
    # the viewer highlights each company's own figure on its own page
    from rag_assets.viewer.evidence import needles

    shown = needles(rec.to_dict())
    assert {sha1 for sha1, _ in shown} == {r["pdf_sha1"] for r in rec.references} and len(shown) == 2
    assert sorted(t for texts in shown.values() for t in texts if t in ("4,210", "812")) == ["4,210", "812"]


def test_evaluate_config_on_a_fresh_instance_fails_in_one_line_without_questions(tmp_path):
    """Issue 28: launched from the UI on a fresh instance, the job reads the question set itself (no confirm
    dialog about a never-materialized upstream) and a missing file is one line, not a stack trace."""
    from rag_assets.orchestration.definitions import build_definitions, default_resources

    resources = {**default_resources({}), "store": ReportStore(data_root=str(tmp_path / "data"))}
    job = build_definitions(resources).resolve_job_def("evaluate_config")
    assert {k.to_user_string() for k in job.asset_layer.executable_asset_keys} >= {"question_set", "answers"}
    with dg.instance_for_test() as instance:
        result = job.execute_in_process(partition_key="local", instance=instance, raise_on_error=False)
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    assert failure.step_key == "question_set"
    said = failure.step_failure_data.user_failure_data.description
    assert "questions" in said and "not found" in said and "\n" not in said
