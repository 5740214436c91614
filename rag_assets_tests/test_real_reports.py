"""Ingestion of real ERC2 annual reports (skipped where ../shared/erc is absent)."""

from __future__ import annotations

import shutil

import dagster as dg
import pytest

from rag_assets.orchestration.definitions import ingestion_graph
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.index.bm25 import BM25Index
from rag_assets.storage.artifacts import read_chunks, read_pages
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore

pytestmark = pytest.mark.real_data

DOWNER = "0a61a353b1ea9fd9b8f63b60239634ca3007d58f"  # Downer EDI, 148 pages
ENCRYPTED = "2fd79ae4ebe4943384c119eb1d1e9286ba3c5074"  # encrypted with an empty password


@pytest.mark.parametrize("sha1", [DOWNER, ENCRYPTED])
def test_real_report_ingests(erc, data_home, sha1):
    pdf = erc / "pdfs" / f"{sha1}.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} not in this copy of the ERC data")
    inbox = data_home / "pdfs"
    inbox.mkdir()
    shutil.copy(pdf, inbox / pdf.name)
    shutil.copy(erc / "subset.csv", inbox / "subset.csv")
    store = ReportStore()
    (src,) = store.scan_inbox()
    assert src.sha1 == sha1 and src.company_name and src.company_name != sha1
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(reports_partitions.name, [sha1])
        res = {
                "store": store,
                "parser": ParserResource(route="weight_free"),
                "embedder": EmbedderResource(provider="onnx"),
                "llm": LLMResource(),
            }
        result = dg.materialize(ingestion_graph(res), partition_key=sha1, instance=instance, resources=res)
    assert result.success
    assert all(c.passed for c in result.get_asset_check_evaluations())
    paths = store.paths(sha1)
    pages = read_pages(paths.pages)
    chunks = read_chunks(paths.chunks)
    assert len(pages) > 40 and chunks.n_tokens.max() <= 300
    assert (chunks.kind == "table").sum() > 10
    if sha1 == DOWNER:
        # the balance sheet is zero-based page 61 of the PDF; its rows are single markdown lines
        assert "| Total assets |  | 7,461.0 | 8,072.1 |" in pages[61].text.splitlines()
        hits = BM25Index.load(paths.bm25_dir).search("total assets statement of financial position", 5)
        pages_hit = set(chunks.set_index("chunk_id").loc[[h for h, _ in hits], "page_index"])
        assert 61 in pages_hit
