"""The ``rag-assets`` command: ingest reports into the project's Dagster instance (and more verbs later)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from rag_assets.answer.scoring import load_gold
from rag_assets.cli.ingest import Interrupted, ingest
from rag_assets.cli.storage_faults import storage_fault
from rag_assets.cli.ui import add_ui_verb
from rag_assets.storage.textfiles import InputFileError
from rag_assets.orchestration.instance import dagster_home
from rag_assets.storage.paths import data_root

log = logging.getLogger("rag_assets")


def cmd_samples(args) -> int:
    from rag_assets.tools.samples import SAMPLES, write_long_report, write_samples

    if args.pages < 0:
        raise SystemExit("error: --pages must be at least 1 (or 0 for the sample reports)")
    if args.pages:
        print(write_long_report(SAMPLES[0], Path(args.folder) / f"long_report_{args.pages}_pages.pdf", args.pages))
        return 0
    paths = write_samples(Path(args.folder))
    for p in paths:
        print(p)
    return 0


def cmd_ingest(args) -> int:
    pdf_dir = Path(args.pdf_dir) if args.pdf_dir else data_root() / "pdfs"
    if not pdf_dir.is_dir():
        print(f"error: PDF folder not found: {pdf_dir}", file=sys.stderr)
        return 2
    rows = ingest(pdf_dir, Path(args.subset) if args.subset else None, force=args.force,
                  table_serialization=args.table_serialization, chunk_context=args.chunk_context,
                  ingest_model=args.ingest_model, verbose=args.verbose)
    return 1 if any(r["status"].startswith("FAILED") for r in rows) else 0


def cmd_doctor(args) -> int:
    from rag_assets.cli.doctor import doctor

    return doctor(repair=args.repair)


def cmd_quickstart(args) -> int:
    """Sample reports (if the inbox has no PDF), ingest, sample questions, then answer them with their pages."""
    from rag_assets.tools.samples import SAMPLES, write_sample_questions, write_samples

    inbox = data_root() / "pdfs"
    inbox.mkdir(parents=True, exist_ok=True)
    if not any(inbox.glob("*.pdf")):
        print(f"writing sample reports into {inbox}")
        write_samples(inbox)
    rows = ingest(inbox)
    if any(r["status"].startswith("FAILED") for r in rows):
        return 1
    store_root = data_root()
    if not (store_root / "questions.json").exists() and all((inbox / r.file_name).exists() for r in SAMPLES):
        qpath, gpath = write_sample_questions(store_root)
        print(f"sample questions -> {qpath}\ngold answers     -> {gpath}")
    code = _quickstart_answers(args.config, args.model)
    home = dagster_home()
    print(
        f"""
Results
  report files (Docling JSON, pages, chunks, FAISS, BM25): {data_root() / 'reports'}/<sha1>/
  answers, submission and evaluation:                    {data_root() / 'answers' / args.config}/
  lineage (answers -> chunks -> pages):                  {data_root() / 'answers.duckdb'}
  Dagster runs and events:                               {home}/

Ask your own question:
  rag-assets ask "Who was the chief executive officer of Northwind Widgets plc?"
Open the Dagster UI (jobs ingest_reports and evaluate_config):
  rag-assets ui                        # then browse http://127.0.0.1:3000
