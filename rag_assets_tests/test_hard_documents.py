"""Hard documents: scanned pages and letter-shifted text layers are detected per page and re-read by OCR."""

from __future__ import annotations

import pytest

from rag_assets.ingest.cleaning import document_pages
from rag_assets.ingest.parsing import NoTextLayerError, parse_pdf_weight_free
from rag_assets.ingest.text_quality import page_quality, shift
from rag_assets_tests.pdf_factory import image_only_pdf, scanned_pdf, scanned_report_pdf, shifted_text_layer_pdf

pytest.importorskip("rapidocr", reason="rapidocr not installed")

PROSE = ("The Group continued to invest in its operations during the year, with a focus on safety, customer "
         "service and disciplined capital allocation. Management reviewed the portfolio of activities.")


def test_quality_detects_shifted_and_garbage_text():
    assert page_quality(PROSE).ok
    q = page_quality(shift(PROSE, 5))
    assert not q.ok and q.shift == 21 and "letter-shifted" in q.reason
    assert not page_quality("(cid:12)(cid:13) (cid:44) " * 10).ok
    assert page_quality("", has_images=True).reason == "no text layer"
    names = " ".join(["Commerzbank Immobilien GmbH Frankfurt", "Beteiligungsgesellschaft mbH Hamburg"] * 5)
    assert page_quality(names).ok, "a list of German company names is not garbage"


def test_scanned_page_is_ocred_and_others_are_not(tmp_path):
    doc, stats = parse_pdf_weight_free(scanned_pdf(tmp_path / "scan.pdf"))
    assert [p["page_index"] for p in stats.ocr_pages] == [1]
    assert stats.ocr_pages[0]["reason"] == "no text layer"
    pages = document_pages(doc)
    assert "ordinary text layer" in pages[0].text
    text = pages[1].text
    assert "Statement of financial position" in text and "dividend of 12 cents" in text
    assert "7,710,615" in text and "406,100" in text
    assert stats.as_metadata()["ocr_pages"] == 1 and "p1: no text layer" in stats.as_metadata()["ocr_detail"]


def test_shifted_text_layer_is_replaced_by_ocr(tmp_path):
    doc, stats = parse_pdf_weight_free(shifted_text_layer_pdf(tmp_path / "shift.pdf", k=3))
    assert stats.ocr_pages and "letter-shifted text layer (shift 23)" == stats.ocr_pages[0]["reason"]
    text = document_pages(doc)[0].text
    assert "strong results" in text and "7,710,615" in text and "4,210" in text
    assert shift("strong", 3) not in text


def test_ocr_off_keeps_the_text_layer_and_says_so(tmp_path):
    doc, stats = parse_pdf_weight_free(shifted_text_layer_pdf(tmp_path / "shift.pdf"), ocr="off")
    assert not stats.ocr_pages and "letter-shifted" in stats.unreadable_pages[0]["reason"]


def test_blank_drawing_only_pdf_still_fails_clearly(tmp_path):
    with pytest.raises(NoTextLayerError, match="OCR"):
        parse_pdf_weight_free(image_only_pdf(tmp_path / "blank.pdf"))


@pytest.mark.parametrize("angle", [90, 270])
def test_rotated_table_is_read_in_order_as_a_table(tmp_path, angle):
    from rag_assets_tests.pdf_factory import ROTATED_ROWS, rotated_table_pdf

    doc, stats = parse_pdf_weight_free(rotated_table_pdf(tmp_path / f"rot{angle}.pdf", angle))
    assert not stats.ocr_pages
    lines = document_pages(doc)[0].text.splitlines()
    for label, a, b in ROTATED_ROWS:
        assert f"| {label} | {a} | {b} |" in lines
    assert "| | 2023 | 2022 |".replace("| |", "|  |") in lines
    (table,) = doc.tables
    box = table.prov[0].bbox
    # the table is printed in a tall strip: its box is taller than wide and inside the page
    assert box.t - box.b > 3 * (box.r - box.l)
    assert 0 < box.l < box.r < 595 and 0 < box.b < box.t < 842
    assert (box.l > 300) == (angle == 90)


def test_a_scanned_report_counts_its_ocr_pages(tmp_path):
    calls = []
    doc, stats = parse_pdf_weight_free(scanned_report_pdf(tmp_path / "scan.pdf", 3),
                                       ocr_progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert [p["page_index"] for p in stats.ocr_pages] == [1, 2, 3]
    assert "Trade payables 7,712,615" in document_pages(doc)[3].text


def test_ocr_progress_reaches_the_dagster_run_log_and_the_cli_bar(data_home, tmp_path):
    import io

    import dagster as dg
    from tqdm import tqdm

    from rag_assets.cli.ingest import live_progress
    from rag_assets.orchestration.definitions import ingestion_graph
    from rag_assets.orchestration.ingest_assets import reports_partitions
    from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore

    (data_home / "pdfs").mkdir()
    scanned_report_pdf(data_home / "pdfs" / "scanned.pdf", 2)
    store = ReportStore()
    (src,) = store.scan_inbox()
    resources = {"store": store, "parser": ParserResource(route="weight_free"),
                 "embedder": EmbedderResource(provider="onnx"), "llm": LLMResource()}
    out = io.StringIO()
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(reports_partitions.name, [src.sha1])
        bar = tqdm([src], file=out, desc="reports")
        with live_progress(bar):
            result = dg.materialize(ingestion_graph(resources), partition_key=src.sha1, instance=instance,
                                    resources=resources, selection=[dg.AssetKey("parsed_report")])
        bar.close()
        logs = [e.message for e in instance.all_logs(result.run_id) if e.message]
    assert any(m.endswith("OCR pages 2/2") for m in logs), logs
    assert "OCR pages 1/2" in out.getvalue()
