"""Per-report ingestion assets, one per stage of ``ingest.stages.STAGES``: PDF -> Docling JSON -> page markdown
-> (table statements) -> chunks -> (chunk contexts) -> FAISS and BM25 indexes.

Staleness is Dagster's: each asset's code version is its stage's logic version plus the fingerprint of the
settings it reads, and each materialization's data version is the hash of the files it wrote."""


import logging
import time

import dagster as dg

from rag_assets.answer.routing.filings import COVER_PAGES, FORM_RE, Filing, detect
from rag_assets.ingest.parsing import PdfParseError
from rag_assets.ingest.stages import STAGES, IngestSettings, Stage, StageInputs, run_stage, stage_code_versions
from rag_assets.orchestration.interrupts import SignalLatch, latched_signals
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore
from rag_assets.storage import artifacts as art
from rag_assets.storage.catalog import SourceChangedError
from rag_assets.storage.manifest import files_hash, record_output

reports_partitions = dg.DynamicPartitionsDefinition(name="reports")
GROUP = "ingestion"

# Rebuild a partition's asset when its code or settings change, or when an input was rebuilt: never because a
# run failed (a failed partition waits for a fix, a new PDF, or a user).
REBUILD = (
    (dg.AutomationCondition.code_version_changed() | dg.AutomationCondition.any_deps_updated()).since_last_handled()
    & ~dg.AutomationCondition.missing()
    & ~dg.AutomationCondition.any_deps_missing()
    & ~dg.AutomationCondition.any_deps_in_progress()
    & ~dg.AutomationCondition.in_progress()
).with_label("code, settings or inputs changed")

DESCRIPTIONS = {
    "parsed_report": "Parsed report: the PDF as a Docling document (JSON) with page provenance for every item.",
    "report_pages": "Cleaned pages: one markdown text per zero-based PDF page, glyph noise and repeated headers "
    "removed.",
    "serialized_tables": "Serialized tables: LLM statements {subject_core_entity, information_block} per table "
    "(empty when off).",
    "report_chunks": "Chunks: ~300-token pieces of one page each (tables whole), in Parquet.",
    "chunk_contexts": "Chunk contexts: an LLM-written line situating each chunk in its report (empty when off).",
    "faiss_index": "FAISS index: normalized chunk embeddings in IndexFlatIP, with the row -> chunk_id map.",
    "bm25_index": "BM25 index: bm25s over the same chunks, numbers and tickers kept as tokens.",
}
KINDS = {"parsed_report": {"pdf", "json"}, "faiss_index": {"faiss"}, "bm25_index": {"bm25"}}
RESOURCES = {"parsed_report": {"parser"}, "serialized_tables": {"llm"}, "chunk_contexts": {"llm"},
             "faiss_index": {"embedder"}}
PARQUET = {"report_pages": art.PAGES_SCHEMA, "serialized_tables": art.TABLES_SCHEMA,
           "report_chunks": art.CHUNKS_SCHEMA, "chunk_contexts": art.CONTEXTS_SCHEMA}


def ingest_settings(store: ReportStore, parser: ParserResource, embedder: EmbedderResource,
                    llm: LLMResource) -> IngestSettings:
    """The ingestion settings the resources describe."""
    return IngestSettings(chunking=store.chunking(), parser=parser.fingerprint(), embedder=embedder.fingerprint(),
                          ingest_llm=llm.ingest_fingerprint())


PROGRESS_LOG = logging.getLogger("rag_assets.progress")  # every step, for a caller's live display (the CLI)


def progress_logger(context, what: str, every: float = 10.0, latch: SignalLatch | None = None):
    """A callback (done, total) that logs to the run at most every ``every`` seconds, and at the end; every
    step also goes to the ``rag_assets.progress`` Python logger at DEBUG, and raises a signal ``latch`` holds."""
    last = [time.monotonic()]

    def progress(done: int, total: int) -> None:
        if latch:
            latch.check()
        PROGRESS_LOG.debug("%s %d/%d", what, done, total)
        if time.monotonic() - last[0] > every or done == total:
            last[0] = time.monotonic()
            context.log.info(f"{what} {done}/{total}")

    return progress


def stage_inputs(context: dg.AssetExecutionContext, settings: IngestSettings,
                 latch: SignalLatch | None = None) -> StageInputs:
    """The inputs of a stage of this run's partition, from the run's resources (progress checks ``latch``)."""
    res = context.resources
    store: ReportStore = res.store
    src = store.source(context.partition_key)
    if context.run.tags.get("company") != src.company_name:  # the company shows on every run of its partition
        context.instance.add_run_tags(context.run_id, {"company": src.company_name})
    parser = getattr(res, "parser", None)
    llm = getattr(res, "llm", None)
    embedder = getattr(res, "embedder", None)
    return StageInputs(
        paths=store.paths(src.sha1), company=src.company_name, pdf=src.path, settings=settings,
        parse=(lambda pdf, name, progress, ocr_progress: parser.parse(pdf, name=name, progress=progress,
                                                                    ocr_progress=ocr_progress)) if parser else None,
        embedder=embedder.get if embedder else None,
        llm=llm.ingest_client if llm else None,
        llm_cache=store.llm_cache,
        progress=lambda what: progress_logger(context, what, latch=latch),
    )


