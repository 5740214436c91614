"""The ingestion chain as Dagster assets: asset checks, Dagster staleness, the inbox sensor and schedule."""

from __future__ import annotations

import json
from pathlib import Path
import re
import shutil
import subprocess

import dagster as dg
import pytest

from rag_assets.orchestration.definitions import ingestion_graph
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.index.bm25 import IDS_FILE, BM25Index
from rag_assets.storage.catalog import file_sha1
from rag_assets.index.embedding import MiniLMOnnxEmbedder
from rag_assets.storage.artifacts import read_chunks, read_pages
from rag_assets.index.vectors import VectorIndex
from rag_assets.orchestration.definitions import build_definitions, defs
from rag_assets.orchestration.resources import EmbedderResource, LLMResource, ParserResource, ReportStore
from rag_assets.orchestration.automation import build_inbox_sensor, nightly_inbox_schedule
from rag_assets.orchestration.staleness import assets_to_rebuild, dagster_stale
from rag_assets.ingest.stages import STAGES
from rag_assets_tests.conftest import BLUEBIRD, NORTHWIND


def _resources(**store_kw):
    return {
        "store": ReportStore(**store_kw),
        "parser": ParserResource(route="weight_free"),
        "embedder": EmbedderResource(provider="onnx"),
        "llm": LLMResource(),
    }


def _materialize(instance, sha1, resources, raise_on_error=True, selection=None):
    return dg.materialize(
        ingestion_graph(resources),
        partition_key=sha1,
        instance=instance,
        resources=resources,
        raise_on_error=raise_on_error,
        selection=selection,
    )


@pytest.fixture()
def instance():
    # instance_for_test rather than ephemeral(): schedules re-open their instance from a reference
    with dg.instance_for_test() as inst:
        yield inst


@pytest.fixture()
def registered(inbox, instance):
    """The sample reports scanned into the catalog and registered as partitions of an ephemeral instance."""
    store = ReportStore()
    found = store.scan_inbox()
    instance.add_dynamic_partitions(reports_partitions.name, [r.sha1 for r in found])
    return instance, store, {r.company_name: r for r in found}


def test_definitions_load():
    job = defs.resolve_job_def("ingest_reports")
    assert {n.name for n in job.nodes} >= {"parsed_report", "report_pages", "report_chunks", "faiss_index"}
    assert defs.resolve_sensor_def("inbox_sensor") and defs.resolve_schedule_def("nightly_inbox_schedule")


def test_whole_chain_materializes_with_content(registered):
    instance, store, reports = registered
    src = reports[NORTHWIND.company]
    result = _materialize(instance, src.sha1, _resources())
    assert result.success
    # every asset check passed
    checks = result.get_asset_check_evaluations()
    assert len(checks) == 3 and all(c.passed for c in checks)
    # metadata a user sees in the UI
    mats = {m.asset_key.path[-1]: m.metadata for m in result.asset_materializations_for_node("parsed_report")}
    assert mats["parsed_report"]["pages"].value == 6 and mats["parsed_report"]["tables"].value == 1
    chunk_meta = result.asset_materializations_for_node("report_chunks")[0].metadata
    assert chunk_meta["chunks"].value >= 5 and chunk_meta["seconds"].value >= 0

    paths = store.paths(src.sha1)
    pages = read_pages(paths.pages)
    assert [p.page_index for p in pages] == list(range(6))
    chunks = read_chunks(paths.chunks)
    assert set(chunks.columns) >= {"chunk_id", "report_sha1", "page_index", "text", "n_tokens", "kind"}
    table_chunks = chunks[chunks.kind == "table"]
    assert len(table_chunks) == 1 and int(table_chunks.page_index.iloc[0]) == 3
    assert "| Total assets | 7,710,615 | 8,818,186 |" in table_chunks.text.iloc[0].splitlines()
    assert (chunks.report_sha1 == src.sha1).all() and 4 not in set(chunks.page_index)

    # the indexes return the expected chunk
    bm25 = BM25Index.load(paths.bm25_dir)
    hit = bm25.search("total assets", 1)[0][0]
    assert chunks.set_index("chunk_id").loc[hit, "page_index"] == 3
    emb = MiniLMOnnxEmbedder()
    faiss = VectorIndex.load(paths.faiss_dir_for(emb.model_name))
    hit = faiss.search(emb.embed(["how many people are employed by the group"])[0], 1, emb.model_name)[0][0]
    assert chunks.set_index("chunk_id").loc[hit, "page_index"] == 5
    assert not list(paths.dir.rglob("*.tmp")), "no temp files left"


