"""Question set, answers per run configuration, and their evaluation against gold answers."""

import time
from pathlib import Path
from urllib.parse import quote

import dagster as dg

from rag_assets.config import PRESETS, SettingsError
from rag_assets.llm.embedded import BackendMissing
from rag_assets.llm.models import ModelFetchError
from rag_assets.answer.service.questions import QuestionsFileError, load_questions
from rag_assets.answer.service.lineage import AnswerLog
from rag_assets.answer.evidence.computed import describe
from rag_assets.answer.service.run import score_answers
from rag_assets.answer.service.service import AnswerSettings, AnsweringService, resolve
from rag_assets.answer.service.scoring import load_gold
from rag_assets.storage.page_labels import page_name, printed_label
from rag_assets.storage.textfiles import InputFileError
from rag_assets.viewer.evidence import answer_url, viewer_base
from rag_assets.orchestration.monitoring import record_accuracy
from rag_assets.orchestration.resources import LLMResource, ReportStore

config_partitions = dg.StaticPartitionsDefinition(list(PRESETS))
GROUP = "answering"


@dg.asset(group_name=GROUP, code_version="1", kinds={"json"})
def question_set(context: dg.AssetExecutionContext, store: ReportStore) -> dg.MaterializeResult:
    """Question set: the validated questions file (challenge format) the answers are made for."""
    try:
        questions = load_questions(store.questions_path)
    except QuestionsFileError as exc:
        raise dg.Failure(description=str(exc)) from exc
    kinds: dict[str, int] = {}
    for q in questions:
        kinds[q.kind] = kinds.get(q.kind, 0) + 1
    return dg.MaterializeResult(
        metadata={"questions": len(questions), "path": dg.MetadataValue.path(str(store.questions_path)),
                  **{f"kind_{k}": v for k, v in sorted(kinds.items())}}
    )


@dg.asset(
    group_name=GROUP,
    partitions_def=config_partitions,
    code_version="1",
    deps=[
        question_set,
        dg.AssetDep("faiss_index", partition_mapping=dg.AllPartitionMapping()),
        dg.AssetDep("bm25_index", partition_mapping=dg.AllPartitionMapping()),
    ],
    kinds={"duckdb", "json"},
)
def answers(context: dg.AssetExecutionContext, store: ReportStore, llm: LLMResource) -> dg.MaterializeResult:
    """Answers: every question answered by one run configuration, with pages, lineage and costs."""
    try:
        settings = resolve(context.partition_key, store.library(), llm.overrides())
        service = AnsweringService(settings, llm=llm.client(settings.cfg))  # checks the backend, then the model
    except (SettingsError, BackendMissing, ModelFetchError) as exc:
        raise dg.Failure(description=str(exc)) from None
    try:
        questions = load_questions(store.questions_path)
    except QuestionsFileError as exc:
        raise dg.Failure(description=str(exc)) from None
    log_path = settings.out_dir / "answers.jsonl"
    if log_path.exists() and context.run.tags.get("rag_assets/resume", "true") != "true":
        log_path.unlink()
    t0 = time.perf_counter()
    kept, logged = service.reusable(questions, log_path)
    context.log.info(f"{kept} answer(s) reused (the same settings, model and indexes made them); "
                     f"{logged - kept} logged with other settings, model or indexes are answered again")

    reused: list[int] = []  # answers reused before the first new one (known at the first progress call)

    def progress(rec, done, total):
        reused[:] = reused or [done - 1]
        context.log.info(f"[{done}/{total}] {rec.value!r} ({rec.seconds:.1f}s) {rec.question_text[:80]} "
                         f"({time_left(time.perf_counter() - t0, done - reused[0], total - done)})")

    records = service.answer(questions, progress=progress)
    n = len(records)
    metadata = {**_answers_metadata(records, settings, time.perf_counter() - t0), "answers_reused": kept,
                "answered_in_this_run": len({(q.text, q.kind) for q in questions}) - kept}
    failed = [r for r in records if r.get("error")]
    if failed:
        raise dg.Failure(
            description=f"{len(failed)} of {n} question(s) failed and are not in the submission (first: "
            f"{failed[0]['error'][:200]}); materialize again to retry them",
            metadata=metadata,
        )
    return dg.MaterializeResult(metadata=metadata)


def time_left(elapsed: float, made: int, left: int) -> str:
    """'120 s so far, about 300 s left': the remaining questions at the pace of those answered in this run."""
    return f"{elapsed:.0f} s so far, about {left * elapsed / max(1, made):.0f} s left"


def _answers_metadata(records: list[dict], settings: AnswerSettings, wall_seconds: float) -> dict:
    n = len(records)
    return {
        "questions": n,
        "na_answers": sum(1 for r in records if r["value"] in ("N/A", False) and not r.get("error")),
        "errors": sum(1 for r in records if r.get("error")),
        "seconds_per_question": round(sum(r["seconds"] for r in records) / max(1, n), 2),
        "wall_seconds": round(wall_seconds, 1),
        "prompt_tokens": sum(r["prompt_tokens"] for r in records),
        "completion_tokens": sum(r["completion_tokens"] for r in records),
        "llm_calls": sum(r["llm_calls"] for r in records),
        "submission": dg.MetadataValue.path(str(settings.out_dir / "submission.json")),
        "lineage_db": dg.MetadataValue.path(str(settings.library.answers_db)),
        "configuration": settings.label,
        "config": dg.MetadataValue.json(settings.cfg.model_dump()),
    }