"""
    )
    return code


def _quickstart_answers(config: str, model: str | None = None) -> int:
    """Answer the question set with ``config`` from scratch, printing each answer with its pages."""
    from rag_assets.answer.run import answer_and_score

    cfg, store, reports, make = _answer_setup(config, model)
    questions = _questions_or_exit(store.questions_path)
    answerer = make()  # checks the LLM backend, then fetches the model (progress bar, SHA-256 check)
    out_dir = store.answers_dir(cfg.name)
    (out_dir / "answers.jsonl").unlink(missing_ok=True)  # fresh answers, once the model is known to load
    print(f"\nanswering {len(questions)} question(s) with '{cfg.name}' ({cfg.answer_model}) ...")

    def show(rec, done, total):
        pages = ", ".join(f"{reports.get(r['pdf_sha1'], '?')} p.{r['page_index']}" for r in rec.references) or "-"
        shown = f"error: {rec.error}" if rec.error else f"{rec.value}   pages: {pages}"
        print(f"[{done}/{total}] {rec.question_text}\n      -> {shown}   ({rec.seconds:.0f}s)", flush=True)

    gold = load_gold(store.gold_path) if store.gold_path else {}
    records, summary, _, _ = answer_and_score(answerer, questions, gold, out_dir, store.answers_db, progress=show)
    if gold:
        print(f"\nscore against {store.gold_path.name}: G {summary['G_percent']}%, R {summary['R_percent']}%, "
              f"{summary['score_per_100']} per 100 questions; {summary['seconds_per_question']} s per question")
    return 1 if _failed(records) else 0


def cmd_bench(args) -> int:
    from rag_assets.tools.bench_ingest import run_benchmark

    run_benchmark(Path(args.pdf_dir), limit=args.limit, embed=not args.no_embed, packaged_graph=args.packaged_graph,
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
                      threads=args.threads)
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


def parse_sets(items: list[str] | None) -> dict:
    """``--set key=value`` pairs (values are validated by RunConfig)."""
    out = {}
    for item in items or []:
        if "=" not in item:
            raise SystemExit(f"error: --set expects key=value, got {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _answer_setup(config: str, model: str | None = None, base_url: str | None = None, sets: dict | None = None):
    """The run configuration (with command-line overrides) and the answering pipeline over the data root."""
    from rag_assets.config import get_config, with_overrides
    from rag_assets.answer.run import build_answerer
    from rag_assets.orchestration.resources import ReportStore

    overrides = dict(sets or {})
    if model:
        overrides["answer_model"] = model
    if base_url:
        overrides["base_url"] = base_url
        overrides["llm"] = "openai"
    cfg = with_overrides(get_config(config), overrides)
    store = ReportStore()
    reports = store.indexed_reports()
    if not reports:
        raise SystemExit(f"no ingested reports under {store.root}: run `rag-assets ingest` first")
    return cfg, store, reports, lambda: build_answerer(cfg, store.root, reports, filings=store.filings(reports))


def _questions_or_exit(path):
    """The validated questions of ``path``, or exit 2 with the file's problems on stderr."""
    from rag_assets.answer.questions import QuestionsFileError, load_questions

    try:
        return load_questions(Path(path))
    except QuestionsFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _progress_printer(quiet: bool = False):
    def progress(rec, done, total):
        if quiet:
            return
        shown = f"error: {rec.error[:80]}" if rec.error else str(rec.value)[:40]
        print(f"[{done}/{total}] {shown!s:42} {rec.seconds:6.1f}s  {rec.question_text[:70]!r}", flush=True)

    return progress


def cmd_answer(args) -> int:
    from rag_assets.answer.fingerprint import run_label, settings_fingerprint
    from rag_assets.answer.lineage import AnswerLog
    from rag_assets.answer.run import answer_questions, reusable_answers

    questions = _questions_or_exit(args.questions)
    cfg, store, reports, make = _answer_setup(args.config, args.model, args.base_url, parse_sets(args.set))
    out = Path(args.out).resolve()
    answer_log = AnswerLog(out.with_name(out.name + ".progress.jsonl"))
    if args.restart and answer_log.path.exists():
        answer_log.path.unlink()
    answerer = make()
    logged = answer_log.load()
    if logged:
        reused, _ = reusable_answers(answerer, questions, answer_log, settings_fingerprint(cfg))
        print(f"resuming: {len(reused)} answer(s) reused from {answer_log.path}"
              + (f"; {len(logged) - len(reused)} made with other settings, model or indexes are answered again"
                 if len(logged) > len(reused) else ""))
    records = answer_questions(answerer, questions, answer_log.path, out, store.answers_db,
                               run_id=f"{run_label(cfg)}:{out.name}", progress=_progress_printer())
    failed = _failed(records)
    print(f"{len(records) - failed} answers -> {out}  (lineage: {store.answers_db})")
    return 1 if failed else 0


def _failed(records: list[dict]) -> int:
    """Count failed questions and say so on stderr: they are not in the submission; a rerun retries them."""
    failed = [r for r in records if r.get("error")]
    if failed:
        print(f"error: {len(failed)} of {len(records)} question(s) failed and are not in the submission "
              f"(first: {failed[0]['error'][:160]}); run again to retry them", file=sys.stderr)
    return len(failed)