def test_bad_pdf_fails_only_its_own_partition(registered, data_home):
    instance, store, reports = registered
    bad = data_home / "pdfs" / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n garbage garbage")
    cat = store.scan_inbox()
    bad_sha = file_sha1(bad)
    assert bad_sha in {r.sha1 for r in cat}
    instance.add_dynamic_partitions(reports_partitions.name, [bad_sha])
    result = _materialize(instance, bad_sha, _resources(), raise_on_error=False)
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    assert "corrupt" in failure.step_failure_data.user_failure_data.description
    assert not store.paths(bad_sha).parsed.exists()
    ok = _materialize(instance, reports[BLUEBIRD.company].sha1, _resources())
    assert ok.success


def test_sensor_registers_new_pdfs_once(inbox, instance):
    inbox_sensor = build_inbox_sensor()
    res = {"store": ReportStore()}
    ctx = dg.build_sensor_context(instance=instance, resources=res)
    result = inbox_sensor(ctx)
    assert isinstance(result, dg.SensorResult)
    keys = {r.partition_key for r in result.run_requests}
    sources = ReportStore().catalog().reports.values()
    assert keys == {s.key for s in sources} and len(keys) == len(list(inbox.glob("*.pdf")))
    for s in sources:  # readable, typed as a person would: the company as printed, its year, the SHA-1's digits
        year = re.search(r"\d{4}", Path(s.path).name).group()
        assert s.key == f"{s.company_name} {year} {s.sha1[:8]}"
    added = result.dynamic_partitions_requests[0].partition_keys
    instance.add_dynamic_partitions(reports_partitions.name, list(added))
    again = inbox_sensor(dg.build_sensor_context(instance=instance, resources=res))
    assert isinstance(again, dg.SkipReason)
    # a changed file is a new SHA-1, hence a new partition
    pdf = next(inbox.glob("northwind*.pdf"))
    changed = inbox / "northwind_v2.pdf"
    shutil.copy(pdf, changed)
    with open(changed, "ab") as fh:
        fh.write(b"\n% appended revision\n")
    third = inbox_sensor(dg.build_sensor_context(instance=instance, resources=res))
    [request] = third.run_requests
    # no subset row, no year in its file name: named by its file, the year its cover's title states
    assert request.partition_key == f"northwind v2 2023 {file_sha1(changed)[:8]}" and \
        request.partition_key not in keys


def test_a_key_is_the_printed_name_and_year_and_never_selection_syntax():
    from rag_assets.storage.keys import readable, report_key
    from rag_assets.storage.covers import year_of_cover

    sha = "ab" * 20
    assert report_key("Smith, Jones & Co. [Holdings]", 2021, sha) == "Smith Jones & Co. Holdings 2021 abababab"
    assert report_key("a/b...c\"d\"", None, sha) == "a b c d abababab"
    assert report_key("???", None, sha) == "report abababab"
    assert readable(report_key("Acme", None, sha)) and not readable("acme-abababab") and not readable(sha)
    assert year_of_cover("FORM 10-K\nFor the fiscal year ended December 31, 2022") == 2022
    assert year_of_cover("For the quarterly period ended June 30, 2023") == 2023
    assert year_of_cover("Annual Report and Accounts 2022/23") == 2023
    assert year_of_cover("Founded in 1887. Printed 2023-03-01") is None  # a year that is no fiscal year


