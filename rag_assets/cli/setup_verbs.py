"""The verbs that set up and keep the data: ingest, doctor, quickstart, samples, models."""

from __future__ import annotations

import sys
from pathlib import Path

from rag_assets.cli.answering import quickstart_answers
from rag_assets.cli.ingest import ingest
from rag_assets.cli.root_settings_verb import cmd_settings
from rag_assets.orchestration.instance import dagster_home
from rag_assets.storage.paths import data_root


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
    code = quickstart_answers(args.config, args.model)
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

def cmd_models(args) -> int:
    from rag_assets.llm.models import MODELS, ensure_model, model_path

    if args.fetch:
        print(ensure_model(args.fetch))
        return 0
    for name, spec in MODELS.items():
        path = model_path(name)
        print(f"{name:22} {'present' if path.exists() else 'absent ':8} {path}")
    return 0


def add_setup_verbs(sub) -> None:
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

    s = sub.add_parser("settings", help="the data root's index settings (every process of the root uses them); "
                                        "--set NAME=VALUE changes them")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="parser, ocr_runtime, embedder, "
                   "table_serialization, chunk_context or ingest_model (repeatable)")
    s.set_defaults(func=cmd_settings)

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
