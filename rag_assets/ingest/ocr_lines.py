"""Text-line recognition on OpenVINO for RapidOCR's pipeline: RapidOCR's own model, resizing, batches and CTC
decoding, with two changes measured on 2 cores (48 dense report pages scanned at 150 dpi):

- two batches are in flight on two streams where two threads are allowed: RapidOCR's loop leaves a core idle
  while Python resizes and decodes (1.26 -> 1.10 s/page, median of 3).
- batch widths are rounded up to ``WIDTH_STEP`` pixels. OpenVINO prepares and keeps buffers for each new input
  shape (~80 ms the first time); a report's lines bring a new width every few batches, so without the step
  the process grew by ~250 MiB every 8 pages (3.6 GiB after 48); with it, it levels off at ~1.8 GiB.
  Speed is the same; 3 of ~2,000 words read differently (one better, two worse).
"""

from __future__ import annotations

import math
import time

import numpy as np

WIDTH_STEP = 64  # px; lines are 48 px high, so a batch pads at most 1.3 line heights


class LineRecognizer:
    """Stands in for RapidOCR's ``TextRecognizer`` (``inner``) and calls its model through ``compiled`` (an
    OpenVINO compiled model of the same file) with ``streams`` batches in flight."""

    def __init__(self, inner, compiled, streams: int = 1, width_step: int = WIDTH_STEP):
        import openvino as ov

        self.inner = inner
        self.width_step = width_step
        self.queue = ov.AsyncInferQueue(compiled, max(1, streams))
        self.queue.set_callback(self._finished)
        self._outputs: dict[int, np.ndarray] = {}

    def _finished(self, request, key: int) -> None:
        self._outputs[key] = request.get_output_tensor().data.copy()  # the request's buffer is reused

    def batches(self, ratios: list[float]) -> list[tuple[np.ndarray, int]]:
        """Line indices per batch (narrowest lines first, as RapidOCR) and each batch's padded width."""
        _, height, min_width = self.inner.rec_image_shape[:3]
        order = np.argsort(np.array(ratios))
        size = self.inner.rec_batch_num
        out = []
        for start in range(0, len(order), size):
            idx = order[start:start + size]
            width = max(min_width, int(height * max(ratios[i] for i in idx)))  # RapidOCR's width, then the step
            out.append((idx, math.ceil(width / self.width_step) * self.width_step))
        return out

    def __call__(self, args):
        from rapidocr.ch_ppocr_rec.typings import TextRecOutput

        t0 = time.perf_counter()
        images = [args.img] if isinstance(args.img, np.ndarray) else list(args.img)
        ratios = [im.shape[1] / im.shape[0] for im in images]
        height = self.inner.rec_image_shape[1]
        plan = self.batches(ratios)
        self._outputs = {}
        for key, (idx, width) in enumerate(plan):
            batch = np.stack([self.inner.resize_norm_img(images[i], (width + 0.5) / height) for i in idx])
            self.queue.start_async([batch], key)
        self.queue.wait_all()
        results = [("", 0.0)] * len(images)
        for key, (idx, width) in enumerate(plan):
            lines, _ = self.inner.postprocess_op(self._outputs.pop(key), False,
                                                 wh_ratio_list=[ratios[i] for i in idx], max_wh_ratio=width / height)
            for i, line in zip(idx, lines):
                results[i] = line
        texts, scores = (tuple(x) for x in zip(*results)) if results else ((), ())
        return TextRecOutput(images, texts, scores, (None,) * len(images), time.perf_counter() - t0)


def install(engine, model_path: str, threads: int, keep: tuple[int, ...] | None = None, precision: str = "") -> None:
    """Replace ``engine``'s line recognizer (a RapidOCR on OpenVINO) by a ``LineRecognizer`` over
    ``model_path``, with two streams when ``threads`` (0: every core) allows two. ``keep``: the model reads
    only these columns of the source model's characters (a pruned output layer); the decoder gets the same."""
    import os

    import openvino as ov

    threads = threads or os.cpu_count() or 1
    streams = 2 if threads >= 2 else 1
    config = {"NUM_STREAMS": streams, "INFERENCE_NUM_THREADS": threads}
    if precision:
        config["INFERENCE_PRECISION_HINT"] = precision
    compiled = ov.Core().compile_model(model_path, "CPU", config)
    inner = engine._load_rec_model()  # RapidOCR's recognizer: its resizing, its decoder, its settings
    inner.session = None  # its own compiled copy is not used
    if keep is not None:
        characters = inner.postprocess_op.character
        inner.postprocess_op.character = [characters[i] for i in keep]
        inner.postprocess_op.dict = {char: i for i, char in enumerate(inner.postprocess_op.character)}
    engine.text_rec = LineRecognizer(inner, compiled, streams)