def test_an_older_instances_sha1_partitions_get_readable_keys_without_ingesting_again(registered):
    """An instance and a catalog as the code before readable keys made them (SHA-1 partitions, no keys):
    the partitions are renamed, their materializations carried over, and nothing is stale."""
    from rag_assets.orchestration.partition_keys import migrate_partition_keys
    from rag_assets.orchestration.staleness import assets_to_rebuild

    instance, store, reports = registered
    src, other = reports[NORTHWIND.company], reports[BLUEBIRD.company]
    res = _resources()
    _materialize(instance, src.sha1, res)
    data = json.loads(store.catalog_path.read_text())
    for entry in data["reports"].values():
        entry.pop("key", None)
    store.catalog_path.write_text(json.dumps(data))
    defs = build_definitions(res)
    moved = migrate_partition_keys(instance, store)
    key = moved[src.sha1]
    assert key == f"Northwind Widgets plc 2023 {src.sha1[:8]}"
    assert set(instance.get_dynamic_partitions(reports_partitions.name)) == set(moved.values())
    assert dagster_stale(instance, defs, key) == []
    assert assets_to_rebuild(instance, defs, store.paths(src.sha1), key) == []
    assert len(dagster_stale(instance, defs, moved[other.sha1])) == 7  # never ingested: still all missing
    assert migrate_partition_keys(instance, store) == {}  # done once
    assert _materialize(instance, key, res, selection=["bm25_index"]).success  # the key reads the same files


def _as_older_slugs(instance, store) -> dict[str, str]:
    """The catalog and the instance as the previous key format left them (``northwind-widgets-plc-<sha8>``)."""
    data = json.loads(store.catalog_path.read_text())
    slugs = {sha: re.sub(r"[^a-z0-9]+", "-", e["company_name"].lower()).strip("-") + "-" + sha[:8]
             for sha, e in data["reports"].items()}
    for sha, entry in data["reports"].items():
        entry["key"] = slugs[sha]
    store.catalog_path.write_text(json.dumps(data))
    for sha in slugs:
        instance.delete_dynamic_partition(reports_partitions.name, sha)
    instance.add_dynamic_partitions(reports_partitions.name, list(slugs.values()))
    return slugs


def test_the_sensor_on_an_instance_under_older_keys_finds_nothing_new_and_brings_no_old_key_back(registered):
    """The inbox sensor's scan reads each report's key after the migration: the renamed reports are not new, so
    the old keys are not added again beside the readable ones (nor ingested again)."""
    from rag_assets.orchestration.automation import new_reports

    instance, store, reports = registered
    _as_older_slugs(instance, store)
    new, total = new_reports(instance, store)
    assert new == [] and total == len(reports)
    assert set(instance.get_dynamic_partitions(reports_partitions.name)) == \
        {s.key for s in store.catalog().reports.values()}
    assert all(" " in k for k in instance.get_dynamic_partitions(reports_partitions.name))


def test_partitions_keyed_by_the_older_slug_format_get_readable_keys_without_ingesting_again(registered):
    """A catalog and an instance as the previous key format made them (``northwind-widgets-plc-<sha8>``): the
    partitions are renamed to the company's printed name and year, nothing is stale, and the old key still finds
    its report (a link made before)."""
    from rag_assets.orchestration.partition_keys import migrate_partition_keys
    from rag_assets.orchestration.staleness import assets_to_rebuild

    instance, store, reports = registered
    src = reports[NORTHWIND.company]
    res = _resources()
    slugs = _as_older_slugs(instance, store)
    old = slugs[src.sha1]
    _materialize(instance, old, res)
    defs = build_definitions(res)
    moved = migrate_partition_keys(instance, store)
    key = moved[old]
    assert key == f"Northwind Widgets plc 2023 {src.sha1[:8]}"
    assert set(instance.get_dynamic_partitions(reports_partitions.name)) == set(moved.values())
    assert dagster_stale(instance, defs, key) == []
    assert assets_to_rebuild(instance, defs, store.paths(src.sha1), key) == []
    assert store.catalog().sha1_of(old) == src.sha1  # an old link still finds the report
    assert migrate_partition_keys(instance, store) == {}  # done once
    assert _materialize(instance, key, res, selection=["bm25_index"]).success