def cmd_retrieve(args) -> int:
    import json

    from rag_assets.storage.atomic import atomic_path
    from rag_assets.answer.scoring import add_page_hits

    questions = _questions_or_exit(args.questions)
    gold = load_gold(args.gold) if args.gold else None
    sets = {**parse_sets(args.set), "candidate_pages": args.top_k}
    cfg, store, reports, _ = _answer_setup(args.config, sets=sets)
    from rag_assets.retrieval.search import ReportIndexError
    from rag_assets.answer.run import NoLLM, build_answerer, ranked_pages

    answerer = build_answerer(cfg, store.root, reports, llm=NoLLM() if cfg.rerank == "none" else None,
                              filings=store.filings(reports))
    out = Path(args.out)
    hits: dict = {}
    failed = []
    with atomic_path(out) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for q in questions:
            try:
                pages = ranked_pages(answerer, q.text, args.top_k)
            except ReportIndexError as exc:  # that report's questions fail; the others go on
                failed.append(q.text)
                fh.write(json.dumps({"question_text": q.text, "pages": [], "error": str(exc)}) + "\n")
                print(f"error: {q.text[:70]}: {exc}", file=sys.stderr)
                continue
            if gold and q.text in gold:
                add_page_hits(hits, [f"{p.sha1}:{p.page_index}" for p in pages], gold[q.text]["reference_pools"])
            fh.write(json.dumps({"question_text": q.text, "pages": [
                {"pdf_sha1": p.sha1, "page_index": p.page_index, "score": round(float(p.score), 6)} for p in pages
            ]}) + "\n")
    print(f"{len(questions) - len(failed)} ranked page lists -> {out}" + (f"; {len(failed)} failed" if failed else ""))
    if gold:
        print("  ".join(f"page_hit@{k} {h / c:.3f}" for k, (h, c) in sorted(hits.items()) if c)
              + f"  ({next(iter(hits.values()), (0, 0))[1]} questions with gold pages; config {cfg.name}, "
              f"retrieval {cfg.retrieval})")
    return 1 if failed else 0


def parse_config_spec(spec: str) -> tuple[str, dict]:
    """``preset[:key=value,key=value]`` -> (preset, overrides)."""
    name, _, rest = spec.partition(":")
    return name, parse_sets([item for item in rest.split(",") if item]) if rest else {}


def _preload(answerer, reports: dict) -> None:
    from rag_assets.retrieval.search import ReportIndexError

    for sha1 in reports:
        try:
            answerer.retriever.index(sha1)
        except ReportIndexError:
            pass  # its questions fail, and are counted, in the benchmark itself
    if answerer.retriever.embedder is not None:
        answerer.retriever.embedder.embed(["warm-up"])


def cmd_bench_retrieval(args) -> int:
    import json

    from rag_assets.answer.run import NoLLM, build_answerer, ranked_pages
    from rag_assets.config import get_config, with_overrides
    from rag_assets.index.embedding import make_embedder
    from rag_assets.orchestration.resources import ReportStore
    from rag_assets.retrieval.bench import bench, labels_from_gold, labels_from_submission, misses, per_question, table

    questions = [q.text for q in _questions_or_exit(args.questions)]
    label_sets = {}
    if args.gold:
        label_sets["gold"] = labels_from_gold(load_gold(args.gold))
    if args.silver:
        label_sets["silver"] = labels_from_submission(args.silver)
    if not label_sets:
        print("error: give --gold and/or --silver (pages to find)", file=sys.stderr)
        return 2
    configs = []
    for spec in args.configs:
        preset, overrides = parse_config_spec(spec)
        configs.append((spec, with_overrides(get_config(preset), overrides)))
    store = ReportStore()
    reports = store.indexed_reports()
    if not reports:
        raise SystemExit(f"no ingested reports under {store.root}: run `rag-assets ingest` first")
    embedders: dict = {}
    results = []
    for spec, cfg in configs:
        cfg = cfg.model_copy(update={"candidate_pages": max(cfg.candidate_pages, args.top_k)})
        key = (cfg.embedder, cfg.embedding_model)
        if cfg.retrieval != "bm25" and key not in embedders:
            embedders[key] = make_embedder(cfg.embedder, cfg.embedding_model or None)
        answerer = build_answerer(cfg, store.root, reports, embedder=embedders.get(key),
                                  llm=NoLLM() if cfg.rerank == "none" else None, filings=store.filings(reports))

        def rank(q, answerer=answerer):
            return [f"{p.sha1}:{p.page_index}" for p in ranked_pages(answerer, q, args.top_k)]

        _preload(answerer, reports)  # indexes and models are loaded outside the timing
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


def cmd_evaluate(args) -> int:
    import json

    from rag_assets.answer.run import answer_and_score

    from rag_assets.orchestration.resources import ReportStore

    default = ReportStore()
    gold_path = Path(args.gold) if args.gold else default.gold_path
    if gold_path is None:
        print("error: no gold answers (use --gold ANSWERS_GOLD.json)", file=sys.stderr)
        return 2
    gold = load_gold(gold_path)
    questions = _questions_or_exit(args.questions or default.questions_path)
    cfg, store, reports, make = _answer_setup(args.config, args.model, args.base_url, parse_sets(args.set))
    records, summary, rows, tables = answer_and_score(make(), questions, gold, store.answers_dir(cfg.name),
                                              store.answers_db, progress=_progress_printer())
    print(json.dumps(summary, indent=2))
    print(tables)
    for r in rows:
        if r["value_score"] < 1 and not r["error"]:
            why = f" ({r['miss']} miss)" if r["miss"] else ""
            print(f"WRONG {str(r['value'])[:30]:30} gold {str(r['gold'])[:30]:30} {r['question_text'][:80]}{why}")
    return 1 if _failed(records) else 0


