"""Pure answering logic: numbers, routing, prompts, the challenge's scorer."""

from __future__ import annotations

import json

import pytest

from rag_assets.answer.evidence.numbers import NA, grounded, parse_number, resolve_number
from rag_assets.llm.prompts import build_messages, load_prompt
from rag_assets.answer.service.questions import QuestionsFileError, load_questions
from rag_assets.answer.routing.router import Router, normalize_name
from rag_assets.llm.schemas import SCHEMAS, NumberAnswer
from rag_assets.answer.service.scoring import evaluate, reference_score, value_score


@pytest.mark.parametrize(
    "text,expected",
    [
        ("$406.1 million", 406_100_000.0),
        ("(1,234)", -1234.0),
        ("-5.5", -5.5),
        ("12.5%", 12.5),
        ("EUR 1.2bn", 1_200_000_000.0),
        ("3,5 Mio", 3_500_000.0),
        ("1.234.567", 1_234_567.0),
        ("2.3k", 2300.0),
        (406100, 406100.0),
        ("N/A", NA),
        ("not available", NA),
        ("", NA),
    ],
)
def test_parse_number(text, expected):
    assert parse_number(text) == expected


def test_resolve_number_trusts_written_figure_and_scale():
    assert resolve_number(406100, "406,100", "thousands") == 406_100_000
    assert resolve_number(406_100_000, "406,100", "thousands") == 406_100_000
    assert resolve_number(406.1, "$406.1 million", "units") == 406_100_000
    assert resolve_number("N/A", "406,100", "thousands") == NA
    assert resolve_number(-1234, "(1,234)", "units") == -1234
    assert resolve_number(55.0, "12", "units") == 55.0, "unrelated figures: keep the model's final answer"


def test_grounding_finds_value_in_any_unit():
    page = "| Cash flow from operating activities | 406,100 | 388,250 |"
    assert grounded(406_100_000, [page]) and grounded(406_100, [page])
    assert grounded(19_970_000, ["Net cash provided by operations was $19.97 million"])
    assert not grounded(123_456, [page])


def test_router_exact_normalized_and_unknown():
    router = Router({"a" * 40: "Bionano Genomics, Inc.", "b" * 40: "Downer EDI Limited", "c" * 40: "Downer EDI Limited",
                     "d" * 40: "Seiko Epson Corporation"})
    (r,) = router.route("Did Bionano Genomics, Inc. mention any mergers?")
    assert r.company == "Bionano Genomics, Inc." and r.sha1s == ("a" * 40,)
    (r,) = router.route("did bionano genomics mention mergers?")
    assert r.company == "Bionano Genomics, Inc."
    (r,) = router.route("Did 'Downer EDI Ltd' announce a buyback?")
    assert r.sha1s == ("b" * 40, "c" * 40), "a company with two reports routes to both"
    routes = router.route('Which of the companies had the lowest total assets: "Seiko Epson Corp", "Downer EDI"?')
    assert [x.company for x in routes] == ["Seiko Epson Corporation", "Downer EDI Limited"]
    assert router.route("What was the revenue of Unknown Widgets plc?") == []
    assert normalize_name("The Kroger Co.") == "kroger" and normalize_name("SEIKO EPSON CORP") == "seiko epson"


def test_a_name_written_with_initials_is_the_name_written_as_one_word():
    """'J.P. Morgan' is 'JPMorgan' and 'U.S. Umbrella' is 'US Umbrella' (no company was named before); single
    letters before a word are no name by themselves."""
    router = Router({"a" * 40: "JPMorgan", "b" * 40: "US Umbrella Corp", "c" * 40: "Abacus Holdings"})
    assert [r.company for r in router.route("What was J.P. Morgan's net income in 2Q23?")] == ["JPMorgan"]
    assert [r.company for r in router.route("What were U.S. Umbrella's sales?")] == ["US Umbrella Corp"]
    assert router.route("What was a b c company's revenue?") == []


