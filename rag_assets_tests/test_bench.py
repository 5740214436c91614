"""The ingestion benchmark and its long synthetic report: the figures it prints come from a real run."""

from rag_assets.index.embedding import MiniLMOnnxEmbedder
from rag_assets.ingest.cleaning import document_pages
from rag_assets.ingest.parsing import parse_pdf_weight_free
from rag_assets.storage.artifacts import read_chunks
from rag_assets.storage.catalog import file_sha1
from rag_assets.storage.paths import ReportPaths
from rag_assets.tools.bench_ingest import run_benchmark
from rag_assets.tools.samples import SAMPLES, write_long_report


def test_long_report_has_its_pages_and_a_table_on_every_third(tmp_path):
    pdf = write_long_report(SAMPLES[0], tmp_path / "long.pdf", pages=10)
    pages = document_pages(parse_pdf_weight_free(pdf, ocr="off")[0])
    assert len(pages) == 10
    assert [p.page_index for p in pages if p.n_tables] == [3, 6, 9]
    assert "Trade payables" in pages[6].text and "Section 4: review of the" in pages[4].text


def test_bench_runs_every_stage_and_reports_time_and_memory(tmp_path, capsys):
    pdf = write_long_report(SAMPLES[0], tmp_path / "long.pdf", pages=12)
    result = run_benchmark(pdf, out=tmp_path / "out")
    assert result["failures"] == [] and result["pages"] == 12 and result["chunks"] > 12
    assert set(result["seconds"]) == {"parse", "clean", "tables", "chunk", "contexts", "embed", "bm25"}
    assert all(v > 0 for v in result["peak_mib"].values())
    printed = capsys.readouterr().out
    assert "chunks/s" in printed and "embedding graph: int8" in printed
    shares = [float(line.split()[2].rstrip("%")) for line in printed.splitlines()
              if line.split()[:1] and line.split()[0] in result["seconds"]]
    assert len(shares) == 7 and abs(sum(shares) - 100) < 1  # each stage's share of the time
    paths = ReportPaths(tmp_path / "out", file_sha1(pdf))
    assert read_chunks(paths.chunks).shape[0] == result["chunks"]
    assert paths.faiss_dir_for(MiniLMOnnxEmbedder.model_name).is_dir() and paths.bm25_dir.is_dir()
