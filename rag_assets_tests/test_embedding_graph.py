"""The fused copy of the packaged MiniLM graph: same vectors, built once, refused when it is not equal."""

import logging

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

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
    fused = MiniLMOnnxEmbedder()
    packaged = MiniLMOnnxEmbedder(fused=False)
    assert fused.model_path.startswith(str(tmp_path)) and fused.model_path != packaged.model_path
    ops = [n.op_type for n in onnx.load(fused.model_path, load_external_data=False).graph.node]
    assert ops.count("Attention") == 6 and "IsNaN" not in ops and "Softmax" not in ops
    cos = (fused.embed(TEXTS) * packaged.embed(TEXTS)).sum(axis=1)
    assert float(cos.min()) >= 0.9999
    built = tmp_path.joinpath("onnx").stat().st_mtime_ns, list(tmp_path.joinpath("onnx").iterdir())
    assert MiniLMOnnxEmbedder().model_path == fused.model_path  # the second embedder reuses the cached copy
    assert (tmp_path.joinpath("onnx").stat().st_mtime_ns, list(tmp_path.joinpath("onnx").iterdir())) == built


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
    assert alone.get().session.get_session_options().intra_op_num_threads == cores
    assert default_resources({"RAG_ASSETS_EMBED_THREADS": "3"})["embedder"].threads == 3
    with pytest.raises(SettingsError, match="RAG_ASSETS_EMBED_THREADS"):
        default_resources({"RAG_ASSETS_EMBED_THREADS": "-1"})
