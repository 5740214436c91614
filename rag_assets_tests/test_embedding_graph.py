"""The fused copy of the packaged MiniLM graph: same vectors, built once, refused when it is not equal; its int8
copy (the default): close vectors under another name, each text's vector its own."""

import logging
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from rag_assets.index import onnx_graph
from rag_assets.index.embedding import MiniLMOnnxEmbedder, fused_or_packaged
from rag_assets.index.onnx_graph import GraphPatternError, check_equal, fast_model_path

TEXTS = [
    "Total assets were 7,710,615 thousand USD at 31 December 2023.",
    "Cash flow from operating activities amounted to $406.1 million in FY2023.",
    "| Revenue | 1,234.5 | 1,100.2 |\n| Net income | (2,417) | 310 |",
    "The board approved a share buyback programme of up to 5% of issued shares.",
    "short",
    " ".join(f"Segment {i} revenue rose to {i * 13.7:.1f} million in the year." for i in range(60)),
]


def test_fused_graph_gives_the_packaged_vectors(tmp_path, monkeypatch):
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(tmp_path))
    fused = MiniLMOnnxEmbedder(graph="fp32")
    packaged = MiniLMOnnxEmbedder(graph="packaged")
    assert fused.model_path.startswith(str(tmp_path)) and fused.model_path != packaged.model_path
    ops = [n.op_type for n in onnx.load(fused.model_path, load_external_data=False).graph.node]
    assert ops.count("Attention") == 6 and "IsNaN" not in ops and "Softmax" not in ops
    cos = (fused.embed(TEXTS) * packaged.embed(TEXTS)).sum(axis=1)
    assert float(cos.min()) >= 0.9999
    built = tmp_path.joinpath("onnx").stat().st_mtime_ns, list(tmp_path.joinpath("onnx").iterdir())
    assert MiniLMOnnxEmbedder(graph="fp32").model_path == fused.model_path  # the second one reuses the cached copy
    assert (tmp_path.joinpath("onnx").stat().st_mtime_ns, list(tmp_path.joinpath("onnx").iterdir())) == built


def test_the_int8_graph_is_close_to_fp32_under_its_own_name_and_each_vector_is_its_texts(tmp_path, monkeypatch):
    """Issue 46: the default arithmetic is int8 (about twice as fast on VNNI cores). Its vectors are close to
    the fp32 ones but not equal, so they carry another name (an index of one is never searched with the other);
    one window a call, so a text embedded alone or among others, or twice, gets the same bytes."""
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(tmp_path))
    int8, fp32 = MiniLMOnnxEmbedder(), MiniLMOnnxEmbedder(graph="fp32")
    assert int8.graph == "int8" and int8.model_path.startswith(str(tmp_path)) and int8.batch_size == 1
    assert int8.model_name != fp32.model_name and fp32.model_name == MiniLMOnnxEmbedder.FP32_NAME
    ops = [n.op_type for n in onnx.load(int8.model_path, load_external_data=False).graph.node]
    assert ops.count("QAttention") == 6 and ops.count("MatMulInteger") >= 12
    assert "SkipLayerNormalization" not in ops and ops.count("LayerNormalization") == 13
    together = int8.embed(TEXTS + [TEXTS[1]])
    cos = (together[: len(TEXTS)] * fp32.embed(TEXTS)).sum(axis=1)
    assert 0.98 <= float(cos.min()) and float(cos.max()) < 0.99999  # close, not equal
    alone = np.vstack([int8.embed([t]) for t in TEXTS])
    assert np.array_equal(alone, together[: len(TEXTS)]) and np.array_equal(together[1], together[-1])
    (window,), _ = int8._windows([TEXTS[1]])  # its sessions keep the LayerNorms apart, as the check ran them
    ids = np.array([window])
    feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    ran = tmp_path / "ran.onnx"
    assert np.allclose(onnx_graph.pooled(onnx_graph.session(int8.model_path, split=True, saved_as=ran), feeds)[0],
                       together[1], atol=1e-6)
    assert "SkipLayerNormalization" not in {n.op_type for n in onnx.load(str(ran)).graph.node}


EMBED = """
import hashlib, json, sys
from rag_assets.index.embedding import MiniLMOnnxEmbedder
print(hashlib.sha256(MiniLMOnnxEmbedder().embed(json.loads(sys.argv[1])).tobytes()).hexdigest())
"""


