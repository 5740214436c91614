"""The answering verbs: answer, retrieve, evaluate, ask (and the quickstart's answers)."""

from __future__ import annotations

import sys
from pathlib import Path

from rag_assets.answer.question.kinds import guess_kind
from rag_assets.answer.service.questions import clean_text, repeated
from rag_assets.answer.service.scoring import load_gold
from rag_assets.viewer.evidence import answer_url, needles, page_url, viewer_base
from rag_assets.cli.common import (answering, failed_count, parse_sets, positive_int, progress_printer,
                                   questions_or_exit)


def quickstart_answers(config: str, model: str | None = None) -> int:
    """Answer the question set with ``config`` from scratch, printing each answer with its pages."""
    from rag_assets.orchestration.resources import ReportStore

    service = answering(config, model)
    store, settings = ReportStore(), service.settings
    questions = questions_or_exit(store.questions_path)
    reports = settings.library.reports
    service.answerer  # checks the LLM backend, then fetches the model (progress bar, SHA-256 check)
    (settings.out_dir / "answers.jsonl").unlink(missing_ok=True)  # fresh answers, once the model is known to load
    print(f"\nanswering {len(questions)} question(s) with '{settings.label}' ({settings.cfg.answer_model}) into "
          f"{settings.out_dir} ...")

    def show(rec, done, total):
        pages = ", ".join(f"{reports.get(r['pdf_sha1'], '?')} p.{r['page_index']}" for r in rec.references) or "-"
        shown = f"error: {rec.error}" if rec.error else f"{rec.value}   pages: {pages}"
        print(f"[{done}/{total}] {rec.question_text}\n      -> {shown}   ({rec.seconds:.0f}s)", flush=True)

    gold = load_gold(store.gold_path) if store.gold_path else {}
    scored = service.evaluate(questions, gold, progress=show)
    if gold:
        summary = scored.summary
        print(f"\nscore against {store.gold_path.name}: G {summary['G_percent']}%, R {summary['R_percent']}%, "
              f"{summary['score_per_100']} per 100 questions; {summary['seconds_per_question']} s per question")
    return 1 if failed_count(scored.records) else 0

def out_problem(out: Path, inputs: list[Path]) -> str | None:
    """Why ``out`` may not be written: it is a folder, or one of the inputs (it would be overwritten)."""
    if out.is_dir():
        return f"--out {out} is a folder; give a file path"
    if any(out == Path(p).resolve() for p in inputs):
        return f"--out {out} is an input of this run; it would be overwritten"
    return None


def say_reused(service, questions, log_path: Path) -> None:
    """How many logged answers this run reuses (the same settings, model and indexes made them), and why the
    others are answered again."""
    reused, logged = service.reusable(questions, log_path)
    if logged:
        print(f"resuming: {reused} answer(s) reused from {log_path}"
              + (f"; {logged - reused} made with other settings, model or indexes are answered again"
                 if logged > reused else ""))


def cmd_answer(args) -> int:
    out = Path(args.out).resolve()
    problem = out_problem(out, [Path(args.questions)])
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    questions = questions_or_exit(args.questions)
    service = answering(args.config, args.model, args.base_url, parse_sets(args.set))
    log_path = out.with_name(out.name + ".progress.jsonl")
    if args.restart:
        log_path.unlink(missing_ok=True)
    n = repeated(questions)
    if n:
        print(f"note: {n} question(s) repeat an earlier one (same text and kind): each is answered once")
    say_reused(service, questions, log_path)
    records = service.answer(questions, log_path, out, run_id=f"{service.settings.label}:{out.name}",
                             progress=progress_printer())
    failed = failed_count(records)
    print(f"{len(records) - failed} answers -> {out}  (lineage: {service.settings.library.answers_db})")
    return 1 if failed else 0

def cmd_retrieve(args) -> int:
    import json

    from rag_assets.storage.atomic import atomic_path
    from rag_assets.answer.service.scoring import add_page_hits
    from rag_assets.retrieval.search import ReportIndexError

    problem = out_problem(Path(args.out).resolve(), [Path(args.questions)] + ([Path(args.gold)] if args.gold else []))
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    questions = questions_or_exit(args.questions)
    gold = load_gold(args.gold) if args.gold else None
    service = answering(args.config, sets={**parse_sets(args.set), "candidate_pages": args.top_k},
                        retrieval_only=True)
    out = Path(args.out)
    hits: dict = {}
    failed = []
    with atomic_path(out) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for q in questions:
            try:
                pages = service.rank(q.text, args.top_k)
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
        cfg = service.settings.cfg
        print("  ".join(f"page_hit@{k} {h / c:.3f}" for k, (h, c) in sorted(hits.items()) if c)
              + f"  ({next(iter(hits.values()), (0, 0))[1]} questions with gold pages; config {cfg.name}, "
              f"retrieval {cfg.retrieval})")
    return 1 if failed else 0

