"""What starts runs by itself: a sensor and a nightly schedule for new PDFs in the inbox. Rebuilding stale
partitions is left to the ingestion assets' automation condition (see ``ingest_assets.REBUILD``)."""

import dagster as dg

from rag_assets.orchestration.ingest_assets import reports_partitions
from rag_assets.orchestration.partition_keys import migrate_partition_keys
from rag_assets.orchestration.resources import ReportStore


def new_reports(instance: dg.DagsterInstance, store: ReportStore) -> tuple[list, int]:
    """Inbox PDFs that are not yet report partitions, and how many PDFs the inbox holds (partitions of an older
    instance, under SHA-1s or older keys, are renamed to readable keys first: they are not new)."""
    migrate_partition_keys(instance, store)  # first: a scan reads each report's current key from the catalog
    found = store.scan_inbox()
    known = set(instance.get_dynamic_partitions(reports_partitions.name))
    return [r for r in found if r.partition not in known], len(found)


def ingest_requests(reports: list) -> list[dg.RunRequest]:
    """One ingestion run per new report, tagged with its company."""
    return [dg.RunRequest(partition_key=r.partition, run_key=f"ingest:{r.sha1}", tags={"company": r.company_name})
            for r in reports]


def build_inbox_sensor(running: bool = True) -> dg.SensorDefinition:
    """The inbox sensor; ``running``: it starts by itself with the daemon (the deployment decides)."""
    status = dg.DefaultSensorStatus.RUNNING if running else dg.DefaultSensorStatus.STOPPED

    @dg.sensor(job_name="ingest_reports", minimum_interval_seconds=30, default_status=status, name="inbox_sensor",
               description="Every 30 s: registers new PDFs of the inbox as report partitions and ingests each once.")
    def inbox_sensor(context: dg.SensorEvaluationContext, store: ReportStore) -> dg.SensorResult | dg.SkipReason:
        new, total = new_reports(context.instance, store)
        if not new:
            return dg.SkipReason(f"no new PDFs in {store.inbox_dir} ({total} known)")
        for r in new:
            context.log.info(f"new report {r.sha1} {r.company_name} ({r.path})")
        return dg.SensorResult(
            run_requests=ingest_requests(new),
            dynamic_partitions_requests=[reports_partitions.build_add_request([r.partition for r in new])],
        )

    return inbox_sensor


def nightly_inbox_schedule(cron: str) -> dg.ScheduleDefinition:
    """The sensor's inbox sweep on a cron (``RAG_ASSETS_INBOX_CRON``), off by default, for deployments that keep
    the sensor off."""

    @dg.schedule(name="nightly_inbox_schedule", job_name="ingest_reports", cron_schedule=cron,
                 default_status=dg.DefaultScheduleStatus.STOPPED,
                 description=f"Nightly ({cron}, RAG_ASSETS_INBOX_CRON): the sensor's inbox sweep, for deployments "
                 "that keep the sensor off. Each new PDF is ingested once; a partition whose run failed is not "
                 "retried.")
    def sweep(context: dg.ScheduleEvaluationContext, store: ReportStore):
        new, total = new_reports(context.instance, store)
        if not new:
            return dg.SkipReason(f"no new PDFs in {store.inbox_dir} ({total} known)")
        context.instance.add_dynamic_partitions(reports_partitions.name, [r.partition for r in new])
        return ingest_requests(new)

    return sweep