def _pages(pages: list[tuple[str, int]], reports: dict[str, str], keys: dict[str, str],
           pdfs: dict[str, Path] | None = None) -> str:
    """Each page as its company, page (with the number printed on it, when ``pdfs`` gives its PDF) and report
    partition key (a table cell shows text, not links: the links to the highlighted pages are
    ``wrong_answers_evidence``)."""
    def name(sha1: str, page: int) -> str:
        pdf = (pdfs or {}).get(sha1)
        return page_name(page, printed_label(pdf, page) if pdf else None)

    return ", ".join(f"{reports.get(sha1, sha1[:8])[:24]} {name(sha1, int(page))} ({keys.get(sha1, sha1)})"
                     for sha1, page in pages) or "-"


def _one_line(value) -> str:
    return (" | ".join(map(str, value)) if isinstance(value, list) else str(value))[:80]


def wrong_answers_table(rows: list[dict], reports: dict[str, str], keys: dict[str, str] | None = None,
                        limit: int = 60, pdfs: dict[str, Path] | None = None) -> dg.TableMetadataValue:
    """The answers whose value is wrong, with their gold, scores and links to cited and gold pages."""
    out = []
    for r in [r for r in rows if r["value_score"] < 1][:limit]:
        gold_pages = sorted({(k.split(":")[0], int(k.split(":")[1])) for pool in r["gold_pools"] for k in pool})
        out.append(dg.TableRecord({
            "question": r["question_text"][:200], "answer": str(r["value"])[:80], "gold": _one_line(r["gold"]),
            "value_score": float(r["value_score"]), "reference_score": float(r["reference_score"]),
            "cited_pages": _pages([tuple(x) for x in r["references"]], reports, keys or {}, pdfs),
            "gold_pages": _pages(gold_pages[:6], reports, keys or {}, pdfs),
            "computation": " | ".join(describe(r.get("computation"), reports))[:400] or "-",
        }))
    schema = dg.TableSchema(columns=[
        dg.TableColumn("question"), dg.TableColumn("answer"), dg.TableColumn("gold"),
        dg.TableColumn("value_score", "float"), dg.TableColumn("reference_score", "float"),
        dg.TableColumn("cited_pages", description="the answer's pages: company, zero-based page (and the number "
                                                  "printed on it), report partition key"),
        dg.TableColumn("gold_pages", description="pages that prove the gold answer"),
        dg.TableColumn("computation", description="a computed answer's formula and operands (figure, row, page)"),
    ])
    return dg.MetadataValue.table(out, schema=schema)


def wrong_answers_links(rows: list[dict], folder: str, viewer: str, limit: int = 60) -> dg.MetadataValue:
    """The wrong answers as markdown links (clickable in the UI) to the evidence viewer: each answer's cited
    pages highlighted beside its gold pages (served by `rag-assets view`, started by `rag-assets ui`)."""
    wrong = [r for r in rows if r["value_score"] < 1][:limit]
    lines = [f"- [{r['question_text'][:120].replace('[', '(').replace(']', ')')}]"
             f"({answer_url(viewer, folder, r['question_text'], r.get('kind', ''))}): {_one_line(r['value'])} (gold {_one_line(r['gold'])})"
             for r in wrong]
    return dg.MetadataValue.md("\n".join(lines) or "no wrong answer")


@dg.asset(
    group_name=GROUP,
    partitions_def=config_partitions,
    code_version="1",
    deps=[answers],
    kinds={"json"},
)
def evaluation(context: dg.AssetExecutionContext, store: ReportStore, llm: LLMResource) -> dg.MaterializeResult:
    """Evaluation: the challenge's G, R and Score, per-kind accuracy and page hit@k for one configuration."""
    gold_path = store.gold_path
    if gold_path is None:
        raise dg.Failure(description=f"no gold answers: set ReportStore.gold or put {store.root}/answers_gold.json")
    try:
        gold = load_gold(gold_path)
    except InputFileError as exc:
        raise dg.Failure(description=str(exc)) from None
    try:
        settings = resolve(context.partition_key, store.library(), llm.overrides())
    except SettingsError as exc:
        raise dg.Failure(description=str(exc)) from None
    records = list(AnswerLog(settings.out_dir / "answers.jsonl").load(include_errors=True).values())
    summary, rows, tables = score_answers(records, gold, settings.out_dir, settings.label)
    record_accuracy(context, context.partition_key, summary)
    viewer = viewer_base()
    return dg.MaterializeResult(
        metadata={
            **{k: v for k, v in summary.items() if v is not None and not isinstance(v, dict)},
            "wrong_answers": wrong_answers_table(rows, store.all_reports(), store.partition_keys(),
                                                 pdfs=store.pdf_paths()),
            "wrong_answers_evidence": wrong_answers_links(rows, settings.folder, viewer),
            "wrong_answers_in_viewer": dg.MetadataValue.url(f"{viewer}/#{quote(settings.folder)}"),  # a new tab
            "configurations_compared": dg.MetadataValue.url(f"{viewer}/configurations"),
            "evidence_viewer": dg.MetadataValue.url(viewer),
            "tables": dg.MetadataValue.md(tables),
        }
    )


answering_assets = [question_set, answers, evaluation]