def cmd_evaluate(args) -> int:
    import json

    from rag_assets.orchestration.resources import ReportStore

    default = ReportStore()
    gold_path = Path(args.gold) if args.gold else default.gold_path
    if gold_path is None:
        print("error: no gold answers (use --gold ANSWERS_GOLD.json)", file=sys.stderr)
        return 2
    gold = load_gold(gold_path)
    questions = questions_or_exit(args.questions or default.questions_path)
    service = answering(args.config, args.model, args.base_url, parse_sets(args.set))
    say_reused(service, questions, service.settings.out_dir / "answers.jsonl")
    scored = service.evaluate(questions, gold, progress=progress_printer())
    print(json.dumps(scored.summary, indent=2))
    print(f"answers, submission and evaluation.json -> {service.settings.out_dir}")
    print(scored.tables)
    viewer = viewer_base()  # rag-assets view
    for r in scored.rows:
        if r["value_score"] < 1 and not r["error"]:
            why = f" ({r['miss']} miss)" if r["miss"] else ""
            why += f"\n      {r['value']} because: {r['na_reason']}" if r.get("na_reason") else ""
            print(f"WRONG {str(r['value'])[:30]:30} gold {str(r['gold'])[:30]:30} {r['question_text'][:80]}{why}\n"
                  f"      view: {answer_url(viewer, service.settings.folder, r['question_text'], r['kind'])}")
    return 1 if failed_count(scored.records) else 0

def cmd_ask(args) -> int:
    import json

    from rag_assets.orchestration.resources import ReportStore
    from rag_assets.storage.page_labels import printed_label

    service = answering(args.config, args.model, args.base_url, parse_sets(args.set))
    reports = service.settings.library.reports
    question = clean_text(args.question)  # a byte the terminal could not decode is no traceback later
    kind = args.kind or guess_kind(question)
    rec = service.ask(question, kind)
    if rec.error:
        print(f"error: the question failed, no answer: {rec.error}", file=sys.stderr)
        return 1
    print(f"kind: {kind}\nanswer: {rec.value}")
    if rec.na_reason:
        print(f"{rec.value} because: {rec.na_reason}")
    viewer = viewer_base()
    shown = needles(rec.to_dict())
    pdfs = ReportStore().pdf_paths()
    for ref in rec.references:
        sha1, page = ref["pdf_sha1"], ref["page_index"]
        label = printed_label(pdfs[sha1], page) if sha1 in pdfs else None
        print(f"  page {page}{f' (printed {label})' if label else ''} of {reports.get(sha1, '?')} ({sha1})\n"
              f"    view: {page_url(viewer, sha1, page, shown.get((sha1, page), []))}")
    from rag_assets.answer.evidence.computed import describe
    from rag_assets.answer.readers.record import judgement_lines

    if rec.plan and rec.plan.get("source"):
        print(f"plan ({rec.plan['source']}): {rec.plan['formula']} [{rec.plan['how']}]; period "
              f"{', '.join(map(str, rec.plan['years']))}; unit {rec.plan['unit']}")
    for line in describe(rec.computation, reports) + judgement_lines(rec.to_dict(), reports):
        print(line)
    if args.verbose_answer:
        print(json.dumps(rec.to_dict(), indent=2, default=str))
    else:
        print(f"pages sent: {[p['page_index'] for p in rec.pages_sent]}; grounded: {rec.grounded}; "
              f"{rec.seconds:.1f}s; {rec.prompt_tokens}+{rec.completion_tokens} tokens")
    return 0


def cmd_plan(args) -> int:
    """The question's plan and its checks, without retrieval or an answer."""
    from rag_assets.answer.question.metric_library import default_library
    from rag_assets.answer.question.planning import company_plan, plan_question

    args.question = clean_text(args.question)
    if not args.question.strip():
        print("error: plan: the question is empty", file=sys.stderr)
        return 2
    kind = args.kind or guess_kind(args.question)
    llm = None
    if args.model_plan:
        from rag_assets.config import get_config
        from rag_assets.llm.factory import build_llm

        llm = build_llm(get_config(args.config), args.model)
    routed = _routed_company(args.config, args.question)
    if routed is None:  # no ingested reports: the plan of the words alone
        plan = plan_question(args.question, kind, default_library(), llm)
    else:  # as the answerer plans it: the company as the question writes it owns what follows it
        route, own_names, parts = routed
        print(f"company: {route.company} (written: {', '.join(route.written)})")
        plan = company_plan(args.question, kind, route.written, default_library(), llm, own_names, parts)
    print("\n".join(plan.lines()))
    for written in plan.model_written:
        print(f"model wrote: {written['expression']} with " + ", ".join(
            f"{o['letter']} = {o['printed'] or o['item']} {o['year']}" for o in written["operands"]))
    return 0


def _routed_company(config: str, question: str):
    """(the one company ``question`` names, every name it goes by, the parts its filings name) over the data
    root's reports, or None when the root has no reports or the question names no company or several."""
    from rag_assets.config import SettingsError

    try:
        answerer = answering(config, retrieval_only=True).answerer
    except SettingsError:
        return None
    found = answerer.filing_routes.routes(question)
    if len(found) != 1:
        return None
    return found[0], answerer.filing_routes.own_names(found[0].company), answerer.numbers.parts_named(found[0])


def add_answer_verbs(sub) -> None:
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

    s = sub.add_parser("plan", help="the question's plan (period, unit, formula or criterion) and its checks")
    s.add_argument("question")
    s.add_argument("--kind", choices=["number", "name", "names", "boolean", "comparative"])
    s.add_argument("--model-plan", action="store_true",
                   help="where Python's reader finds no formula, let the model write one (checked by Python)")
    s.add_argument("--config", default="local", help="run configuration whose model writes the plan")
    s.add_argument("--model", help="override that model (GGUF name or path)")
    s.set_defaults(func=cmd_plan)

    s = sub.add_parser("ask", help="answer one question and show its pages")
    s.add_argument("question")
    s.add_argument("--kind", choices=["number", "name", "names", "boolean", "comparative"])
    s.add_argument("--verbose-answer", action="store_true", help="print the whole answer record")
    llm_args(s)
    s.set_defaults(func=cmd_ask)