def test_every_prompt_assembles_with_schema_and_example():
    for name in ["number", "name", "names", "boolean", "comparative", "rerank"]:
        prompt = load_prompt(name)
        assert prompt.schema is SCHEMAS[name] and prompt.example["question"]
        # the one-shot example is itself a valid answer of the schema
        prompt.schema.model_validate(prompt.example["answer"])
        messages, schema = build_messages(name, context="PAGE 1\ntext", question="Q?")
        assert schema is prompt.schema
        assert "{shared." not in messages[0]["content"] and "Example" in messages[0]["content"]
        assert messages[1]["content"].endswith("Question: Q?")
    rules = load_prompt("number").instruction
    assert "in thousands" in rules and "parentheses" in rules and "another currency" in rules


def test_schema_is_lenient_with_small_model_output():
    parsed = NumberAnswer.model_validate({
        "step_by_step_analysis": "x" * 5000, "reasoning_summary": "ok", "relevant_pages": ["p12", 3, "page 4"],
        "value_as_written": 406100, "scale": "Thousand", "final_answer": "$406.1 million",
    })
    assert len(parsed.step_by_step_analysis) == 1200 and parsed.relevant_pages == [12, 3, 4]
    assert parsed.scale == "thousands" and parsed.value_as_written == "406100"


def test_questions_file_errors_are_clear(tmp_path):
    p = tmp_path / "q.json"
    p.write_text("{not json")
    with pytest.raises(QuestionsFileError, match="not valid JSON"):
        load_questions(p)
    p.write_text(json.dumps([{"text": "ok?", "kind": "number"}, {"text": "x", "kind": "essay"}, {"kind": "name"}]))
    with pytest.raises(QuestionsFileError, match=r"2 invalid question\(s\).*question 1.*question 2"):
        load_questions(p)
    p.write_text(json.dumps([{"text": "What?", "kind": "names"}]))
    assert load_questions(p)[0].kind == "names"
    with pytest.raises(QuestionsFileError, match="not found"):
        load_questions(tmp_path / "missing.json")


def test_value_and_reference_scores_follow_the_rules():
    assert value_score("number", 206_100_000, ["206100000.0"]) == 1
    assert value_score("number", 208_000_000, ["206100000.0"]) == 1, "within 1%"
    assert value_score("number", 210_000_000, ["206100000.0"]) == 0
    assert value_score("number", "N/A", ["N/A"]) == 1 and value_score("number", 5.0, ["N/A"]) == 0
    assert value_score("boolean", True, ["True"]) == 1 and value_score("boolean", False, ["True"]) == 0
    assert value_score("name", "non-executive director", ["Non-Executive Director"]) == 1
    assert value_score("names", ["A", "B"], [["a", "c"]]) == pytest.approx(1 / 3)
    pools = [["s:1", "s:2"], ["s:9"]]
    assert reference_score([("s", 1), ("s", 9)], pools) == 1.0
    assert reference_score([("s", 1)], pools) == 0.75
    assert reference_score([("s", 1), ("s", 5), ("s", 6)], pools) == pytest.approx(0.55)
    assert reference_score([], []) == 1.0 and reference_score([("s", 3)], []) == pytest.approx(0.9)
    assert reference_score([("x", 1)] * 1 + [("x", k) for k in range(2, 20)], pools) == 0.0


def test_scorer_on_real_gold_ranks_the_winner_above_the_floor(erc):
    gold = json.loads((erc / "answers.json").read_text())
    winner = json.loads((erc / "reference_answers" / "erc2_winner_o3-mini.json").read_text())["answers"]
    perfect = [{"question_text": q, "kind": g["kind"], "value": g["answers"][0],
                "references": [{"pdf_sha1": pool[0].split(":")[0], "page_index": int(pool[0].split(":")[1])}
                               for pool in g["reference_pools"]]} for q, g in gold.items()]
    floor = [{"question_text": q, "kind": g["kind"], "value": False if g["kind"] == "boolean" else "N/A",
              "references": []} for q, g in gold.items()]
    s_perfect, s_winner, s_floor = (evaluate(x, gold).summary() for x in (perfect, winner, floor))
    assert s_perfect["G_percent"] == 100.0 and s_perfect["R_percent"] == 100.0
    gold_false = sum(1 for g in gold.values() if g["answers"] == ["False"])
    value_qs = sum(1 for g in gold.values() if g["answers"] != ["N/A"])
    assert s_floor["value_accuracy"] == round(gold_false / value_qs, 3), "the floor only gets gold False right"
    assert s_floor["na_accuracy"] == 1.0
    assert s_winner["score_per_100"] > s_floor["score_per_100"]


