"""The embedder resource of a run lets its model go when the run ends (issue 46: one process ingesting 28 filings
grew to 2.5 GiB, a model of ~100 MB a run waiting for Python's cycle collector)."""

import gc
import weakref

import dagster as dg

from rag_assets.orchestration.resources import EmbedderResource


def test_a_runs_model_is_freed_when_the_run_ends_not_when_the_cycle_collector_runs():
    seen: list = []

    @dg.asset
    def vectors(embedder: EmbedderResource) -> int:
        model = embedder.get()
        seen.append(weakref.ref(model))
        return int(model.embed(["Net sales rose 5 % to $3.2 billion."]).shape[1])

    gc.disable()  # what a long ingestion meets between collections
    try:
        for _ in range(2):
            result = dg.materialize([vectors], resources={"embedder": EmbedderResource(provider="onnx")})
            assert result.success and result.output_for_node("vectors") == 384
        assert len(seen) == 2 and seen[0]() is None and seen[1]() is None
    finally:
        gc.enable()