def test_staleness_is_dagsters_and_a_rebuild_does_what_the_markers_say(registered):
    instance, store, reports = registered
    sha, other = reports[NORTHWIND.company].sha1, reports[BLUEBIRD.company].sha1
    res = _resources()
    _materialize(instance, sha, res)
    defs_now = build_definitions(res)
    assert dagster_stale(instance, defs_now, sha) == [], "a fresh partition is not stale"
    assert len(dagster_stale(instance, defs_now, other)) == 7, "a never-materialized partition is all missing"
    # new chunking settings: Dagster marks the chunks stale (a new code version), parsing and pages stay fresh
    res2 = _resources(chunk_tokens=200)
    defs2 = build_definitions(res2)
    assert dagster_stale(instance, defs2, sha) == ["report_chunks"]
    paths = store.paths(sha)
    rebuild = assets_to_rebuild(instance, defs2, paths, sha)
    assert rebuild == ["report_chunks", "chunk_contexts", "faiss_index", "bm25_index"]
    # rebuilding the chunks alone leaves exactly the rest stale (new input data), as the rebuild list said
    _materialize(instance, sha, res2, selection=[dg.AssetKey("report_chunks")])
    assert dagster_stale(instance, defs2, sha) == rebuild[1:]
    result = _materialize(instance, sha, res2, selection=[dg.AssetKey(k) for k in rebuild[1:]])
    assert {e.asset_key.path[-1] for e in result.get_asset_materialization_events()} == set(rebuild[1:])
    assert dagster_stale(instance, defs2, sha) == []
    # what Dagster cannot know: a file deleted by hand is rebuilt, with what reads it
    subprocess.run(["rm", "-rf", str(paths.bm25_dir)], check=True)  # as a user would (the link, not its target)
    assert assets_to_rebuild(instance, defs2, paths, sha) == ["bm25_index"]


def test_report_status_lists_the_stale_reports_and_its_check_fails_until_none_is(registered):
    """What a user scanning many reports sees: one table of the partitions Dagster marks stale or missing, and
    a warning check, on both sides: one report never ingested, then none, then a chunking change."""
    from rag_assets.orchestration.monitoring import report_status_asset

    instance, store, reports = registered
    sha, other = reports[NORTHWIND.company].sha1, reports[BLUEBIRD.company].sha1

    def status(res):
        ingestion = ingestion_graph(res)
        result = dg.materialize([*ingestion, report_status_asset(ingestion)], instance=instance, resources=res,
                                selection=["report_status"])
        (check,) = result.get_asset_check_evaluations()
        return result.asset_materializations_for_node("report_status")[0].metadata, check

    res = _resources()
    _materialize(instance, sha, res)
    meta, check = status(res)
    assert (meta["reports"].value, meta["stale_reports"].value, check.passed) == (2, 1, False)
    assert check.severity == dg.AssetCheckSeverity.WARN
    assert f"| {other} | {BLUEBIRD.company} | parsed_report," in meta["stale"].value and sha not in meta["stale"].value
    _materialize(instance, other, res)
    meta, check = status(res)
    assert (meta["stale_reports"].value, check.passed, meta["stale"].value) == (0, True, "every report is up to date")
    meta, check = status(_resources(chunk_tokens=200))  # a chunking change: both reports' chunks are stale
    assert (meta["stale_reports"].value, check.passed) == (2, False)
    assert meta["stale"].value.count("| report_chunks |") == 2


def _graph(res):
    from rag_assets.orchestration.monitoring import ingestion_asset_graph

    return lambda: ingestion_asset_graph(ingestion_graph(res))


def test_the_status_sensor_refreshes_report_status_when_the_stale_set_changes(registered):
    """Issue 39: stale reports were seen only after materializing report_status by hand. The sensor asks for a
    report_status run whenever the set of stale reports changes, and skips while it stays the same; each
    ingestion asset's up_to_date check of a partition is reported when its state changes."""
    from rag_assets.orchestration.monitoring import UP_TO_DATE, build_status_sensor

    instance, store, reports = registered
    sha = reports[NORTHWIND.company].sha1
    res = _resources()

    def look(res, cursor):
        sensor = build_status_sensor(_graph(res))
        with dg.build_sensor_context(instance=instance, resources={"store": res["store"]}, cursor=cursor) as ctx:
            return sensor(ctx), ctx.cursor

    first, cursor = look(res, None)  # nothing ingested: both reports are behind
    assert first.run_requests[0].tags == {"stale_reports": "2"} and cursor
    assert len(first.asset_events) == len(STAGES) and not any(e.passed for e in first.asset_events)
    assert {e.check_name for e in first.asset_events} == {UP_TO_DATE}
    assert {e.metadata["stale_partitions"].value for e in first.asset_events} == {2}
    again, same = look(res, cursor)
    assert isinstance(again, dg.SkipReason) and same == cursor
    assert again.skip_message == "2 of 2 reports stale or incomplete, as at the last look"
    _materialize(instance, sha, res)
    changed, moved = look(res, cursor)
    assert changed.run_requests[0].tags == {"stale_reports": "1"} and moved != cursor
    assert changed.run_requests[0].run_key != first.run_requests[0].run_key
    assert {(e.passed, e.metadata["stale_partitions"].value) for e in changed.asset_events} == {(False, 1)}
    assert all(sha not in e.metadata["stale"].value for e in changed.asset_events)  # the other one is listed