def guess_kind(question: str) -> str:
    q = question.strip().lower()
    if q.startswith("which of the companies") or " companies had " in q:
        return "comparative"
    if q.startswith(("did ", "does ", "is ", "was ", "has ", "have ", "were ", "are ")):
        return "boolean"
    if q.startswith(("what are the names", "which leadership", "list ")) or "names of" in q:
        return "names"
    if q.startswith(("how many", "how much")) or any(
        w in q for w in ("total", "value of", "number of", "amount", "ratio", "margin", "revenue", "(in ")
    ):
        return "number"
    return "name"


def cmd_ask(args) -> int:
    import json

    cfg, store, reports, make = _answer_setup(args.config, args.model, args.base_url, parse_sets(args.set))
    kind = args.kind or guess_kind(args.question)
    rec = make().answer(args.question, kind)
    if rec.error:
        print(f"error: the question failed, no answer: {rec.error}", file=sys.stderr)
        return 1
    print(f"kind: {kind}\nanswer: {rec.value}")
    for ref in rec.references:
        print(f"  page {ref['page_index']} of {reports.get(ref['pdf_sha1'], '?')} ({ref['pdf_sha1']})")
    from rag_assets.answer.computed import describe

    for line in describe(rec.computation, reports):
        print(line)
    if args.verbose_answer:
        print(json.dumps(rec.to_dict(), indent=2, default=str))
    else:
        print(f"pages sent: {[p['page_index'] for p in rec.pages_sent]}; grounded: {rec.grounded}; "
              f"{rec.seconds:.1f}s; {rec.prompt_tokens}+{rec.completion_tokens} tokens")
    return 0


