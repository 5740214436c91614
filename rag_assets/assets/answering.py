"""Question set, answers per run configuration, and their evaluation against gold answers."""

import json
import time

import dagster as dg

from rag_assets.assets.ingestion import bm25_index, faiss_index, report_pages
from rag_assets.core.config import PRESETS, get_config
from rag_assets.core.llm_embedded import BackendMissing
from rag_assets.core.models import ModelFetchError
from rag_assets.core.questions import QuestionsFileError, load_questions
from rag_assets.core.runner import AnswerDB, AnswerLog, answer_all, build_answerer, write_submission
from rag_assets.core.scoring import evaluate
from rag_assets.resources import EmbedderResource, LLMResource, ReportStore

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
        dg.AssetDep(faiss_index, partition_mapping=dg.AllPartitionMapping()),
        dg.AssetDep(bm25_index, partition_mapping=dg.AllPartitionMapping()),
    ],
    kinds={"duckdb", "json"},
)
def answers(
    context: dg.AssetExecutionContext, store: ReportStore, llm: LLMResource, embedder: EmbedderResource
) -> dg.MaterializeResult:
    """Answers: every question answered by one run configuration, with pages, lineage and costs."""
    cfg = llm.apply(get_config(context.partition_key))
    questions = load_questions(store.questions_path)
    reports = store.indexed_reports()
    if not reports:
        raise dg.Failure(description="no ingested report: materialize the ingestion assets first")
    out_dir = store.answers_dir(cfg.name)
    log_path = out_dir / "answers.jsonl"
    if log_path.exists() and context.run.tags.get("rag_assets/resume", "true") != "true":
        log_path.unlink()
    try:
        client = llm.client(cfg)  # checks the LLM backend before fetching any model
    except (BackendMissing, ModelFetchError) as exc:
        raise dg.Failure(description=str(exc)) from None
    answerer = build_answerer(cfg, store.root, reports, llm=client)
    db = AnswerDB(store.answers_db)
    t0 = time.perf_counter()

    def progress(rec, done, total):
        context.log.info(f"[{done}/{total}] {rec.value!r} ({rec.seconds:.1f}s) {rec.question_text[:80]}")

    try:
        records = answer_all(answerer, questions, AnswerLog(log_path), db, run_id=cfg.name,
                             parallel=cfg.parallel_requests, progress=progress)
    finally:
        db.close()
    write_submission(records, out_dir / "submission.json", cfg.name)
    n = len(records)
    return dg.MaterializeResult(
        metadata={
            "questions": n,
            "na_answers": sum(1 for r in records if r["value"] in ("N/A", False)),
            "errors": sum(1 for r in records if r.get("error")),
            "seconds_per_question": round(sum(r["seconds"] for r in records) / max(1, n), 2),
            "wall_seconds": round(time.perf_counter() - t0, 1),
            "prompt_tokens": sum(r["prompt_tokens"] for r in records),
            "completion_tokens": sum(r["completion_tokens"] for r in records),
            "llm_calls": sum(r["llm_calls"] for r in records),
            "submission": dg.MetadataValue.path(str(out_dir / "submission.json")),
            "lineage_db": dg.MetadataValue.path(str(store.answers_db)),
            "config": dg.MetadataValue.json(cfg.model_dump()),
        }
    )


def wrong_answers_markdown(rows: list[dict], limit: int = 60) -> str:
    """A table of the wrong answers, each page linked to its report partition in the UI."""
    key = report_pages.key.to_user_string()
    lines = ["| question | answer | gold | cited pages | gold pages |", "|---|---|---|---|---|"]
    for r in [r for r in rows if r["value_score"] < 1 or r["reference_score"] < 1][:limit]:
        cited = ", ".join(f"[{s[:8]}:{p}](/assets/{key}?partition={s})" for s, p in r["references"]) or "-"
        gold = ", ".join(sorted({k for pool in r["gold_pools"] for k in pool}))[:200] or "-"
        q = r["question_text"].replace("|", "/")[:110]
        lines.append(f"| {q} | {str(r['value'])[:40]} | {str(r['gold'])[:40]} | {cited} | {gold} |")
    return "\n".join(lines)


@dg.asset(
    group_name=GROUP,
    partitions_def=config_partitions,
    code_version="1",
    deps=[answers],
    kinds={"json"},
)
def evaluation(context: dg.AssetExecutionContext, store: ReportStore) -> dg.MaterializeResult:
    """Evaluation: the challenge's G, R and Score, per-kind accuracy and page hit@k for one configuration."""
    gold_path = store.gold_path
    if gold_path is None:
        raise dg.Failure(description=f"no gold answers: set ReportStore.gold or put {store.root}/answers_gold.json")
    gold = json.loads(gold_path.read_text(encoding="utf-8"))
    records = list(AnswerLog(store.answers_dir(context.partition_key) / "answers.jsonl").load().values())
    ev = evaluate(records, gold)
    summary = ev.summary()
    (store.answers_dir(context.partition_key) / "evaluation.json").write_text(
        json.dumps({"summary": summary, "rows": ev.rows}, indent=2, default=str), encoding="utf-8"
    )
    return dg.MaterializeResult(
        metadata={
            **{k: v for k, v in summary.items() if v is not None},
            "wrong_answers": dg.MetadataValue.md(wrong_answers_markdown(ev.rows)),
        }
    )


answering_assets = [question_set, answers, evaluation]