def _metadata(stage: Stage, x: StageInputs, meta: dict) -> dict:
    """The materialization's metadata: the stage's figures, its files, row count and schema, a sample."""
    out = {k: v for k, v in meta.items() if v is not None}
    out["company_name"] = x.company
    out["pdf"] = dg.MetadataValue.path(str(x.pdf))
    files = stage.outputs(x.paths)
    out["path"] = dg.MetadataValue.path(str(files[0]))
    if stage.name in PARQUET:
        import pyarrow.parquet as pq

        out["dagster/row_count"] = pq.read_metadata(files[0]).num_rows
        out["dagster/column_schema"] = dg.TableSchema(
            columns=[dg.TableColumn(f.name, str(f.type)) for f in PARQUET[stage.name]]
        )
    if stage.name == "report_pages":  # the filing as its cover states it (subset.csv's columns take precedence)
        pages = [p.text for p in art.read_pages(x.paths.pages)[:COVER_PAGES]]
        filing = detect(Filing(x.paths.sha1, x.company), pages)
        out["doc_type"], out["fiscal_year"] = filing.doc_type or "unknown", filing.year or 0
        form = FORM_RE.search("\n".join(pages))
        out["form"] = f"Form {form.group(1)}" if form else "not stated on the cover"  # as the cover says it
    sample = SAMPLES.get(stage.name)
    if sample is not None:
        text = sample(x)
        if text:
            out["sample"] = dg.MetadataValue.md(text)
    return out


def _sample_page(x: StageInputs) -> str:
    pages = art.read_pages(x.paths.pages)
    page = next((p for p in pages if p.n_tables), next((p for p in pages if p.text), None))
    return f"**page_index {page.page_index}**\n\n{page.text[:3000]}" if page else ""


def _sample_tables(x: StageInputs) -> str:
    rows = art.read_table_blocks(x.paths.tables)[:12]
    return "\n".join(f"- p{r['page_index']} **{r['subject_core_entity']}**: {r['information_block']}" for r in rows)


def _sample_contexts(x: StageInputs) -> str:
    rows = list(art.read_llm_contexts(x.paths.chunk_contexts).items())[:8]
    return "\n".join(f"- `{k}`: {v}" for k, v in rows)


SAMPLES = {"report_pages": _sample_page, "serialized_tables": _sample_tables, "chunk_contexts": _sample_contexts}


def _run_stage(stage: Stage, context: dg.AssetExecutionContext, settings: IngestSettings, code_version: str):
    try:
        with latched_signals() as latch:
            x = stage_inputs(context, settings, latch)
            meta = run_stage(stage, x)
            latch.check()
    except (PdfParseError, SourceChangedError) as exc:
        raise dg.Failure(description=f"{x.company} ({x.pdf}): {exc}", allow_retries=False,
                         metadata={"pdf": dg.MetadataValue.path(str(x.pdf)), "error": type(exc).__name__}) from exc
    data_version = files_hash(stage.outputs(x.paths))
    record_output(x.paths, stage.name, code_version, data_version)
    if meta.get("enabled"):
        context.log.info(f"{x.company}: {stage.name}: {meta.get('llm_items')} items, {meta.get('llm_calls')} LLM "
                         f"calls, {meta.get('llm_cache_hits')} cached, {meta.get('llm_failures')} failed")
    return dg.MaterializeResult(metadata=_metadata(stage, x, meta), data_version=dg.DataVersion(data_version))


def stage_asset(stage: Stage, settings: IngestSettings, code_version: str) -> dg.AssetsDefinition:
    """The asset of one ingestion stage, partitioned by report."""

    @dg.asset(
        name=stage.name,
        description=DESCRIPTIONS[stage.name],
        partitions_def=reports_partitions,
        code_version=code_version,
        group_name=GROUP,
        deps=list(stage.deps),
        kinds=KINDS.get(stage.name, {"parquet"}),
        required_resource_keys={"store", *RESOURCES.get(stage.name, set())},
        automation_condition=REBUILD,
    )
    def _asset(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
        return _run_stage(stage, context, settings, code_version)

    return _asset


def ingestion_assets(settings: IngestSettings) -> list[dg.AssetsDefinition]:
    """One asset per stage, versioned by ``settings``."""
    versions = stage_code_versions(settings)
    return [stage_asset(stage, settings, versions[name]) for name, stage in STAGES.items()]