def test_scaled_numbers_have_no_float_noise():
    from rag_assets.answer.readers.passage_reader import final_value
    from rag_assets.llm.schemas import NumberAnswer

    parsed = NumberAnswer(step_by_step_analysis="", reasoning_summary="", relevant_pages=[],
                          value_as_written="2.043", scale="billions", final_answer=2.043)
    assert final_value("number", parsed) == 2_043_000_000
    assert str(final_value("number", parsed)) == "2043000000.0"


def test_a_question_holding_a_lone_surrogate_is_read_as_text_and_a_key_in_the_url_is_never_written(tmp_path):
    """Issue 40, items 12 and 13: a byte the terminal could not decode ('\\udcff') in a questions file, and a
    user name and key inside the base URL of an OpenAI-compatible endpoint."""
    import json as _json

    from rag_assets.answer.service.fingerprint import run_label
    from rag_assets.answer.service.questions import load_questions
    from rag_assets.config import get_config

    path = tmp_path / "q.json"
    path.write_text(_json.dumps([{"text": "What was X\udcff's revenue?", "kind": "number"}]), encoding="utf-8")
    [q] = load_questions(path)
    assert q.text == "What was X\ufffd's revenue?" and q.text.encode("utf-8")
    cfg = get_config("local").model_copy(update={"base_url": "http://analyst:sk-SECRET@10.0.0.1:8080/v1"})
    label = run_label(cfg)
    assert "SECRET" not in label and "analyst" not in label and "base_url=http://10.0.0.1:8080/v1" in label


def test_the_retrieval_query_drops_the_company_with_its_possessive_and_only_as_a_word():
    """The possessive left behind ("Is 's business cyclical?") was a topic word of its own, so a statement that
    printed every real topic word covered less than half of them and was never judged."""
    from rag_assets.answer.routing.question_text import retrieval_query

    assert retrieval_query("Is Fjordlys Ferjer's business cyclical?", "Fjordlys Ferjer") == "Is business cyclical?"
    assert retrieval_query("Did Kystlinjen AS’ revenue grow?", "Kystlinjen AS") == "Did revenue grow?"
    assert retrieval_query("What is Adobe Inc.'s revenue?", "Adobe Inc.") == "What is revenue?"
    assert retrieval_query("Does Fjordlysville run ferries?", "Fjordlys") == "Does Fjordlysville run ferries?"


def test_the_company_as_the_question_writes_it_is_dropped_from_the_query():
    """A report never prints an analyst's abbreviation of its company ('BM' for Bluebird Mining): left in the query, it was a
    topic word no statement could print (a yes/no found nothing). The router keeps each form it matched."""
    from rag_assets.answer.routing.question_text import retrieval_query
    from rag_assets.answer.routing.router import Router

    router = Router({"a" * 40: "Bluebird Mining", "b" * 40: "Northwind Traders"},
                    {"Northwind Traders": ("Northwind Traders Holdings plc",)})
    [route] = router.route("Did BM's copper output rise in 2Q23 versus 2Q22?")
    assert (route.company, route.written) == ("Bluebird Mining", ("BM",))
    assert retrieval_query("Did BM's copper output rise in 2Q23 versus 2Q22?", route.company,
                           route.written) == "Did copper output rise in 2Q23 versus 2Q22?"
    [route] = router.route("Was NORTHWIND TRADERS HOLDINGS' fleet larger in 2022?")
    assert route.written == ("NORTHWIND TRADERS HOLDINGS",)
    assert retrieval_query("Was NORTHWIND TRADERS HOLDINGS' fleet larger in 2022?", route.company,
                           route.written) == "Was fleet larger in 2022?"
