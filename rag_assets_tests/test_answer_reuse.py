"""An answer is reused only if the same settings, model, prompts and report indexes produced it (issue 24,
item 1): a second run with another configuration, model or override, or after a report was rebuilt into other
files or replaced, answers again, and its submission names the configuration that really ran; a rebuild that
writes the same files (an unchanged PDF materialized again) keeps the answers (issue 39)."""

from __future__ import annotations

import json

from rag_assets.answer.service.fingerprint import run_label, settings_fingerprint
from rag_assets.cli.main import main
from rag_assets.config import get_config, with_overrides
from rag_assets_tests.conftest import NORTHWIND
from rag_assets_tests.test_faults import UNKNOWN_Q, _questions, ingested  # noqa: F401 - the fixture

CASH_Q = {"text": f"What was the cash flow from operating activities (in USD) for {NORTHWIND.company} according "
                  "to the annual report?", "kind": "number"}


def _log_lines(out) -> list[dict]:
    return [json.loads(line) for line in out.with_name(out.name + ".progress.jsonl").read_text().splitlines()]


def test_the_fingerprint_follows_every_setting_the_model_and_the_prompts(monkeypatch, tmp_path):
    local = get_config("local")
    assert settings_fingerprint(local) == settings_fingerprint(get_config("local"))
    assert settings_fingerprint(local) != settings_fingerprint(with_overrides(local, {"top_pages": "5"}))
    assert settings_fingerprint(local) != settings_fingerprint(get_config("local-fast"))
    before = settings_fingerprint(local)
    monkeypatch.setenv("RAG_ASSETS_GGUF", str(tmp_path / "other.gguf"))  # another model file, same name
    assert settings_fingerprint(local) != before
    monkeypatch.delenv("RAG_ASSETS_GGUF")
    from rag_assets.llm.prompts import prompts_dir

    for name in ("same", "edited"):  # a copy of the prompts, and a copy with one prompt edited
        (tmp_path / name).mkdir()
        for p in prompts_dir().glob("*.yaml"):
            (tmp_path / name / p.name).write_text(p.read_text())
    edited = tmp_path / "edited" / "number_pick.yaml"
    edited.write_text(edited.read_text() + "\nnote: edited\n")
    monkeypatch.setenv("RAG_ASSETS_PROMPTS", str(tmp_path / "same"))
    assert settings_fingerprint(local) == before
    monkeypatch.setenv("RAG_ASSETS_PROMPTS", str(tmp_path / "edited"))
    assert settings_fingerprint(local) != before
    monkeypatch.setenv("RAG_ASSETS_PROMPTS", str(tmp_path / "same"))
    assert settings_fingerprint(local) == before
    monkeypatch.setattr("rag_assets.answer.service.fingerprint.code_version", lambda: "another version of the code")
    assert settings_fingerprint(local) != before
    assert run_label(local) == "local"
    assert run_label(with_overrides(local, {"top_pages": "5"})) == "local+top_pages=5"


def test_the_answering_data_files_are_part_of_the_code_version():
    """The metric library and the lexicon decide answers as much as the code: an edit of either answers again
    (they were left out of the hash, so a changed line item reused answers made with the old one)."""
    from rag_assets.answer.service.fingerprint import answering_files

    names = {f.name for f in answering_files()}
    assert {"metrics.yaml", "lexicon.yaml", "plan.py", "config.py"} <= names