def test_the_int8_vectors_are_the_same_bytes_in_any_process():
    """The same chunks give the same index bytes in any process (so answers are reused after a rebuild): the
    int8 arithmetic (activations quantized per call) included, in two fresh processes and this one."""
    import hashlib
    import json
    import subprocess
    import sys

    texts = json.dumps(TEXTS)
    runs = {subprocess.run([sys.executable, "-c", EMBED, texts], capture_output=True, text=True,
                           check=True).stdout.strip() for _ in range(2)}
    here = hashlib.sha256(MiniLMOnnxEmbedder().embed(TEXTS).tobytes()).hexdigest()
    assert runs == {here}


def test_an_int8_copy_that_fails_its_check_leaves_fp32_and_is_not_rebuilt_by_the_next_process(
        tmp_path, monkeypatch, caplog):
    """The failing side: a copy farther from fp32 than allowed is not cached; the embedder says so and runs
    the fp32 graph, whose vectors carry the fp32 name. The refusal is remembered on this machine, so the next
    embedder (each report's run makes one) does not quantize again (that took ~4 s and 60 MB a report)."""
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(tmp_path))
    monkeypatch.setattr(onnx_graph, "INT8_MIN_COSINE", 1.01)  # no int8 copy is that close
    with caplog.at_level(logging.WARNING):
        e = MiniLMOnnxEmbedder()
    assert (e.graph, e.model_name) == ("fused", MiniLMOnnxEmbedder.FP32_NAME)
    assert "fp32 graph" in caplog.text and "int8 copy's vectors differ" in caplog.text
    assert not list(tmp_path.joinpath("onnx").glob("*int8*.onnx")), "nothing half-written is cached"
    (refused,) = tmp_path.joinpath("onnx").glob("*.refused")

    import onnxruntime.quantization

    def no_second_build(*args, **kwargs):
        raise AssertionError("the refused copy was built again")

    monkeypatch.setattr(onnxruntime.quantization, "quantize_dynamic", no_second_build)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        again = MiniLMOnnxEmbedder()
    assert again.graph == "fused" and "refused before on this CPU" in caplog.text
    monkeypatch.setattr(onnx_graph, "INT8_MIN_COSINE", 1.001)  # another check tries again
    with pytest.raises(AssertionError, match="built again"):
        onnx_graph.int8_model_path(Path(e.model_path))
    monkeypatch.setattr(onnx_graph, "INT8_MIN_COSINE", 1.01)
    refused.unlink()  # a removed refusal is tried again
    with pytest.raises(AssertionError, match="built again"):
        onnx_graph.int8_model_path(Path(e.model_path))


def _skip_norm_model(with_bias: bool):
    """One SkipLayerNormalization over (1, s, 8) inputs, as the fused graph has twelve."""
    rng = np.random.default_rng(3)
    inits = [numpy_helper.from_array(rng.normal(size=8).astype(np.float32), n) for n in ("gamma", "beta", "bias")]
    ins = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, "s", 8]) for n in ("x", "skip")]
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "s", 8])
    node = helper.make_node("SkipLayerNormalization", ["x", "skip", "gamma", "beta", *(["bias"] if with_bias else [])],
                            ["y"], domain="com.microsoft", epsilon=1e-12)
    graph = helper.make_graph([node], "skipnorm", ins, [out], inits if with_bias else inits[:2])
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets)


@pytest.mark.parametrize("with_bias", [True, False])
def test_a_split_skip_layer_norm_computes_what_the_fused_op_computes(tmp_path, with_bias):
    """Issue 46: ONNX Runtime's SkipLayerNormalization kernel is scalar (a quarter of the int8 graph's time);
    split into Add and LayerNormalization it gives the same numbers, and a split session does not fuse them
    back."""
    fused = _skip_norm_model(with_bias)
    onnx.save(fused, str(tmp_path / "fused.onnx"))
    assert onnx_graph.split_skip_layer_norms(fused.graph) == 1
    onnx.save(fused, str(tmp_path / "split.onnx"))
    assert [n.op_type for n in fused.graph.node] == ["Add", *(["Add"] if with_bias else []), "LayerNormalization"]
    rng = np.random.default_rng(5)
    feeds = {n: rng.normal(size=(1, 5, 8)).astype(np.float32) for n in ("x", "skip")}
    want = onnx_graph.session(tmp_path / "fused.onnx").run(None, feeds)[0]
    got = onnx_graph.session(tmp_path / "split.onnx", split=True, saved_as=tmp_path / "ran.onnx").run(None, feeds)[0]
    assert np.allclose(got, want, atol=1e-5)
    assert "SkipLayerNormalization" not in {n.op_type for n in onnx.load(str(tmp_path / "ran.onnx")).graph.node}
    if not with_bias:  # the failing side: a session not told so fuses them back (this pattern ORT knows)
        onnx_graph.session(tmp_path / "split.onnx", saved_as=tmp_path / "fused_again.onnx")
        assert "SkipLayerNormalization" in {n.op_type for n in onnx.load(str(tmp_path / "fused_again.onnx")).graph.node}


