"""Cross-encoders for page reranking, loaded from a local folder: an ONNX export (``model.onnx`` or
``onnx/model.onnx`` beside ``tokenizer.json``) runs on onnxruntime, which the base install has; any other folder
is a sentence-transformers model and needs the ``[torch]`` extra. Either one scores (question, passage) pairs
with one logit each: higher is more relevant."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from rag_assets.index.tensors import padded

ONNX_NAMES = ("model.onnx", "onnx/model.onnx")


def onnx_file(folder: Path) -> Path | None:
    return next((folder / name for name in ONNX_NAMES if (folder / name).is_file()), None)


class OnnxCrossEncoder:
    """A BERT-style sequence classifier exported to ONNX. Pairs are encoded as ``[CLS] question [SEP] passage
    [SEP]`` (token types 0 then 1) by the folder's tokenizer, the passage truncated to ``max_length`` tokens
    in all, and run in batches padded to their longest pair. A two-label head gives the logit of label 1
    against label 0."""

    def __init__(self, folder: Path, max_length: int = 512, batch_size: int = 4, threads: int | None = None):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        model = onnx_file(folder)
        if model is None or not (folder / "tokenizer.json").is_file():
            raise ValueError(f"{folder}: an ONNX cross-encoder needs {' or '.join(ONNX_NAMES)} and tokenizer.json")
        self.tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tok.no_padding()
        self.tok.enable_truncation(max_length=max_length, strategy="only_second")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or os.cpu_count() or 1
        self.session = ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.batch_size = batch_size

    def predict(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        """One relevance logit per (question, passage) pair, in order."""
        encs = self.tok.encode_batch(pairs) if pairs else []
        out = np.zeros(len(encs), dtype=np.float32)
        for start in range(0, len(encs), self.batch_size):
            batch = encs[start : start + self.batch_size]
            ids, mask = padded([e.ids for e in batch])
            types, _ = padded([e.type_ids for e in batch])
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            (logits,) = self.session.run(None, {k: v for k, v in feed.items() if k in self.inputs})[:1]
            logits = np.asarray(logits, dtype=np.float32).reshape(len(batch), -1)
            out[start : start + len(batch)] = logits[:, 1] - logits[:, 0] if logits.shape[1] == 2 else logits[:, 0]
        return out


def load_cross_encoder(path: str):
    """The cross-encoder in folder ``path``: ONNX if it holds an export, else sentence-transformers."""
    if not path:
        raise ValueError("the cross-encoder reranker needs cross_encoder_path (a local model folder)")
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise ValueError(f"cross_encoder_path {path}: no such folder")
    if onnx_file(folder) is not None:
        return OnnxCrossEncoder(folder)
    try:
        from sentence_transformers import CrossEncoder
    except ImportError:
        raise ValueError(f"cross_encoder_path {path}: no {ONNX_NAMES[0]} there, and a sentence-transformers model "
                         "needs the [torch] extra (pip install -e '.[torch]')") from None
    return CrossEncoder(str(folder), device="cpu")
