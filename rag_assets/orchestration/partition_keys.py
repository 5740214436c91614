"""Readable report partition keys on an instance made before them: each partition keyed by a SHA-1, or by an
older key format (``bluebird-mining-ltd-cff2f6d9``), is renamed to its report's key (``Bluebird Mining Ltd 2022
cff2f6d9``) with the latest materialization of every ingestion asset carried over, so that nothing is ingested
again (the data stays under the SHA-1). Idempotent: an instance whose keys are all of the current format is not
touched."""

from __future__ import annotations

import logging

import dagster as dg

from rag_assets.ingest.stages import STAGES
from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.orchestration.resources import ReportStore
from rag_assets.storage.keys import readable

log = logging.getLogger(__name__)


POINTER = "dagster/input_event_pointer/"  # the tag that names the upstream event a materialization read


def _latest(instance: dg.DagsterInstance, name: str, partition: str):
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(name), asset_partitions=[partition]), limit=1).records
    return records[0] if records else None


def _carry_over(instance: dg.DagsterInstance, old: str, new: str) -> int:
    """The latest materialization of each ingestion asset of partition ``old``, reported again for ``new``
    (its metadata and tags: code version, data version and input data versions; the pointers to the events it
    read now point to the carried-over events), so that its staleness is what it was; how many were carried."""
    moved: dict[str, str] = {}  # asset -> storage id of its carried-over event
    for name in STAGES:  # upstream first
        record = _latest(instance, name, old)
        if record is None:
            continue
        mat = record.event_log_entry.asset_materialization
        tags = {k: moved.get(k[len(POINTER):], v) if k.startswith(POINTER) else v for k, v in mat.tags.items()}
        instance.report_runless_asset_event(dg.AssetMaterialization(
            asset_key=mat.asset_key, description=mat.description, metadata=mat.metadata, partition=new, tags=tags))
        moved[name] = str(_latest(instance, name, new).storage_id)
    return len(moved)


def migrate_partition_keys(instance: dg.DagsterInstance, store: ReportStore) -> dict[str, str]:
    """Rename every partition of ``instance`` keyed by a SHA-1 or an older key format to its report's readable
    key; returns old -> new. Called on every sensor tick: an instance whose keys are all readable costs one
    partition listing, no catalog read."""
    known = instance.get_dynamic_partitions(reports_partitions.name)
    if all(readable(k) for k in known):
        return {}
    catalog = store.catalog()
    catalog.assign_keys()
    moves = {}
    for old in (k for k in known if not readable(k)):
        try:
            new = catalog.reports[catalog.sha1_of(old)].key
        except KeyError:  # a partition of a report no longer catalogued: left as it is
            continue
        if new and new != old:
            moves[old] = new
    if not moves:
        return {}
    instance.add_dynamic_partitions(reports_partitions.name, [k for k in set(moves.values()) if k not in known])
    for old, new in moves.items():
        carried = _carry_over(instance, old, new)
        instance.delete_dynamic_partition(reports_partitions.name, old)
        log.info("report partition %s is now %s (%d materializations carried over)", old[:40], new, carried)
    return moves