def test_int8_sessions_side_by_side_give_the_bytes_of_one(tmp_path, monkeypatch):
    """int8 runs one window a call, so each core runs a single-threaded session of its own; the vectors do not
    depend on how many there are."""
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(tmp_path))
    two, one = MiniLMOnnxEmbedder(threads=2), MiniLMOnnxEmbedder(threads=1)
    assert (len(two.sessions), len(one.sessions)) == (2, 1)
    assert np.array_equal(two.embed(TEXTS), one.embed(TEXTS))


def test_the_int8_check_reads_real_language_of_every_window_length():
    batches = onnx_graph.text_probe_batches()
    lengths = {int(m.sum()) for b in batches for m in b["attention_mask"]}
    assert lengths == {256, 131, 40, 7}
    first = batches[0]["input_ids"][0]
    assert first[0] == 101 and 102 in first and len({tuple(b["input_ids"][0][:8]) for b in batches}) == len(batches)


def _lookup_model(path, table: np.ndarray) -> str:
    """A graph with the embedder's inputs whose 'hidden states' are a table lookup: no attention in it."""
    ints = [helper.make_tensor_value_info(n, TensorProto.INT64, ["b", "s"])
            for n in ("input_ids", "attention_mask", "token_type_ids")]
    out = helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["b", "s", table.shape[1]])
    node = helper.make_node("Gather", ["table", "input_ids"], ["hidden"])
    graph = helper.make_graph([node], "lookup", ints, [out], [numpy_helper.from_array(table, "table")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return str(path)


def test_a_graph_it_cannot_rewrite_is_used_as_packaged(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("RAG_ASSETS_MODELS", str(tmp_path / "models"))
    src = _lookup_model(tmp_path / "lookup.onnx", np.random.default_rng(0).random((30522, 8), dtype=np.float32))
    with pytest.raises(GraphPatternError, match="no softmax"):
        fast_model_path(src)
    assert not [p for p in (tmp_path / "models").rglob("*") if p.is_file()], "nothing half-written is left"
    with caplog.at_level(logging.WARNING):
        assert fused_or_packaged(src) == src
    assert "packaged ONNX graph" in caplog.text and "no softmax" in caplog.text


def test_check_equal_refuses_a_graph_with_other_vectors(tmp_path):
    rng = np.random.default_rng(1)
    table = rng.random((30522, 8), dtype=np.float32)
    a = _lookup_model(tmp_path / "a.onnx", table)
    same = _lookup_model(tmp_path / "same.onnx", table.copy())
    other = _lookup_model(tmp_path / "other.onnx", rng.random((30522, 8), dtype=np.float32))
    assert check_equal(a, same) >= 0.99999
    with pytest.raises(GraphPatternError, match="differs"):
        check_equal(a, other)


def test_queued_runs_share_the_cores_and_the_cli_takes_them_all():
    import os

    from rag_assets.config import SettingsError
    from rag_assets.orchestration.definitions import default_resources

    cores = os.cpu_count() or 1
    assert default_resources({})["embedder"].threads == max(1, cores // 2)  # the queue's two runs at once
    alone = default_resources({}, runs_at_once=1)["embedder"]
    assert alone.threads == cores
    sessions = alone.get().sessions  # int8: a single-threaded session per core
    assert len(sessions) == cores and {s.get_session_options().intra_op_num_threads for s in sessions} == {1}
    assert default_resources({"RAG_ASSETS_EMBED_THREADS": "3"})["embedder"].threads == 3
    with pytest.raises(SettingsError, match="RAG_ASSETS_EMBED_THREADS"):
        default_resources({"RAG_ASSETS_EMBED_THREADS": "-1"})
