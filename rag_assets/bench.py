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

from rag_assets.core.chunking import ChunkingConfig
from rag_assets.core.parsing import parse_pdf_weight_free
from rag_assets.core.embedding import embedding_text
from rag_assets.core.paths import ReportPaths
from rag_assets.core.pipeline import bm25_stage, chunk_stage, clean_stage, read_chunks, save_parsed


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
        t0 = time.perf_counter()
        try:
            doc, stats = parse_pdf_weight_free(pdf)
            save_parsed(doc, stats, paths)
            del doc
            t1 = time.perf_counter()
            clean_stage(paths)
            t2 = time.perf_counter()
            meta = chunk_stage(paths, ChunkingConfig())
            t3 = time.perf_counter()
            bm25_stage(paths)
            t4 = time.perf_counter()
        except Exception as exc:  # a benchmark reports every failure and goes on
            failures.append(f"{pdf.name}: {type(exc).__name__}: {exc}")
            continue
        secs["parse"] += t1 - t0
        secs["clean"] += t2 - t1
        secs["chunk"] += t3 - t2
        secs["bm25"] += t4 - t3
        pages += stats.pages
        chunks += meta["chunks"]
        if embed:
            all_texts.extend(embedding_text(t) for t in read_chunks(paths.chunks)["text"].tolist())
        print(
            f"[{i}/{len(pdfs)}] {pdf.name[:16]} {stats.pages:4d} pages {meta['chunks']:5d} chunks "
            f"{t4 - t0:6.2f}s  peak {peak_rss_mib():.0f} MiB",
            flush=True,
        )
    total_cpu_stages = sum(secs.values())
    print("\nstage      seconds   throughput")
    for stage in ["parse", "clean", "chunk", "bm25"]:
        print(f"{stage:8} {secs[stage]:9.1f}   {pages / secs[stage]:8.1f} pages/s")
    print(f"{'all four':8} {total_cpu_stages:9.1f}   {pages / total_cpu_stages:8.1f} pages/s  "
          f"({len(pdfs) - len(failures)} reports, {pages} pages, {chunks} chunks)")
    if embed and all_texts:
        from rag_assets.core.embedding import MiniLMOnnxEmbedder

        emb = MiniLMOnnxEmbedder()
        step = max(1, len(all_texts) // embed_limit) if embed_limit else 1
        sample = all_texts[::step][: embed_limit or None]
        t0 = time.perf_counter()
        emb.embed(sample)
        dt = time.perf_counter() - t0
        print(f"{'embed':8} {dt:9.1f}   {len(sample) / dt:8.1f} chunks/s  ({len(sample)} of {len(all_texts)} chunks, "
              f"{emb.model_name})")
        print(f"estimated embedding time for all {len(all_texts)} chunks: {len(all_texts) / (len(sample) / dt):.0f}s")
    print(f"wall {time.perf_counter() - t_all:.1f}s; peak memory {peak_rss_mib():.0f} MiB; outputs in {root}")
    for f in failures:
        print("FAILED", f)
    return {"pages": pages, "chunks": chunks, "seconds": dict(secs), "peak_mib": peak_rss_mib()}