def cmd_models(args) -> int:
    from rag_assets.llm.models import MODELS, ensure_model, model_path

    if args.fetch:
        print(ensure_model(args.fetch))
        return 0
    for name, spec in MODELS.items():
        path = model_path(name)
        print(f"{name:22} {'present' if path.exists() else 'absent ':8} {path}")
    return 0


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def whole_number(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def positive_int(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not positive")
    return value


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments are one 'error:' line (and exit 2), not a usage screen."""

    def error(self, message: str):
        self.exit(2, f"error: {self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="rag-assets", description=__doc__)
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = p.add_subparsers(dest="cmd", required=True)
    _ingest_verbs(sub)
    add_ui_verb(sub)
    _answer_verbs(sub)
    _bench_verbs(sub)
    return p


def _ingest_verbs(sub) -> None:
    s = sub.add_parser("ingest", help="register PDFs as report partitions and materialize their assets")
    s.add_argument("pdf_dir", nargs="?", help="folder of PDFs (default: data/pdfs)")
    s.add_argument("--subset", help="CSV with sha1,company_name columns (default: subset.csv beside the PDFs)")
    s.add_argument("--force", action="store_true", help="re-materialize even up-to-date partitions")
    s.add_argument("--table-serialization", action="store_true", default=None,
                   help="LLM statements per table, indexed as chunks beneath their table")
    s.add_argument("--chunk-context", choices=["none", "deterministic", "llm"], default=None,
                   help="context indexed with each chunk (llm: + a line written by the ingestion LLM)")
    s.add_argument("--ingest-model", default=None, help="ingestion LLM (default qwen2.5-coder-0.5b, embedded)")
    s.set_defaults(func=cmd_ingest)

    s = sub.add_parser("doctor", help="check every report's files against each other and its PDF; clear leftovers")
    s.add_argument("--repair", action="store_true", help="rebuild broken reports through the ingestion job")
    s.set_defaults(func=cmd_doctor)

    s = sub.add_parser("quickstart", help="sample reports into data/pdfs (if empty), ingest, answer sample questions")
    s.add_argument("--config", default="local", help="run configuration that answers (default: local)")
    s.add_argument("--model", help="override the configuration's answer model (embedded name or .gguf path)")
    s.set_defaults(func=cmd_quickstart)

    s = sub.add_parser("samples", help="write the synthetic sample reports into a folder")
    s.add_argument("folder")
    s.add_argument("--pages", type=int, default=0,
                   help="instead, write one long report of N pages (tables on every third) for benchmarks")
    s.set_defaults(func=cmd_samples)

    s = sub.add_parser("models", help="list the embedded GGUF models, or --fetch NAME to assemble one")
    s.add_argument("--fetch", metavar="NAME")
    s.set_defaults(func=cmd_models)


def _answer_verbs(sub) -> None:
    def llm_args(sp):
        sp.add_argument("--config", default="local", help="run configuration (preset) name")
        sp.add_argument("--model", help="override the answer model (GGUF name/path, or API model)")
        sp.add_argument("--base-url", help="answer through this OpenAI-compatible endpoint")
        sp.add_argument("--set", action="append", metavar="KEY=VALUE",
                        help="override a configuration field, e.g. --set retrieval=bm25 --set top_pages=5")

    s = sub.add_parser("answer", help="answer a questions file; writes the submission JSON, resumable")
    s.add_argument("questions")
    s.add_argument("--out", required=True)
    s.add_argument("--restart", action="store_true", help="ignore answers saved by an interrupted run")
    llm_args(s)
    s.set_defaults(func=cmd_answer)

    s = sub.add_parser("retrieve", help="ranked pages per question (JSONL), no answering")
    s.add_argument("questions")
    s.add_argument("--config", default="local")
    s.add_argument("--top-k", type=positive_int, default=10, help="pages per question (at least 1)")
    s.add_argument("--out", required=True)
    s.add_argument("--gold", help="gold answers: also print page hit@1/3/5/10")
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help="override a configuration field")
    s.set_defaults(func=cmd_retrieve)

    s = sub.add_parser("evaluate", help="answer the question set (resuming) and score it against gold")
    s.add_argument("--gold", help="gold answers in the challenge's format (default: data/answers_gold.json)")
    s.add_argument("--questions", help="questions file (default: data/questions.json)")
    llm_args(s)
    s.set_defaults(func=cmd_evaluate)

    s = sub.add_parser("ask", help="answer one question and show its pages")
    s.add_argument("question")
    s.add_argument("--kind", choices=["number", "name", "names", "boolean", "comparative"])
    s.add_argument("--verbose-answer", action="store_true", help="print the whole answer record")
    llm_args(s)
    s.set_defaults(func=cmd_ask)



def _bench_verbs(sub) -> None:
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
    s.add_argument("--packaged-graph", action="store_true",
                   help="embed with the packaged MiniLM graph instead of its fused copy (for before/after)")
    s.add_argument("--threads", type=whole_number, default=0, help="embedding threads (0: one per core)")
    s.set_defaults(func=cmd_bench)

    s = sub.add_parser("bench-ocr", help="OCR s/page and word recall on scans made from a text PDF's pages")
    s.add_argument("pdf", help="a PDF with a text layer (the truth OCR is measured against)")
    s.add_argument("--pages", type=int, default=8, help="pages spread over the report (default 8)")
    s.add_argument("--dpi", type=int, default=150, help="scan resolution (default 150)")
    s.add_argument("--no-defaults", action="store_true", help="skip the RapidOCR-defaults comparison")
    s.add_argument("--threads", type=whole_number, default=0, help="inference threads (0: one per core)")
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


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, or bad arguments (already said in one line)
        return int(exc.code or 0)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING, format="%(asctime)s %(name)s %(message)s"
    )
    from rag_assets.llm.embedded import BackendMissing
    from rag_assets.config import SettingsError
    from rag_assets.llm.models import ModelFetchError
    from rag_assets.answer.lineage import LineageBusy

    if args.cmd.startswith("bench") or args.cmd == "evaluate":  # figures are only comparable on one CPU kind
        from rag_assets.tools.machine import machine_line

        print(machine_line(), flush=True)
    try:
        return int(args.func(args) or 0)
    except (BackendMissing, ModelFetchError, SettingsError, InputFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except LineageBusy as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except Interrupted as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 128 + exc.signo
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exc:  # verbs exit early on bad input: report, keep the exit code
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
            return 2
        return int(exc.code or 0)
    except Exception as exc:  # a full or read-only disk is one line; anything else is a bug worth its traceback
        said = storage_fault(exc, _written_folders(args))
        if said is None:
            raise
        print(f"error: {said}", file=sys.stderr)
        return 1


def _written_folders(args) -> list[Path]:
    """The folders a command writes: its output file's, the data root and the Dagster instance."""
    from rag_assets.orchestration.instance import dagster_home

    out = [Path(args.out).resolve().parent] if getattr(args, "out", None) else []
    return [*out, data_root(), dagster_home()]


if __name__ == "__main__":
    sys.exit(main())
