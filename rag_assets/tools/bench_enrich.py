"""Enrichment benchmark: page hit@k with and without table serialization and chunk contexts.

For each variant, the chosen reports are rebuilt (chunks, LLM stages, FAISS, BM25) under
``<out>/<variant>/`` from the parsed report and pages of an ingested data root; every other report is
linked unchanged, so routing sees the whole collection. LLM results go through the shared ingestion cache
(``<source root>/cache/llm_cache.sqlite``), so a second run, or a variant sharing a stage, pays nothing.
Prints hit@1/3/5/10 over the gold questions whose pages lie in the chosen reports, and the LLM cost.

Usage: ``rag-assets bench-enrich --reports SHA1 [SHA1...] --variants none deterministic tables llm-context
--model qwen2.5-coder-0.5b --gold ../shared/erc/answers.json --questions ../shared/erc/questions.json``
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from rag_assets.answer.service.scoring import load_gold
from rag_assets.ingest.chunking import ChunkingConfig
from rag_assets.storage.paths import ReportPaths

VARIANTS = {
    "none": ChunkingConfig(),
    "deterministic": ChunkingConfig(context="deterministic"),
    "tables": ChunkingConfig(table_blocks=True),
    "llm-context": ChunkingConfig(context="llm"),
    "tables+llm-context": ChunkingConfig(context="llm", table_blocks=True),
}


def _variant_root(source: Path, out: Path, rebuilt: list[str]) -> Path:
    """A data root whose ``rebuilt`` reports get their own folder (parse + pages linked) and whose other
    reports are linked whole."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / "catalog.json", out / "catalog.json")
    (out / "reports").mkdir(exist_ok=True)
    for src_dir in sorted((source / "reports").iterdir()):
        dst = out / "reports" / src_dir.name
        if src_dir.name in rebuilt:
            if dst.is_symlink():
                dst.unlink()
            dst.mkdir(exist_ok=True)
            for name in ("parsed.docling.json", "pages.parquet"):
                link = dst / name
                if not link.exists():
                    link.symlink_to(src_dir / name)
        elif not dst.exists():
            dst.symlink_to(src_dir)
    return out


def build_variant(root: Path, sha1: str, company: str, cfg: ChunkingConfig, llm, cache_path: Path,
                  embedder) -> dict:
    """Run the stages after parsing for one report under ``root``; returns per-stage metadata."""
    from rag_assets.ingest.stages import STAGES, IngestSettings, StageInputs, ingest_partition
    from rag_assets.llm.cache import LLMCache

    x = StageInputs(paths=ReportPaths(root, sha1), company=company, pdf=Path(), settings=IngestSettings(chunking=cfg),
                    embedder=lambda: embedder, llm=lambda: llm, llm_cache=lambda: LLMCache(cache_path))
    metas = ingest_partition(x, [s for s in STAGES if s not in ("parsed_report", "report_pages")])
    return {"tables": metas["serialized_tables"], "chunks": metas["report_chunks"],
            "contexts": metas["chunk_contexts"], "faiss": metas["faiss_index"], "bm25": metas["bm25_index"]}


def page_hits_per_question(root: Path, questions, gold: dict, reports: set[str], top_k: int = 10,
                           config: str = "local", embedder=None) -> dict[str, dict[int, bool]]:
    """question -> {k: gold page in the first k}, for questions whose gold pages lie in ``reports``."""
    from rag_assets.answer.service.service import AnsweringService, resolve
    from rag_assets.orchestration.resources import ReportStore

    library = ReportStore(data_root=str(root)).library()
    service = AnsweringService(resolve(config, library), embedder=embedder, retrieval_only=True)
    out = {}
    for q in questions:
        g = gold.get(q.text)
        pools = (g or {}).get("reference_pools") or []
        refs = {r for pool in pools for r in pool}
        if not refs or not {r.split(":")[0] for r in refs} & reports:
            continue
        ranked = [f"{p.sha1}:{p.page_index}" for p in service.rank(q.text, top_k)]
        out[q.text] = {k: bool(refs & set(ranked[:k])) for k in (1, 3, 5, 10)}
    return out


def run_enrichment_bench(source: Path, out: Path, reports: list[str], variants: list[str], model: str,
                         questions_path: Path, gold_path: Path, llm_route: str = "llama_cpp") -> dict:
    from rag_assets.storage.catalog import Catalog
    from rag_assets.config import RunConfig
    from rag_assets.index.embedding import make_embedder
    from rag_assets.answer.service.questions import load_questions
    from rag_assets.llm.factory import build_llm

    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variant(s) {unknown}; choose from {list(VARIANTS)}")
    catalog = Catalog(source / "catalog.json")
    missing = [sha for sha in reports if sha not in catalog.reports or not ReportPaths(source, sha).pages.exists()]
    if missing:
        raise SystemExit(f"error: report(s) not ingested under {source}: {', '.join(missing)} (run `rag-assets ingest`)")
    names = {sha: catalog.get(sha).company_name for sha in reports}
    questions = load_questions(questions_path)
    gold = load_gold(gold_path)
    embedder = make_embedder("onnx")
    needs_llm = any(VARIANTS[v].table_blocks or VARIANTS[v].context == "llm" for v in variants)
    llm = build_llm(RunConfig(name="ingest", llm=llm_route, answer_model=model)) if needs_llm else None
    cache_path = source / "cache" / "llm_cache.sqlite"
    results = {}
    for variant in variants:
        cfg = VARIANTS[variant]
        root = _variant_root(source, out / variant, reports)
        costs, t0 = [], time.perf_counter()
        for sha in reports:
            meta = build_variant(root, sha, names[sha], cfg, llm, cache_path, embedder)
            costs.append({"report": names[sha], "tables": meta["tables"], "contexts": meta["contexts"],
                          "chunks": meta["chunks"]["chunks"]})
            print(f"[{variant}] {names[sha]}: {meta['chunks']['chunks']} chunks "
                  f"({meta['chunks'].get('table_block_chunks', 0)} of table statements); "
                  f"tables {_cost(meta['tables'])}; contexts {_cost(meta['contexts'])}", flush=True)
        hits = page_hits_per_question(root, questions, gold, set(reports), embedder=embedder)
        n = len(hits)
        rates = {k: sum(h[k] for h in hits.values()) / n if n else 0.0 for k in (1, 3, 5, 10)}
        results[variant] = {"questions": n, "hit": rates, "per_question": hits, "build": costs,
                            "seconds": round(time.perf_counter() - t0, 1)}
        print(f"[{variant}] {n} questions: " + "  ".join(f"hit@{k} {v:.3f}" for k, v in rates.items()), flush=True)
    print("\nvariant               questions  hit@1  hit@3  hit@5  hit@10")
    for variant, r in results.items():
        h = r["hit"]
        print(f"{variant:22} {r['questions']:>9}  {h[1]:.3f}  {h[3]:.3f}  {h[5]:.3f}  {h[10]:.3f}")
    (out / "results.json").write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return results


def _cost(meta: dict) -> str:
    if not meta.get("enabled"):
        return "off"
    return (f"{meta.get('llm_calls', 0)} calls, {meta.get('llm_cache_hits', 0)} cached, "
            f"{meta.get('llm_prompt_tokens', 0)}+{meta.get('llm_completion_tokens', 0)} tokens, "
            f"{meta.get('llm_seconds', 0)}s, {meta.get('llm_failures', 0)} failed")
