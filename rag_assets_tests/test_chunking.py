"""Chunks: token budget, overlap, pages never mixed, tables kept whole or split with their header."""

from __future__ import annotations

from rag_assets.ingest.chunking import ChunkingConfig, chunk_page, chunk_pages, page_blocks
from rag_assets.ingest.cleaning import PageText, table_to_markdown
from rag_assets.index.tokens import count_tokens

SENT = "The group reported steady progress in segment {i} with revenue growth and lower costs."


def _page(idx: int, text: str) -> PageText:
    return PageText(page_index=idx, text=text, n_tables=text.count("|---"))


def test_long_text_is_split_with_overlap_within_budget():
    text = " ".join(SENT.format(i=i) for i in range(120))
    chunks = chunk_page(_page(7, text), "abc")
    assert len(chunks) >= 4
    assert all(c.n_tokens <= 300 for c in chunks)
    assert all(c.page_index == 7 and c.kind == "text" for c in chunks)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    for a, b in zip(chunks, chunks[1:]):
        first_sentence_of_b = b.text.split(". ")[0]
        assert first_sentence_of_b in a.text, "consecutive chunks share their boundary sentences"
        shared = count_tokens([first_sentence_of_b])[0]
        assert 0 < shared <= 50
    # every sentence survives
    joined = " ".join(c.text for c in chunks)
    assert all(SENT.format(i=i) in joined for i in range(120))


def test_chunks_never_cross_pages():
    pages = [_page(i, " ".join(SENT.format(i=i * 100 + k) for k in range(30))) for i in range(3)]
    chunks = chunk_pages(pages, "abc")
    for c in chunks:
        assert f"segment {c.page_index * 100}" in c.text or f"segment {c.page_index * 100 + 29}" in c.text or all(
            f"segment {p * 100 + k} " not in c.text for p in range(3) if p != c.page_index for k in range(30)
        )
    assert {c.page_index for c in chunks} == {0, 1, 2}
    assert len({c.chunk_id for c in chunks}) == len(chunks)


def test_table_stays_whole_with_its_caption():
    table = table_to_markdown([["", "2023", "2022"], ["Total assets", "7,710,615", "8,818,186"]], 1)
    text = "## Balance sheet\n\nIn thousands of USD\n\n" + table + "\n\nSome closing words."
    chunks = chunk_page(_page(3, text), "abc")
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) == 1
    assert tables[0].text.startswith("In thousands of USD\n|")
    assert "| Total assets | 7,710,615 | 8,818,186 |" in tables[0].text.splitlines()


def test_big_table_is_split_by_rows_repeating_header():
    rows = [["Item", "2023", "2022"]] + [[f"Line item number {i}", f"{i},000", f"{i},500"] for i in range(150)]
    text = "EUR thousands\n\n" + table_to_markdown(rows, 1)
    chunks = chunk_page(_page(0, text), "abc", ChunkingConfig(max_tokens=300))
    assert len(chunks) > 3 and all(c.kind == "table" for c in chunks)
    assert all(c.n_tokens <= 300 for c in chunks)
    for c in chunks:
        lines = c.text.splitlines()
        assert lines[0] == "EUR thousands" and lines[1] == "| Item | 2023 | 2022 |"
    body = [ln for c in chunks for ln in c.text.splitlines()[3:]]
    assert body == [f"| Line item number {i} | {i},000 | {i},500 |" for i in range(150)], "rows once, in order"


def test_page_blocks_kinds():
    blocks = page_blocks("## Title\n\npara one\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    assert [k for k, _ in blocks] == ["text", "text", "table"]


def test_empty_page_has_no_chunks():
    assert chunk_page(_page(4, ""), "abc") == []


def test_deterministic_context_names_company_year_page_and_section():
    from rag_assets.index.bm25 import BM25Index
    from rag_assets.storage.artifacts import index_text

    pages = [
        _page(0, "## Acme Holdings Annual Report 2023\n\nWelcome to the 2023 report. Figures for 2022 compare."),
        _page(1, "## Remuneration report\n\nThe board sets pay for executives each year."),
        _page(2, "Fixed pay rose modestly for all members of the team."),
        _page(3, "## Risk factors\n\nCurrency exposure remains the main risk."),
    ]
    chunks = chunk_pages(pages, "abc", ChunkingConfig(context="deterministic"), company="Acme Holdings")
    ctx = {c.page_index: c.context for c in chunks}
    assert ctx[1] == "Acme Holdings | annual report 2023 | page 1 | Remuneration report"
    assert ctx[2].endswith("page 2 | Remuneration report"), "a page without heading inherits the last one"
    assert ctx[3].endswith("| Risk factors")
    assert all("Acme Holdings" not in c.text or c.page_index == 0 for c in chunks), "text itself is unchanged"
    # the section heading makes page 2 findable by its section's name
    plain = BM25Index.build([c.text for c in chunks], [c.chunk_id for c in chunks])
    ctxd = BM25Index.build([index_text(c.text, c.context) for c in chunks], [c.chunk_id for c in chunks])
    assert all(hit != "abc:2:0" for hit, _ in plain.search("remuneration", 5))
    assert "abc:2:0" in [hit for hit, _ in ctxd.search("remuneration", 5)]
    assert chunk_pages(pages, "abc")[0].context == ""
