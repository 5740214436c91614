"""Ingestion benchmark: per-stage throughput, total seconds and peak memory over a folder of PDFs.

Runs the same stage functions as the Dagster assets, without Dagster, into a scratch data root, so the
figures are the pipeline's own. Usage: ``rag-assets bench ../shared/erc/pdfs``.
"""

from __future__ import annotations

import resource
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from rag_assets.index.embedding import embedding_text
from rag_assets.ingest.parsing import parse_pdf_weight_free
from rag_assets.ingest.stages import IngestSettings, StageInputs, ingest_partition
from rag_assets.storage.artifacts import read_chunks
from rag_assets.storage.paths import ReportPaths

STAGES_TIMED = {"parsed_report": "parse", "report_pages": "clean", "report_chunks": "chunk", "bm25_index": "bm25"}


def _parse(pdf, name, progress, ocr_progress):
    return parse_pdf_weight_free(pdf, name=name, progress=progress, ocr_progress=ocr_progress)


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_benchmark(pdf_dir: Path, limit: int = 0, embed: bool = True, embed_limit: int = 3000, out: Path | None = None):
    pdfs = sorted(Path(pdf_dir).glob("*.pdf"))
    if limit:
        pdfs = pdfs[:limit]
    if not pdfs:
        raise SystemExit(f"no PDFs in {pdf_dir}")
    root = Path(out) if out else Path(tempfile.mkdtemp(prefix="rag_bench_"))
    secs: dict[str, float] = defaultdict(float)
    pages = chunks = 0
    failures = []
    all_texts: list[str] = []
    t_all = time.perf_counter()
    for i, pdf in enumerate(pdfs, 1):
        paths = ReportPaths(root, pdf.stem)
        x = StageInputs(paths=paths, company=pdf.stem, pdf=pdf, settings=IngestSettings(), parse=_parse)
        t0 = time.perf_counter()
        times: dict[str, float] = {}
        last = [t0]

        def timed(name, meta):
            times[STAGES_TIMED[name]] = time.perf_counter() - last[0]
            last[0] = time.perf_counter()

        try:
            metas = ingest_partition(x, list(STAGES_TIMED), on_stage=timed)
        except Exception as exc:  # a benchmark reports every failure and goes on
            failures.append(f"{pdf.name}: {type(exc).__name__}: {exc}")
            continue
        for stage, dt in times.items():
            secs[stage] += dt
        n_pages, n_chunks = metas["parsed_report"]["pages"], metas["report_chunks"]["chunks"]
        pages += n_pages
        chunks += n_chunks
        if embed:
            all_texts.extend(embedding_text(t) for t in read_chunks(paths.chunks)["text"].tolist())
        print(
            f"[{i}/{len(pdfs)}] {pdf.name[:16]} {n_pages:4d} pages {n_chunks:5d} chunks "
            f"{time.perf_counter() - t0:6.2f}s  peak {peak_rss_mib():.0f} MiB",
            flush=True,
        )
    total_cpu_stages = sum(secs.values())
    print("\nstage      seconds   throughput")
    for stage in ["parse", "clean", "chunk", "bm25"]:
        print(f"{stage:8} {secs[stage]:9.1f}   {pages / secs[stage]:8.1f} pages/s")
    print(f"{'all four':8} {total_cpu_stages:9.1f}   {pages / total_cpu_stages:8.1f} pages/s  "
          f"({len(pdfs) - len(failures)} reports, {pages} pages, {chunks} chunks)")
    if embed and all_texts:
        _bench_embedding(all_texts, embed_limit)
    print(f"wall {time.perf_counter() - t_all:.1f}s; peak memory {peak_rss_mib():.0f} MiB; outputs in {root}")
    for f in failures:
        print("FAILED", f)
    return {"pages": pages, "chunks": chunks, "seconds": dict(secs), "peak_mib": peak_rss_mib()}


def _bench_embedding(all_texts: list[str], embed_limit: int) -> None:
    """Embedding throughput over an even sample of the chunks (``embed_limit`` of them; 0: all)."""
    from rag_assets.index.embedding import MiniLMOnnxEmbedder

    emb = MiniLMOnnxEmbedder()
    step = max(1, len(all_texts) // embed_limit) if embed_limit else 1
    sample = all_texts[::step][: embed_limit or None]
    t0 = time.perf_counter()
    emb.embed(sample)
    dt = time.perf_counter() - t0
    print(f"{'embed':8} {dt:9.1f}   {len(sample) / dt:8.1f} chunks/s  ({len(sample)} of {len(all_texts)} chunks, "
          f"{emb.model_name})")
    print(f"estimated embedding time for all {len(all_texts)} chunks: {len(all_texts) / (len(sample) / dt):.0f}s")
