"""The benchmark verbs: bench (ingestion stages), bench-ocr, bench-llm, bench-enrich, bench-retrieval. Each
prints the machine's CPU line first (figures are only comparable on one CPU kind)."""

from __future__ import annotations

import sys
from pathlib import Path

from rag_assets.answer.service.scoring import load_gold
from rag_assets.cli.common import parse_config_spec, positive_int, questions_or_exit, whole_number
from rag_assets.index.embedding import GRAPHS
from rag_assets.storage.paths import data_root


def cmd_bench(args) -> int:
    from rag_assets.tools.bench_ingest import run_benchmark

    run_benchmark(Path(args.pdf_dir), limit=args.limit, embed=not args.no_embed, graph=args.graph,
                  threads=args.threads)
    return 0

def cmd_bench_ocr(args) -> int:
    from rag_assets.ingest.parsing import PdfParseError
    from rag_assets.tools.bench_ocr import run_ocr_bench

    pdf = Path(args.pdf)
    if not pdf.is_file():
        raise SystemExit(f"error: no such PDF: {pdf}")
    if args.pages < 1 or args.dpi < 1:
        raise SystemExit("error: --pages and --dpi must be at least 1")
    try:
        run_ocr_bench(pdf, count=args.pages, dpi=args.dpi, compare_defaults=not args.no_defaults,
                      threads=args.threads, precision=args.precision)
    except PdfParseError as exc:
        raise SystemExit(f"error: {exc}") from None
    return 0

def cmd_bench_llm(args) -> int:
    from rag_assets.llm.embedded import installed_backends
    from rag_assets.tools.bench_llm import run_llm_bench

    run_llm_bench(args.model, args.backends or installed_backends(), rounds=args.rounds, threads=args.threads)
    return 0

def cmd_bench_enrich(args) -> int:
    from rag_assets.tools.bench_enrich import run_enrichment_bench

    run_enrichment_bench(data_root(), Path(args.out), args.reports, args.variants, args.model,
                         Path(args.questions), Path(args.gold), "openai" if args.openai else "llama_cpp")
    return 0

def _preload(answerer, reports: dict) -> None:
    from rag_assets.retrieval.search import ReportIndexError

    for sha1 in reports:
        try:
            answerer.retriever.index(sha1)
        except ReportIndexError:
            pass  # its questions fail, and are counted, in the benchmark itself
    if answerer.retriever.embedder is not None:
        answerer.retriever.embedder.embed(["warm-up"])

def _label_sets(args) -> dict:
    """The pages to find: the gold answers' page pools and/or the pages a reference submission cites."""
    from rag_assets.retrieval.bench import labels_from_gold, labels_from_submission

    label_sets = {}
    if args.gold:
        label_sets["gold"] = labels_from_gold(load_gold(args.gold))
    if args.silver:
        label_sets["silver"] = labels_from_submission(args.silver)
    return label_sets


def cmd_bench_retrieval(args) -> int:
    import json

    from rag_assets.answer.service.service import AnsweringService, resolve
    from rag_assets.config import get_config, with_overrides
    from rag_assets.index.embedding import make_embedder
    from rag_assets.orchestration.resources import ReportStore
    from rag_assets.retrieval.bench import bench, misses, per_question, table

    questions = [q.text for q in questions_or_exit(args.questions)]
    label_sets = _label_sets(args)
    if not label_sets:
        print("error: give --gold and/or --silver (pages to find)", file=sys.stderr)
        return 2
    library = ReportStore().library()
    settings = []
    for spec in args.configs:
        preset, overrides = parse_config_spec(spec)
        pages = with_overrides(get_config(preset), overrides).candidate_pages  # ranked pages reach top_k
        settings.append((spec, resolve(preset, library, {**overrides, "candidate_pages": max(pages, args.top_k)})))
    embedders: dict = {}
    results = []
    for spec, setting in settings:
        cfg = setting.cfg
        key = (cfg.embedder, cfg.embedding_model)
        if cfg.retrieval != "bm25" and key not in embedders:
            embedders[key] = make_embedder(cfg.embedder, cfg.embedding_model or None)
        service = AnsweringService(setting, embedder=embedders.get(key), retrieval_only=True)

        def rank(q, service=service):
            return [f"{p.sha1}:{p.page_index}" for p in service.rank(q, args.top_k)]

        _preload(service.answerer, library.reports)  # indexes and models are loaded outside the timing
        results.append(bench(spec, rank, questions, label_sets))
    print(table(results))
    if args.misses:
        print("\n" + misses(results, args.misses))
    if args.out:
        from rag_assets.storage.atomic import atomic_path

        figures = [r.row(label) for r in results for label in r.labels]
        with atomic_path(Path(args.out)) as tmp:
            Path(tmp).write_text(json.dumps({"figures": figures, "ranks": per_question(results)}, indent=1))
    return 1 if any(r.failed for r in results) else 0


