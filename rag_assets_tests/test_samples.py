"""The sample reports, their question set and gold, and the prompts' one-shot examples: a model must not be
able to answer the quickstart's questions by copying an example."""

from __future__ import annotations

import re

import pytest

from rag_assets.answer.evidence.numbers import parse_number
from rag_assets.llm.prompts import build_messages, load_prompt, prompts_dir
from rag_assets.tools.samples import ABSENT_COMPANY, SAMPLES, page_texts, sample_questions, write_sample_questions

ANSWER_PROMPTS = ["number", "boolean", "name", "names", "comparative", "rerank"]


@pytest.fixture(scope="module")
def sample_text(sample_pdfs) -> str:
    return "\n".join(t for p in sample_pdfs for t in page_texts(p))


def _fixed_prompt_text(name: str) -> str:
    """Everything a prompt sends besides the context and question: instruction, schema and example."""
    messages, _ = build_messages(name, context="", question="")
    return "\n".join(m["content"] for m in messages)


def _figures(text: str) -> set[str]:
    """Figures of three or more digits, with their separators removed (7,710,615 -> 7710615)."""
    return {re.sub(r"[,.\s]", "", m) for m in re.findall(r"\d[\d,.]*\d", text) if len(re.sub(r"\D", "", m)) >= 3}


def _proper_names(text: str) -> set[str]:
    return set(re.findall(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+\b", text))


@pytest.mark.parametrize("name", ANSWER_PROMPTS)
def test_no_one_shot_example_figure_or_name_is_in_a_sample_report(name, sample_text):
    fixed = _fixed_prompt_text(name)
    report_figures = _figures(sample_text)
    copied = {f for f in _figures(fixed) if f in report_figures and not re.fullmatch(r"(19|20)\d\d", f)}
    assert not copied, f"{name}: example figures printed in a sample report: {sorted(copied)}"
    names = {n for n in _proper_names(fixed) if n in sample_text}
    assert not names, f"{name}: example names printed in a sample report: {sorted(names)}"
    quote = _squash(load_prompt(name).example.get("answer", {}).get("evidence_quote", ""))
    assert not quote or quote not in _squash(sample_text), f"{name}: the example's quote is in a sample report"


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def test_the_check_would_catch_a_copied_example(sample_text):
    """The same check, on the old examples' Northwind figures, fails: it is not a test that cannot fail."""
    old = "Revenue for 2023 is 2,950,400 ... Our chief executive officer, Margaret Okafor"
    assert _figures(old) & _figures(sample_text) and _proper_names(old) & _proper_names(sample_text)


def test_prompt_folder_holds_the_checked_prompts():
    assert {p.stem for p in prompts_dir().glob("*.yaml")} >= set(ANSWER_PROMPTS)


def test_sample_questions_cover_every_kind_and_their_gold_is_printed_on_the_gold_pages(sample_pdfs, tmp_path):
    sha = {r.company: f"sha-{i}" for i, r in enumerate(SAMPLES)}
    questions, gold = sample_questions(SAMPLES, sha)
    assert {q["kind"] for q in questions} == {"number", "boolean", "name", "names", "comparative"}
    assert any(ABSENT_COMPANY in q["text"] and gold[q["text"]]["answers"] == ["N/A"] for q in questions)
    texts = {r.company: page_texts(next(p for p in sample_pdfs if p.name == r.file_name)) for r in SAMPLES}
    by_sha = {v: k for k, v in sha.items()}
    for q in questions:
        g = gold[q["text"]]
        for pool in g["reference_pools"]:
            s, page = pool[0].split(":")
            page_text = texts[by_sha[s]][int(page)]
            answer = g["answers"][0]
            if g["kind"] == "number":
                printed = {parse_number(f) for f in re.findall(r"\(?\d[\d,]*\)?", page_text)}
                assert answer / 1000 in printed or answer in printed, q["text"]
            elif g["kind"] in ("name", "names"):
                for name in answer if isinstance(answer, list) else [answer]:
                    assert name in page_text, q["text"]
    (tmp_path / "pdfs").mkdir()
    for p in sample_pdfs:
        (tmp_path / "pdfs" / p.name).write_bytes(p.read_bytes())
    qpath, gpath = write_sample_questions(tmp_path)
    assert qpath.exists() and gpath.exists()
