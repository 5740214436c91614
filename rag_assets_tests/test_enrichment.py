"""Table serialization and chunk contexts: table HTML, chunk placement, the LLM cache and cost counting,
and the real embedded LLM writing statements and contexts."""

from __future__ import annotations

import pytest
from docling_core.types.doc import DoclingDocument, TableCell, TableData
from docling_core.types.doc.document import ProvenanceItem
from docling_core.types.doc.base import BoundingBox

from rag_assets.ingest.chunk_context import clean_llm_context, document_outline, llm_chunk_contexts, page_headings
from rag_assets.ingest.chunking import ChunkingConfig, chunk_pages
from rag_assets.ingest.cleaning import PageText, document_pages
from rag_assets.llm.cache import LLMCache, LLMCost, cache_key
from rag_assets.ingest.parsing import parse_pdf_weight_free
from rag_assets.ingest.table_serialization import (
    _unique_blocks,
    blocks_by_table,
    document_tables,
    salvage_blocks,
    serialize_tables,
    table_html_parts,
)
from rag_assets_tests.conftest import embedded_llm
from rag_assets_tests.pdf_factory import two_column_table_pdf


def _cell(text, r, c, c_end=None, header=False):
    return TableCell(text=text, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                     end_col_offset_idx=c_end or c + 1, column_header=header)


def _doc_with_tables() -> DoclingDocument:
    """Page 1: intro text, a table with a merged header and an empty column; page 2: a one-column list."""
    doc = DoclingDocument(name="t")
    for n in (1, 2):
        doc.add_page(page_no=n, size={"width": 600, "height": 800})
    prov = lambda n: ProvenanceItem(page_no=n, bbox=BoundingBox(l=0, t=0, r=10, b=10), charspan=(0, 0))  # noqa: E731
    doc.add_text(label="text", text="Consolidated balance sheet (millions of yen)", prov=prov(1))
    cells = [
        _cell("", 0, 0, header=True), _cell("Fiscal year", 0, 1, 3, header=True), _cell("", 0, 3, header=True),
        _cell("", 1, 0, header=True), _cell("2012/3", 1, 1, header=True), _cell("2013/3", 1, 2, header=True),
        _cell("", 1, 3, header=True),
        _cell("Total assets", 2, 0), _cell("1,145,721", 2, 1), _cell("1,081,508", 2, 2), _cell("", 2, 3),
        _cell("Shareholders' equity", 3, 0), _cell("637,422", 3, 1), _cell("535,422", 3, 2), _cell("", 3, 3),
    ]
    doc.add_table(data=TableData(num_rows=4, num_cols=4, table_cells=cells), prov=prov(1))
    lst = [_cell("28 Independent auditor's report", 0, 0), _cell("34 Consolidated income", 1, 0)]
    doc.add_table(data=TableData(num_rows=2, num_cols=1, table_cells=lst), prov=prov(2))
    return doc


def test_table_html_keeps_merged_cells_and_drops_empty_columns():
    doc = _doc_with_tables()
    tables = document_tables(doc)
    assert [(t.page_index, t.ordinal) for t in tables] == [(0, 0)], "the one-column list is not a table to state"
    html = tables[0].html
    assert '<th colspan="2">Fiscal year</th>' in html
    assert "<td>Total assets</td><td>1,145,721</td><td>1,081,508</td></tr>" in html, html
    assert html.count("<tr>") == 4
    assert tables[0].context == "Consolidated balance sheet (millions of yen)"


def test_large_table_is_sent_in_parts_that_repeat_the_headers():
    doc = _doc_with_tables()
    item = doc.tables[0]
    parts = table_html_parts(item, max_tokens=20)
    assert len(parts) == 2
    for part in parts:
        assert "2012/3" in part and "Fiscal year" in part
    assert "Total assets" in parts[0] and "Shareholders" in parts[1]


def test_table_ordinals_match_the_cleaned_page_markdown(tmp_path):
    doc, _ = parse_pdf_weight_free(two_column_table_pdf(tmp_path / "t.pdf"), "t")
    pages = document_pages(doc)
    tables = document_tables(doc)
    assert tables and tables[0].page_index == 0 and tables[0].ordinal == 0
    assert "1,204.5" in tables[0].html and "Americas" in tables[0].html
    # the statements of ordinal 0 land right after the chunk holding that table
    blocks = {0: {0: ["Europe's segment result was EUR 1,204.5 million in 2024 and 1,100.2 million in 2023."]}}
    chunks = chunk_pages(pages, "x" * 40, ChunkingConfig(table_blocks=True), "Co", blocks)
    kinds = [c.kind for c in chunks]
    at = kinds.index("table_blocks")
    assert kinds[at - 1] == "table" and "1,204.5" in chunks[at - 1].text
    assert "Europe's segment result" in chunks[at].text
    off = chunk_pages(pages, "x" * 40, ChunkingConfig(table_blocks=False), "Co", blocks)
    assert "table_blocks" not in [c.kind for c in off]


def test_statements_are_packed_within_the_budget_and_stay_on_their_page():
    table = "| | 2024 |\n|---|---|\n| Revenue | 10 |"
    pages = [PageText(0, "Income statement\n\n" + table, 1), PageText(1, "Notes\n\n" + table, 1)]
    stmt = "Revenue in the income statement was 10 in 2024, as reported in the consolidated accounts. " * 3
    blocks = {0: {0: [stmt] * 12}, 1: {0: ["Revenue in the notes was 10 in 2024."]}}
    cfg = ChunkingConfig(table_blocks=True, max_tokens=120)
    chunks = chunk_pages(pages, "y" * 40, cfg, "Co", blocks)
    block_chunks = [c for c in chunks if c.kind == "table_blocks"]
    assert len([c for c in block_chunks if c.page_index == 0]) >= 3
    assert all(c.n_tokens <= 120 for c in block_chunks)
    assert all(c.text.startswith("Income statement") for c in block_chunks if c.page_index == 0)
    assert [c.text for c in block_chunks if c.page_index == 1] == ["Notes\nRevenue in the notes was 10 in 2024."]