def test_another_configuration_model_or_index_answers_again(ingested, tmp_path, capsys):  # noqa: F811
    q = _questions(tmp_path, CASH_Q, UNKNOWN_Q)
    out = tmp_path / "answers.json"
    fast = ["--config", "local-fast"]
    assert main(["answer", q, "--out", str(out), *fast]) == 0
    assert len(_log_lines(out)) == 2
    capsys.readouterr()

    assert main(["answer", q, "--out", str(out), *fast]) == 0  # the same run again: nothing to answer
    assert "resuming: 2 answer(s) reused" in capsys.readouterr().out
    assert len(_log_lines(out)) == 2

    assert main(["answer", q, "--out", str(out), *fast, "--set", "top_pages=2"]) == 0
    said = capsys.readouterr().out
    assert "resuming: 0 answer(s) reused" in said and "2 made with other settings" in said
    assert len(_log_lines(out)) == 4
    assert json.loads(out.read_text())["submission_name"] == "rag_assets-local-fast+top_pages=2"
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({UNKNOWN_Q["text"]: {"kind": "number", "answers": ["N/A"], "reference_pools": []}}))
    only_unknown = tmp_path / "unknown.json"
    only_unknown.write_text(json.dumps([UNKNOWN_Q]))
    assert main(["evaluate", "--config", "local-fast", "--set", "top_pages=2", "--questions", str(only_unknown),
                 "--gold", str(gold)]) == 0
    [folder] = (ingested / "answers").glob("local-fast+*")  # not the preset's own answers folder
    assert f"answers, submission and evaluation.json -> {folder}" in capsys.readouterr().out
    evaluation = json.loads((folder / "evaluation.json").read_text())
    assert evaluation["summary"]["configuration"] == "local-fast+top_pages=2"
    assert main(["evaluate", "--config", "local-fast", "--set", "top_pages=2", "--questions", str(only_unknown),
                 "--gold", str(gold)]) == 0  # evaluate says what it reuses (issue 47 item 1)
    assert "resuming: 1 answer(s) reused" in capsys.readouterr().out

    assert main(["answer", q, "--out", str(out), "--config", "local", "--model", "qwen2.5-coder-0.5b",
                 "--set", "top_pages=2"]) == 0  # another preset with the same model: other settings still
    assert len(_log_lines(out)) == 6

    again = ["answer", q, "--out", str(out), "--config", "local", "--model", "qwen2.5-coder-0.5b",
             "--set", "top_pages=2"]
    assert main(["ingest", str(ingested / "pdfs"), "--force"]) == 0  # rebuilt from unchanged PDFs: same bytes
    capsys.readouterr()
    assert main(again) == 0
    said = capsys.readouterr().out
    assert "resuming: 2 answer(s) reused" in said, said  # answers are keyed by the files' content (issue 39)
    assert len(_log_lines(out)) == 6

    # other chunks (the data root's setting, changed on the command line): the indexes really change
    assert main(["ingest", str(ingested / "pdfs"), "--chunk-context", "deterministic"]) == 0
    capsys.readouterr()
    assert main(again) == 0
    said = capsys.readouterr().out
    assert "resuming: 1 answer(s) reused" in said, said  # the unknown company's N/A touches no index
    lines = _log_lines(out)
    assert len(lines) == 7 and lines[-1]["question_text"] == CASH_Q["text"]


def test_one_text_asked_as_two_kinds_is_two_answers_and_a_repeat_is_answered_once(ingested, tmp_path, capsys):  # noqa: F811
    """Issue 47 item 3: answers were keyed by text, so one text asked as two kinds got one answer (the other lost
    or wrong), and a repeated question was answered twice."""
    as_name = {**UNKNOWN_Q, "kind": "name"}
    q = _questions(tmp_path, UNKNOWN_Q, as_name, UNKNOWN_Q)
    out = tmp_path / "answers.json"
    assert main(["answer", q, "--out", str(out), "--config", "local-fast"]) == 0
    assert "note: 1 question(s) repeat an earlier one" in capsys.readouterr().out
    assert sorted(r["kind"] for r in _log_lines(out)) == ["name", "number"]  # each (text, kind) answered once
    assert len(json.loads(out.read_text())["answers"]) == 3  # the submission answers every question asked
    assert main(["answer", q, "--out", str(out), "--config", "local-fast"]) == 0
    assert "resuming: 2 answer(s) reused" in capsys.readouterr().out and len(_log_lines(out)) == 2
