"""Weight-free parsing of PDFs into Docling documents, and clear errors for bad input."""

from __future__ import annotations

import pytest
from docling_core.types.doc import DoclingDocument, TableItem

from rag_assets.ingest.cleaning import clean_text, document_pages
from rag_assets.ingest.parsing import (
    CorruptPdfError,
    EmptyPdfError,
    NoTextLayerError,
    parse_pdf_weight_free,
)
from rag_assets_tests.conftest import NORTHWIND
from rag_assets_tests.pdf_factory import image_only_pdf, text_pdf, two_column_table_pdf


def test_sample_report_items_have_page_provenance(sample_pdfs):
    doc, stats = parse_pdf_weight_free(sample_pdfs[0])
    assert stats.pages == 6 and len(doc.pages) == 6
    for item, _ in doc.iterate_items():
        assert item.prov and 1 <= item.prov[0].page_no <= 6
    # the financial table is found on physical page 4 (page_index 3), nowhere else
    assert [t.prov[0].page_no for t in doc.tables] == [4]
    assert 4 not in {i.prov[0].page_no - 1 for i, _ in doc.iterate_items()}, "image-only page has no items"
    # round trip through JSON keeps everything
    again = DoclingDocument.model_validate_json(doc.model_dump_json())
    assert len(again.texts) == len(doc.texts) and len(again.tables) == 1


def test_table_rows_become_table_cells(sample_pdfs):
    doc, _ = parse_pdf_weight_free(sample_pdfs[0])
    table: TableItem = doc.tables[0]
    rows = [[c.text for c in row] for row in table.data.grid]
    assert ["Total assets", "7,710,615", "8,818,186"] in rows
    assert ["Net income (loss)", "(12,400)", "85,300"] in rows
    assert rows[0][1:] == ["2023", "2022"]
    assert table.data.grid[0][1].column_header


def test_cleaned_page_keeps_table_row_on_one_line(sample_pdfs):
    doc, _ = parse_pdf_weight_free(sample_pdfs[0])
    pages = document_pages(doc)
    assert [p.page_index for p in pages] == list(range(6))
    table_page = pages[3].text
    assert "| Total assets | 7,710,615 | 8,818,186 |" in table_page.splitlines()
    assert "All amounts in thousands of USD" in table_page
    assert pages[4].text == ""
    # the running header and the page numbers are removed as repeated furniture
    assert all("| Annual Report 2023" not in p.text for p in pages[1:])
    assert all(p.n_removed >= 1 for p in pages if p.page_index != 4)


def test_two_columns_both_kept_in_order(sample_pdfs):
    doc, _ = parse_pdf_weight_free(sample_pdfs[0])
    text = document_pages(doc)[2].text
    assert text.index("Left column.") < text.index("Right column.")
    assert "record level" in text and "reviewed each quarter" in text


def test_right_aligned_numeric_columns(tmp_path):
    doc, _ = parse_pdf_weight_free(two_column_table_pdf(tmp_path / "t.pdf"))
    rows = [[c.text for c in row] for row in doc.tables[0].data.grid]
    assert ["Americas", "(88.1)", "12.0"] in rows
    assert ["Total segment result", "1,116.4", "1,119.7"] in rows
    assert ["Asia Pacific", "-", "7.5"] in rows


def test_cleaning_rules():
    assert clean_text("finan-\ncial statements") == "financial statements"
    assert clean_text("Revenue/g21/g22 grew glyph<c=3,font=/AAAA+Arial> fast") == "Revenue grew fast"
    assert clean_text("net (cid:123)income\ufffd \ue001") == "net income"
    assert clean_text("sustainability\ufffe\nrelated") == "sustainabilityrelated"
    assert clean_text("well-known\nbrand") == "well-known brand"


def test_hyphenated_line_end_in_pdf_is_joined(tmp_path):
    pdf = text_pdf(tmp_path / "h.pdf", [["The consolidated finan-", "cial statements were approved."]])
    doc, _ = parse_pdf_weight_free(pdf)
    assert "consolidated financial statements were approved." in document_pages(doc)[0].text