def add_bench_verbs(sub) -> None:
    s = sub.add_parser("bench-retrieval", help="page hit@1/3/5/10, MRR and s/question per configuration")
    s.add_argument("questions")
    s.add_argument("--configs", nargs="+", default=["local"],
                   help="preset[:key=value,...] each, e.g. local local:page_bm25=false,fusion=chunk")
    s.add_argument("--gold", help="gold answers: their page pools are the labels")
    s.add_argument("--silver", help="a reference submission: the pages it cites are a second label set")
    s.add_argument("--top-k", type=positive_int, default=10, help="pages ranked per question")
    s.add_argument("--misses", type=positive_int, metavar="K",
                   help="also list the questions whose labelled page is not in the top K")
    s.add_argument("--out", help="also write the figures and each question's rank as JSON")
    s.set_defaults(func=cmd_bench_retrieval)

    s = sub.add_parser("bench", help="per ingestion stage: seconds, pages/s or chunks/s, peak RSS (no Dagster)")
    s.add_argument("pdf_dir", help="a folder of PDFs, or one PDF")
    s.add_argument("--limit", type=whole_number, default=0, help="only the first N PDFs (0: all)")
    s.add_argument("--no-embed", action="store_true", help="skip the embedding stage")
    s.add_argument("--graph", choices=GRAPHS, default="int8",
                   help="the embedding graph: int8 (default, as ingestion), its fp32 fused copy, or the packaged "
                   "graph as shipped (for before/after)")
    s.add_argument("--threads", type=whole_number, default=0, help="embedding threads (0: one per core)")
    s.set_defaults(func=cmd_bench)

    s = sub.add_parser("bench-ocr", help="OCR s/page and word recall on scans made from a text PDF's pages")
    s.add_argument("pdf", help="a PDF with a text layer (the truth OCR is measured against)")
    s.add_argument("--pages", type=int, default=8, help="pages spread over the report (default 8)")
    s.add_argument("--dpi", type=int, default=150, help="scan resolution (default 150)")
    s.add_argument("--no-defaults", action="store_true", help="skip the RapidOCR-defaults comparison")
    s.add_argument("--threads", type=whole_number, default=0, help="inference threads (0: one per core)")
    s.add_argument("--precision", choices=["f32"], default="",
                   help="force OpenVINO's inference precision (f32: what a CPU without BF16 runs)")
    s.set_defaults(func=cmd_bench_ocr)

    s = sub.add_parser("bench-llm", help="embedded LLM backends side by side: prompt/generated tokens/s, s/answer")
    s.add_argument("--model", default="qwen2.5-coder-1.5b", help="embedded model name or .gguf path")
    s.add_argument("--backends", nargs="+", choices=["ik", "llama-cpp-python"], help="default: every installed one")
    s.add_argument("--rounds", type=int, default=1, help="passes over the prompts")
    s.add_argument("--threads", type=int, default=0, help="threads per backend (default: all cores)")
    s.set_defaults(func=cmd_bench_llm)

    s = sub.add_parser("bench-enrich", help="page hit@k with/without table statements and chunk contexts")
    s.add_argument("--reports", nargs="+", required=True, help="sha1s of ingested reports to rebuild per variant")
    s.add_argument("--variants", nargs="+", default=["none", "deterministic", "tables"],
                   help="none, deterministic, tables, llm-context, tables+llm-context")
    s.add_argument("--model", default="qwen2.5-coder-0.5b", help="ingestion LLM (embedded name or API model)")
    s.add_argument("--openai", action="store_true", help="use the OpenAI-compatible route for the model")
    s.add_argument("--out", required=True, help="scratch folder for the variants' data roots")
    s.add_argument("--questions", required=True)
    s.add_argument("--gold", required=True)
    s.set_defaults(func=cmd_bench_enrich)
