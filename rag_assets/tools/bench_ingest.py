"""Ingestion benchmark: per-stage throughput, total seconds and peak memory over a folder of PDFs.

Runs the same stage functions as the Dagster assets, without Dagster, into a scratch data root, so the
figures are the pipeline's own. Usage: ``rag-assets bench ../shared/erc/pdfs`` or, for one long report,
``rag-assets samples /tmp/long --pages 1000 && rag-assets bench /tmp/long/long_report_1000_pages.pdf``.
"""

from __future__ import annotations

import resource
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from rag_assets.index.embedding import MiniLMOnnxEmbedder
from rag_assets.ingest.parsing import parse_pdf_weight_free
from rag_assets.ingest.stages import IngestSettings, StageInputs, ingest_partition
from rag_assets.storage.catalog import file_sha1
from rag_assets.storage.paths import ReportPaths

STAGE_NAMES = {"parsed_report": "parse", "report_pages": "clean", "serialized_tables": "tables",
               "report_chunks": "chunk", "chunk_contexts": "contexts", "faiss_index": "embed", "bm25_index": "bm25"}


def _parse(pdf, name, progress, ocr_progress):
    return parse_pdf_weight_free(pdf, name=name, progress=progress, ocr_progress=ocr_progress)


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _print_stages(stages: list[str], secs: dict, peak: dict, rise: dict, pages: int, chunks: int) -> None:
    """The per-stage table: seconds, share of all stages' time, throughput, the peak RSS when the stage ended
    and how far it raised it."""
    total = max(sum(secs.values()), 1e-9)
    print(f"\n{'stage':9} {'seconds':>9} {'share':>6} {'throughput':>18} {'peak RSS':>10} {'raised by':>10}")
    for name in stages:
        rate, unit = (chunks, "chunks/s") if name == "faiss_index" else (pages, "pages/s")
        print(f"{STAGE_NAMES[name]:9} {secs[name]:9.1f} {100 * secs[name] / total:5.1f}% "
              f"{rate / max(secs[name], 1e-9):9.1f} {unit:8} {peak.get(name, 0):6.0f} MiB {rise.get(name, 0):6.0f} MiB")


def run_benchmark(pdf_dir: Path, limit: int = 0, embed: bool = True, graph: str = "int8",
                  out: Path | None = None, threads: int = 0) -> dict:
    """Ingest every PDF of ``pdf_dir`` (or the one PDF it names) stage by stage, as the assets do, and print
    per stage: seconds, pages/s (chunks/s for embedding) and the process's peak RSS when the stage ended."""
    pdf_dir = Path(pdf_dir)
    pdfs = [pdf_dir] if pdf_dir.is_file() else sorted(pdf_dir.glob("*.pdf"))[: limit or None]
    if not pdfs:
        raise SystemExit(f"no PDFs in {pdf_dir}")
    root = Path(out) if out else Path(tempfile.mkdtemp(prefix="rag_bench_"))
    embedder = MiniLMOnnxEmbedder(threads=threads or None, graph=graph) if embed else None
    stages = [s for s in STAGE_NAMES if embed or s != "faiss_index"]
    secs: dict[str, float] = defaultdict(float)
    peak: dict[str, float] = {}  # the process's peak RSS when the stage ended (the largest over reports)
    rise: dict[str, float] = {}  # how far the stage raised that peak (the largest over reports)
    pages = chunks = 0
    failures = []
    t_all = time.perf_counter()
    for i, pdf in enumerate(pdfs, 1):
        x = StageInputs(paths=ReportPaths(root, file_sha1(pdf)), company=pdf.stem, pdf=pdf, settings=IngestSettings(),
                        parse=_parse, embedder=lambda: embedder)
        t0 = last = time.perf_counter()
        before = peak_rss_mib()

        def timed(name, meta):
            nonlocal last, before
            secs[name] += time.perf_counter() - last
            peak[name] = max(peak.get(name, 0.0), peak_rss_mib())
            rise[name] = max(rise.get(name, 0.0), peak_rss_mib() - before)
            last, before = time.perf_counter(), peak_rss_mib()

        try:
            metas = ingest_partition(x, stages, on_stage=timed)
        except Exception as exc:  # a benchmark reports every failure and goes on
            failures.append(f"{pdf.name}: {type(exc).__name__}: {exc}")
            continue
        n_pages, n_chunks = metas["parsed_report"]["pages"], metas["report_chunks"]["chunks"]
        pages, chunks = pages + n_pages, chunks + n_chunks
        print(f"[{i}/{len(pdfs)}] {pdf.name[:24]:24} {n_pages:5d} pages {n_chunks:6d} chunks "
              f"{time.perf_counter() - t0:7.1f}s  peak {peak_rss_mib():.0f} MiB", flush=True)
    _print_stages(stages, secs, peak, rise, pages, chunks)
    wall = time.perf_counter() - t_all
    print(f"{'all':9} {sum(secs.values()):9.1f} {pages / max(sum(secs.values()), 1e-9):9.1f} pages/s "
          f"({len(pdfs) - len(failures)} reports, {pages} pages, {chunks} chunks); wall {wall:.1f}s; "
          f"peak {peak_rss_mib():.0f} MiB; embedding graph: "
          f"{embedder.graph if embedder else 'none'}; outputs in {root}")
    for f in failures:
        print("FAILED", f)
    return {"pages": pages, "chunks": chunks, "seconds": {STAGE_NAMES[k]: v for k, v in secs.items()},
            "peak_mib": {STAGE_NAMES[k]: v for k, v in peak.items()},
            "peak_rise_mib": {STAGE_NAMES[k]: v for k, v in rise.items()}, "wall": wall, "failures": failures}