def test_a_settings_change_by_another_process_shows_stale_within_one_look(registered):
    """Issue 47 item 12: the data root's index settings live in its settings.json; when another process changes
    them, the status sensor of a code location loaded before (no reload) sees it at its next look (every 30 s):
    the chunks and what is built from them fail their up_to_date check on the asset graph, the pages do not."""
    from rag_assets.orchestration.definitions import current_graph
    from rag_assets.orchestration.monitoring import STATUS_INTERVAL, build_status_sensor
    from rag_assets.orchestration.root_settings import record
    from rag_assets.settings import read_settings

    instance, store, reports = registered
    res = _resources()
    for report in reports.values():
        _materialize(instance, report.sha1, res)
    sensor = build_status_sensor(lambda: current_graph(res))
    with dg.build_sensor_context(instance=instance, resources={"store": res["store"]}) as ctx:
        first = sensor(ctx)
        assert first.run_requests[0].tags == {"stale_reports": "0"} and all(e.passed for e in first.asset_events)
        record(read_settings(), store.root, {"chunk_context": "deterministic"})  # `rag-assets settings --set`
        second = sensor(ctx)
    failed = {e.asset_key.path[-1]: e.metadata["stale"].value for e in second.asset_events if not e.passed}
    assert {"report_chunks", "faiss_index", "bm25_index"} <= set(failed) and "report_pages" not in failed
    assert all(r.sha1 in listed for listed in failed.values() for r in reports.values())
    assert second.run_requests[0].tags == {"stale_reports": "2"} and STATUS_INTERVAL <= 60


def test_the_status_sensor_starts_no_run_on_an_instance_without_reports():
    """A fresh clone's UI: with no report registered there is nothing to report on, so the sensor skips (a run
    started there was killed with the UI and logged a traceback) and keeps no cursor, so the first reports count."""
    from rag_assets.orchestration.monitoring import build_status_sensor

    res = _resources()
    sensor = build_status_sensor(_graph(res))
    with dg.DagsterInstance.ephemeral() as instance, \
            dg.build_sensor_context(instance=instance, resources={"store": res["store"]}) as ctx:
        result = sensor(ctx)
        assert isinstance(result, dg.SkipReason) and result.skip_message == "no reports registered yet"
        assert ctx.cursor is None


def test_index_checks_fail_when_an_index_disagrees_with_the_chunks(registered):
    """The failing side of the blocking checks: a BM25 index that lost a chunk id fails its check (with the
    problem in the metadata) while the FAISS check, on an index that still agrees, passes."""
    instance, store, reports = registered
    sha = reports[NORTHWIND.company].sha1
    assert _materialize(instance, sha, _resources()).success
    ids_file = store.paths(sha).bm25_dir / IDS_FILE
    data = json.loads(ids_file.read_text(encoding="utf-8"))
    ids_file.write_text(json.dumps({**data, "chunk_ids": data["chunk_ids"][:-1]}), encoding="utf-8")
    # the checks run against the files on disk; the chunks (rewritten the same) give the run its partitions
    selection = dg.AssetSelection.assets("report_chunks") | dg.AssetSelection.checks_for_assets("bm25_index",
                                                                                               "faiss_index")
    result = _materialize(instance, sha, _resources(), raise_on_error=False, selection=selection)
    checks = {c.asset_key.path[-1]: c for c in result.get_asset_check_evaluations()}
    assert not checks["bm25_index"].passed
    assert "the BM25 index holds" in checks["bm25_index"].metadata["problem"].value
    assert checks["faiss_index"].passed