def test_empty_file_is_a_clear_error(tmp_path):
    p = tmp_path / "empty.pdf"
    p.write_bytes(b"")
    with pytest.raises(EmptyPdfError, match="empty"):
        parse_pdf_weight_free(p)


def test_corrupt_file_is_a_clear_error(tmp_path):
    p = tmp_path / "bad.pdf"
    p.write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
    with pytest.raises(CorruptPdfError, match="corrupt"):
        parse_pdf_weight_free(p)


def test_truncated_report_is_a_clear_error(tmp_path, sample_pdfs):
    data = sample_pdfs[0].read_bytes()
    p = tmp_path / "truncated.pdf"
    p.write_bytes(data[: len(data) // 3])
    with pytest.raises((CorruptPdfError, NoTextLayerError)):
        parse_pdf_weight_free(p)


def test_scanned_pdf_names_ocr_as_remedy(tmp_path):
    with pytest.raises(NoTextLayerError, match="OCR"):
        parse_pdf_weight_free(image_only_pdf(tmp_path / "scan.pdf"))


def test_company_from_sample_is_in_text(sample_pdfs):
    doc, _ = parse_pdf_weight_free(sample_pdfs[0])
    assert NORTHWIND.ceo in " ".join(p.text for p in document_pages(doc))


def test_surrogate_halves_from_pdfium_are_repaired():
    from rag_assets.ingest.pdf_layout import _fix_surrogates

    assert _fix_surrogates("a\ud835\udc00b") == "a\U0001d400b"
    assert _fix_surrogates("x\ud800y") == "xy"
    assert _fix_surrogates("plain") == "plain"


def test_rows_that_pdfium_reads_as_one_line_become_rows():
    """Words carried on to the next row without a line break (PDFium reads a statement's rows as one line when
    they are one text object): a word starting left of the last one, outside its height, starts a row; a
    superscript or a dollar sign on the same row does not."""
    from rag_assets.ingest.pdf_layout import _rows

    def word(text, x0, y0, h=4.6):
        return (text, x0, x0 + 5 * len(text), y0, y0 + h)

    words = [word("Income", 171, 646), word("taxes", 205, 646), word("586.3", 348, 646), word("(1)", 380, 648),
             word("After-tax", 171, 638.4), word("earnings", 220, 638.4), word("111.7", 349, 639.4),
             word("Net", 171, 612.8), word("$", 325, 612.5), word("2,707.3", 345, 612.8)]
    assert [[w[0] for w in row] for row in _rows(words)] == [
        ["Income", "taxes", "586.3", "(1)"], ["After-tax", "earnings", "111.7"], ["Net", "$", "2,707.3"]]
    hyphenated = [word("The", 40, 781.7), word("consolidated", 60, 781.7), word("finan\ufffecial", 53, 768.4, h=20.8),
                  word("statements", 58, 768.2)]
    assert len(_rows(hyphenated)) == 1, "a word hyphenated across two rows spans both"


@pytest.mark.real_data
def test_a_statement_whose_rows_share_a_text_object_keeps_one_row_per_line_item(financebench):
    """A 10-K's income statement in small print whose rows PDFium joins into lines of two or three rows."""
    import pypdfium2 as pdfium

    from rag_assets.ingest.pdf_layout import layout_page

    pdf_path = financebench / "pdfs" / "1f89c4b9dd50dee72f36195f01813b61d49da229.pdf"
    if not pdf_path.exists():
        pytest.skip(f"{pdf_path} not in this copy of the FinanceBench data")
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        (table,) = [b for b in layout_page(pdf[44], 44).blocks if b.kind == "table"]
    finally:
        pdf.close()
    rows = {r[0]: [c for c in r[1:] if c.strip(" $")] for r in table.rows}
    assert [c.strip(" $") for c in rows["Income taxes"]] == ["586.3", "629.1", "480.5"]
    assert [c.strip(" $") for c in rows["After-tax earnings from joint ventures"]] == ["111.7", "117.7", "91.1"]
    assert [c.strip(" $") for c in rows["Net earnings attributable to General Mills"]] == ["2,707.3", "2,339.8", "2,181.2"]