def test_a_cut_off_reply_keeps_its_complete_blocks_once():
    raw = (
        '{"information_blocks": [{"subject_core_entity": "Revenue", "information_block": "Revenue was \\"$5.2m\\" in 2023."},'
        ' {"subject_core_entity": "Revenue", "information_block": "Revenue was \\"$5.2m\\" in 2023."},'
        ' {"subject_core_entity": "Cost", "information_block": "Cost of sal'
    )
    found = salvage_blocks(raw)
    assert found == [("Revenue", 'Revenue was "$5.2m" in 2023.')] * 2
    assert _unique_blocks(found) == [{"subject_core_entity": "Revenue", "information_block": 'Revenue was "$5.2m" in 2023.'}]
    assert salvage_blocks("no json at all") == []


def test_llm_cache_round_trip_and_key(tmp_path):
    cache = LLMCache(tmp_path / "c.sqlite")
    k = cache_key("table_serialization", "m1", "v1", "<table/>")
    assert cache.get(k) is None
    cache.put(k, [{"subject_core_entity": "a", "information_block": "b"}], "table_serialization", "m1", "v1")
    cache.close()
    again = LLMCache(tmp_path / "c.sqlite")
    assert again.get(k) == [{"subject_core_entity": "a", "information_block": "b"}]
    assert again.count("table_serialization") == 1
    assert cache_key("table_serialization", "m2", "v1", "<table/>") != k
    assert cache_key("table_serialization", "m1", "v2", "<table/>") != k


def test_llm_context_is_one_line_of_at_most_75_words():
    text = "Context: " + " ".join(f"w{i}" for i in range(120)) + "\n\nmore"
    out = clean_llm_context(text)
    assert len(out.split()) == 75 and out.startswith("w0") and "\n" not in out


def test_outline_spreads_over_the_report_and_adds_local_headings():
    pages = [PageText(i, f"## Heading {i}\n\ntext", 0) for i in range(200)]
    outline = document_outline(page_headings(pages), near_page=150, global_n=10, local_n=5, window=3)
    lines = outline.splitlines()
    assert "p0: Heading 0" in lines and "p180: Heading 180" in lines, "spread over the whole report"
    assert {"p148: Heading 148", "p150: Heading 150", "p152: Heading 152"} <= set(lines), "the nearest headings"
    assert "p153: Heading 153" not in lines and len(lines) == 15
    assert lines == sorted(lines, key=lambda ln: int(ln.split(":")[0][1:]))


def test_cost_counts_calls_tokens_and_seconds():
    from rag_assets.llm.clients import LLMResponse

    cost = LLMCost(model="m")
    cost.add_calls([LLMResponse("x", "m", 100, 20, 1.5), LLMResponse("y", "m", 50, 5, 0.5)])
    meta = cost.as_metadata()
    assert meta["llm_calls"] == 2 and meta["llm_prompt_tokens"] == 150 and meta["llm_completion_tokens"] == 25
    assert meta["llm_seconds"] == 2.0


# -- the real embedded LLM ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def qwen():
    return embedded_llm("qwen2.5-coder-0.5b")


def test_embedded_model_states_a_table_and_the_cache_pays_once(qwen, tmp_path):
    tables = document_tables(_doc_with_tables())
    cache = LLMCache(tmp_path / "c.sqlite")
    rows, cost = serialize_tables(tables, qwen, cache, company="Nippon Example")
    assert cost.items == 1 and cost.calls >= 1 and cost.cache_hits == 0 and cost.completion_tokens > 0
    assert cost.failures == 0 and rows
    text = " ".join(r.information_block for r in rows)
    assert "1,145,721" in text or "637,422" in text, text  # the values are repeated, as printed
    again, cost2 = serialize_tables(tables, qwen, cache, company="Nippon Example")
    assert cost2.calls == 0 and cost2.cache_hits == 1
    assert [r.information_block for r in again] == [r.information_block for r in rows]
    assert blocks_by_table(again)[0][0] == [r.information_block for r in rows]


def test_embedded_model_writes_a_short_context_per_chunk(qwen, tmp_path):
    pages = [
        PageText(0, "## Chairman's statement\n\nA year of growth for the group.", 0),
        PageText(1, "## Notes to the financial statements\n\n## 4 Segment information\n\n"
                    "| | 2023 | 2022 |\n|---|---|---|\n| Engineering revenue | 4,210 | 3,987 |", 1),
    ]
    chunks = [(c.chunk_id, c.page_index, c.text) for c in chunk_pages(pages, "z" * 40)]
    cache = LLMCache(tmp_path / "c.sqlite")
    contexts, cost = llm_chunk_contexts(chunks, pages, "Northwind plc", qwen, cache)
    assert set(contexts) == {c[0] for c in chunks} and cost.calls == len(chunks)
    assert all(0 < len(v.split()) <= 75 for v in contexts.values())
    _, cost2 = llm_chunk_contexts(chunks, pages, "Northwind plc", qwen, cache)
    assert cost2.calls == 0 and cost2.cache_hits == len(chunks)