def test_automation_rebuilds_on_code_change_only(registered):
    """The automation condition requests a partition when its settings change, and never for a failed or
    missing partition."""
    instance, store, reports = registered
    sha = reports[NORTHWIND.company].sha1
    res = _resources()
    _materialize(instance, sha, res)
    first = dg.evaluate_automation_conditions(defs=build_definitions(res), instance=instance)
    assert first.total_requested == 0, "nothing changed, nothing missing is requested"
    res2 = _resources(chunk_tokens=200)
    second = dg.evaluate_automation_conditions(defs=build_definitions(res2), instance=instance,
                                             cursor=first.cursor)
    requested = {k: second.get_requested_partitions(dg.AssetKey(k)) for k in ("parsed_report", "report_chunks")}
    assert requested == {"parsed_report": set(), "report_chunks": {sha}}, "never the missing Bluebird partition"


def test_nightly_schedule_requests_new_pdfs_once(inbox, instance):
    res = {"store": ReportStore()}
    with dg.build_schedule_context(instance=instance, resources=res) as ctx:
        out = nightly_inbox_schedule("0 3 * * *")(ctx)
    keys = {s.sha1[:8]: s.key for s in ReportStore().catalog().reports.values()}
    assert {r.partition_key for r in out} == {keys[file_sha1(p)[:8]] for p in inbox.glob("*.pdf")}
    assert all(r.tags["company"] for r in out)
    with dg.build_schedule_context(instance=instance, resources=res) as ctx:
        assert isinstance(nightly_inbox_schedule("0 3 * * *")(ctx), dg.SkipReason), "a registered (even failed) PDF is not retried"


def test_missing_catalog_entry_is_clear(data_home, instance):
    instance.add_dynamic_partitions(reports_partitions.name, ["0" * 40])
    result = _materialize(instance, "0" * 40, _resources(), raise_on_error=False)
    assert not result.success
    failure = next(e for e in result.all_events if e.event_type_value == "STEP_FAILURE")
    assert "not in the catalog" in failure.step_failure_data.error.cause.message or "not in the catalog" in str(
        failure.step_failure_data.error
    )


def test_llm_enrichments_materialize_with_costs_and_are_cached(registered):
    """Table statements and LLM chunk contexts through Dagster with the real embedded model (SmolLM2):
    counted calls the first time, none the second (the cache answers)."""
    from rag_assets.storage.artifacts import read_llm_contexts, read_table_blocks
    from rag_assets_tests.conftest import embedded_model

    embedded_model("smollm2-135m")
    instance, store, reports = registered
    sha = reports[NORTHWIND.company].sha1
    res = {**_resources(table_serialization=True, chunk_context="llm"), "llm": LLMResource(ingest_model="smollm2-135m")}

    def run():
        result = _materialize(instance, sha, res)
        assert result.success
        return {
            name: result.asset_materializations_for_node(name)[0].metadata
            for name in ("serialized_tables", "chunk_contexts", "report_chunks")
        }

    first = run()
    tables, contexts = first["serialized_tables"], first["chunk_contexts"]
    assert tables["enabled"].value is True and tables["tables"].value == 1
    assert tables["llm_calls"].value >= 1 and tables["llm_completion_tokens"].value > 0
    assert tables["llm_seconds"].value > 0 and tables["llm_cache_hits"].value == 0
    paths = store.paths(sha)
    blocks = read_table_blocks(paths.tables)
    assert blocks and {b["page_index"] for b in blocks} == {3}
    chunks = read_chunks(paths.chunks)
    statement_chunks = chunks[chunks.kind == "table_blocks"]
    assert len(statement_chunks) >= 1 and set(statement_chunks.page_index) == {3}
    assert contexts["llm_calls"].value == len(chunks) - contexts["llm_failures"].value
    written = read_llm_contexts(paths.chunk_contexts)
    assert written and all(0 < len(v.split()) <= 75 for v in written.values())
    assert set(written) <= set(chunks.chunk_id)

    second = run()
    assert second["serialized_tables"]["llm_calls"].value == 0
    assert second["serialized_tables"]["llm_cache_hits"].value == tables["llm_items"].value
    assert second["chunk_contexts"]["llm_calls"].value == 0
    assert second["chunk_contexts"]["llm_cache_hits"].value == contexts["llm_items"].value
    assert read_llm_contexts(paths.chunk_contexts) == written

    # switching the enrichments off leaves empty outputs and plain chunks
    res["store"] = ReportStore()
    result = _materialize(instance, sha, res)
    assert result.success and not read_table_blocks(paths.tables) and not read_llm_contexts(paths.chunk_contexts)
    assert "table_blocks" not in set(read_chunks(paths.chunks).kind)
