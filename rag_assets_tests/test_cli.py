"""The rag-assets command: ingest is idempotent, reports failures per report, and knows its folders."""

from __future__ import annotations

import json

import pytest
import dagster as dg

from rag_assets.cli.main import ingest, main
from rag_assets.storage.catalog import Catalog, file_sha1


def test_ingest_twice_is_idempotent(inbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    first = ingest(inbox, quiet=True)
    assert [r["status"] for r in first] == ["ok", "ok"]
    assert all(r["pages"] == 6 and r["chunks"] >= 5 for r in first)
    second = ingest(inbox, quiet=True)
    assert [r["status"] for r in second] == ["up to date", "up to date"]
    instance = dg.DagsterInstance.get()
    assert set(instance.get_dynamic_partitions("reports")) == {r["partition"] for r in first}
    assert set(instance.get_materialized_partitions(dg.AssetKey("bm25_index"))) == {r["partition"] for r in first}
    assert all(r["partition"].endswith(" " + r["sha1"][:8]) for r in first)  # "<company> <year> <sha1[:8]>"
    names = {r["company"] for r in first}
    assert names == {"Northwind Widgets plc", "Bluebird Mining Ltd"}


def _up_to_date_evaluations(instance) -> tuple[dict, set]:
    """Asset -> the outcomes of its up_to_date check evaluations in order, and the run ids they were stored under."""
    records = instance.get_event_records(dg.EventRecordsFilter(event_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION),
                                         ascending=True)
    outcomes, run_ids = {}, set()
    for r in records:
        e = r.event_log_entry.dagster_event.event_specific_data
        if e.check_name == "up_to_date":
            outcomes.setdefault(e.asset_key.path[-1], []).append((e.passed, e.metadata["stale_partitions"].value))
            run_ids.add(r.run_id)
    return outcomes, run_ids


def test_ingest_reports_each_assets_up_to_date_check_without_running_it_as_a_step(inbox, tmp_path, monkeypatch):
    """The up_to_date checks were steps of every ingestion run (7 more a run: on a cluster, 7 more processes);
    `rag-assets ingest` now reports them once its runs are done, again on every later ingestion that built
    something (a partitioned runless evaluation could be stored only once)."""
    from rag_assets.ingest.stages import STAGES

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    rows = ingest(inbox, quiet=True)
    assert ingest(inbox, quiet=True, force=True) and ingest(inbox, quiet=True)  # the last one builds nothing
    instance = dg.DagsterInstance.get()
    outcomes, run_ids = _up_to_date_evaluations(instance)
    assert outcomes == {stage: [(True, 0), (True, 0)] for stage in STAGES}
    assert not run_ids & {run.run_id for run in instance.get_runs()}  # reported, not evaluated in a run
    steps = [e.step_key for run in instance.get_runs() for e in
             instance.all_logs(run.run_id, of_type=dg.DagsterEventType.STEP_START)]
    assert not any(s.endswith("up_to_date") for s in steps)
    assert steps.count("bm25_index_bm25_docs_match_chunks") == 2 * len(rows)  # the blocking checks still run


def test_bad_ingestion_setting_in_the_environment_is_one_line(inbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    monkeypatch.setenv("RAG_ASSETS_CHUNK_CONTEXT", "sometimes")
    assert main(["ingest", str(inbox)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: RAG_ASSETS_CHUNK_CONTEXT='sometimes'") and "\n" not in err
    assert not (inbox.parent / "reports").exists(), "nothing ingested"
    # the command line's setting wins over the environment's, and is the data root's from then on
    monkeypatch.setenv("RAG_ASSETS_CHUNK_CONTEXT", "deterministic")
    rows = ingest(inbox, quiet=True, chunk_context="none")
    assert json.loads((inbox.parent / "settings.json").read_text())["chunk_context"] == "none"
    assert [r["status"] for r in rows] == ["ok", "ok"]
    from rag_assets.storage.artifacts import read_chunks
    from rag_assets.storage.paths import ReportPaths

    chunks = read_chunks(ReportPaths(inbox.parent, rows[0]["sha1"]).chunks)
    assert (chunks["context"] == "").all(), "no deterministic context: the flag's 'none' was used"


def test_ingest_reports_a_bad_pdf_and_goes_on(inbox, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    (inbox / "zero.pdf").write_bytes(b"")
    code = main(["ingest", str(inbox)])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAILED" in out and "empty" in out
    assert out.count(" ok") == 2


def test_report_without_subset_row_is_named_by_file(tmp_path, sample_pdfs):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    target = folder / "Acme_Holdings_2024.pdf"
    target.write_bytes(sample_pdfs[0].read_bytes())
    cat = Catalog(tmp_path / "catalog.json")
    (src,) = cat.scan(folder)
    assert src.company_name == "Acme Holdings 2024" and src.sha1 == file_sha1(target)
    cat.save()
    assert Catalog(tmp_path / "catalog.json").get(src.sha1).path == str(target.resolve())


def test_ingest_missing_folder_exits_2(tmp_path, capsys):
    assert main(["ingest", str(tmp_path / "nope")]) == 2
    assert "not found" in capsys.readouterr().err


def test_retrieve_writes_ranked_pages_and_hits(inbox, tmp_path, monkeypatch, capsys):
    import json

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    rows = ingest(inbox, quiet=True)
    nw = next(r["sha1"] for r in rows if r["company"] == "Northwind Widgets plc")
    q = tmp_path / "q.json"
    qs = [{"text": "What were the total assets of Northwind Widgets plc?", "kind": "number"},
          {"text": "Who is the CEO of Nobody Known Ltd?", "kind": "name"}]
    q.write_text(json.dumps(qs))
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({qs[0]["text"]: {"kind": "number", "answers": ["7710615000"],
                                                "reference_pools": [[f"{nw}:3"]]}}))
    out = tmp_path / "ranked.jsonl"
    for mode in ("bm25", "hybrid"):
        assert main(["retrieve", str(q), "--top-k", "3", "--out", str(out), "--gold", str(gold),
                     "--set", f"retrieval={mode}"]) == 0
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        assert [x["question_text"] for x in lines] == [x["text"] for x in qs]
        assert lines[0]["pages"][0] == {"pdf_sha1": nw, "page_index": 3, "score": lines[0]["pages"][0]["score"]}
        assert lines[1]["pages"] == [], "an unknown company retrieves nothing"
        assert "page_hit@1 1.000" in capsys.readouterr().out


def test_answer_rejects_malformed_questions(tmp_path, capsys):
    q = tmp_path / "q.json"
    q.write_text('[{"text": "x"}]')
    assert main(["answer", str(q), "--out", str(tmp_path / "a.json")]) == 2
    assert "invalid question" in capsys.readouterr().err
    assert not (tmp_path / "a.json").exists()


def test_quickstart_ends_with_answers_and_their_pages_then_ask_works(data_home, tmp_path, monkeypatch, capsys):
    """The README's first command on an empty data root, with a real embedded model (Qwen2.5-Coder-0.5B:
    SmolLM2-135M loops inside JSON strings, and an unparseable output is an error, not an answer): sample reports, ingestion, the sample
    questions and gold, every answer printed with its pages."""
    import json

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    assert main(["quickstart", "--model", "qwen2.5-coder-0.5b"]) == 0
    out = capsys.readouterr().out
    questions = json.loads((data_home / "questions.json").read_text())
    gold = json.loads((data_home / "answers_gold.json").read_text())
    assert {q["kind"] for q in questions} == {"number", "boolean", "name", "names", "comparative"}
    assert set(gold) == {q["text"] for q in questions}
    for i, q in enumerate(questions, 1):
        assert f"[{i}/{len(questions)}] {q['text']}" in out
    assert out.count("   pages: ") == len(questions) and "score against answers_gold.json" in out
    [folder] = (data_home / "answers").glob("local+*")  # the preset with the --model override, said in the output
    assert f"into {folder} ..." in out
    evaluation = json.loads((folder / "evaluation.json").read_text())
    assert evaluation["summary"]["questions"] == len(questions)
    unknown = next(r for r in evaluation["rows"] if "Contoso" in r["question_text"])
    assert unknown["value"] == "N/A" and unknown["references"] == [] and unknown["error"] is None
    assert main(["ask", "Who was the chief executive officer of Bluebird Mining Ltd?", "--model", "qwen2.5-coder-0.5b"]) == 0
    assert "kind: name" in capsys.readouterr().out


def test_no_llm_backend_is_one_line_and_exit_2_before_any_download(inbox, tmp_path, monkeypatch, capsys):
    from rag_assets.llm import embedded as llm_embedded

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    ingest(inbox, quiet=True)
    capsys.readouterr()  # what ingestion printed is not the verb's output
    models = tmp_path / "models"
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(models))
    monkeypatch.setattr(llm_embedded, "installed_backends", lambda: [])
    assert main(["ask", "Did Northwind Widgets plc announce a share buyback plan?"]) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: no embedded LLM backend") and "pip install" in errors[0]
    assert "Traceback" not in err
    llm_files = [p for p in models.rglob("*") if p.is_file() and p.parent != models / "onnx"]  # onnx: the
    assert not llm_files, "no model download before the backend check"  # fused embedding graph, built locally


def test_a_reader_that_leaves_early_gets_no_traceback():
    """`rag-assets plan ... | head -1`: the pipe closes before the plan is written; the verb stops quietly."""
    import subprocess
    import sys

    proc = subprocess.run(f"{sys.executable} -m rag_assets.cli.main plan --kind number "
                          "\"What was Acme's revenue in 2021?\" | true", shell=True, capture_output=True,
                          text=True, timeout=120)  # 'true' reads nothing: the pipe is closed before the plan
    assert "Traceback" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("setting", ["top_pages=0", "candidate_pages=-3", "max_output_tokens=0", "llm_retries=-1",
                                     "number_verify_min=1.5"])
def test_a_setting_out_of_its_bounds_is_one_error_line(setting, capsys):
    """Issue 47, item 7: '--set top_pages=0' answered N/A with 'pages sent: []'; a setting is validated with its
    bounds before anything runs."""
    assert main(["ask", "--kind", "number", "--set", setting, "What was Acme's revenue in 2021?"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and err[-1].startswith(f"error: --set {setting}") and "Traceback" not in "\n".join(err)


def test_out_may_be_neither_the_questions_file_nor_a_folder(tmp_path, capsys):
    """Issue 47, item 4: '--out' equal to the questions file overwrote the questions (exit 0), and a folder ended in
    a traceback after every question was answered. Both are one error line before anything runs."""
    import json

    q = tmp_path / "q.json"
    q.write_text(json.dumps([{"text": "What was Acme's revenue in 2021?", "kind": "number"}]))
    before = q.read_bytes()
    assert main(["answer", str(q), "--out", str(q)]) == 2
    assert q.read_bytes() == before and "is an input of this run" in capsys.readouterr().err
    assert main(["answer", str(q), "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


@pytest.mark.parametrize("content, said", [
    ('{"chunk', "settings.json: not valid JSON"),
    ('{"colour": 1}', "not a settings file of this project"),
    ('{"chunk_context": "sometimes"}', "chunk_context='sometimes'"),
])
def test_a_damaged_data_root_settings_file_is_one_line(tmp_path, monkeypatch, capsys, content, said):
    """The data root's settings.json, cut, foreign or out of range: one error line naming the file, exit 2."""
    monkeypatch.setenv("RAG_ASSETS_HOME", str(tmp_path))
    (tmp_path / "settings.json").write_text(content)
    assert main(["settings"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"error: {tmp_path / 'settings.json'}") and said in err
    assert err.count(str(tmp_path / "settings.json")) == 1


def test_plan_shows_the_plan_the_answerer_makes_with_the_company_routed(inbox, tmp_path, monkeypatch, capsys):
    """`rag-assets plan` plans as answering does: the company as the question writes it owns the figure
    ('Northwind Widgets plc total assets'), and a count says what it is of; with no reports ingested, the plan
    of the words alone, and nothing is written to the data root."""
    question = "What were the Northwind Widgets plc total assets in 2023?"
    assert main(["plan", "--kind", "number", question]) == 0
    alone = capsys.readouterr().out
    assert "company:" not in alone and not (inbox.parent / "answers").exists()
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "dagster_home"))
    ingest(inbox, quiet=True)
    assert main(["plan", "--kind", "number", question]) == 0
    routed = capsys.readouterr().out
    assert "company: Northwind Widgets plc" in routed and "total assets 2023" in routed
    assert main(["plan", "--kind", "number", "How many people did Northwind Widgets plc employ in Germany in 2023?"]) == 0
    assert "counts: employees (germany)" in capsys.readouterr().out
