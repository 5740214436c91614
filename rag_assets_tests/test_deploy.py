"""Outgrowing one machine: the Postgres deployment runs two partitions at once, and the cluster executor's
configuration is valid."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
import yaml

from rag_assets.storage.paths import PROJECT_ROOT
from rag_assets.tools import local_postgres
from rag_assets_tests.conftest import BLUEBIRD, NORTHWIND

DEPLOY = PROJECT_ROOT / "deploy"


@pytest.fixture()
def postgres(tmp_path):
    pytest.importorskip("dagster_postgres", reason="pip install -e '.[deploy]' for the Postgres deployment test")
    if not local_postgres.binaries_available():
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) not installed: apt install postgresql")
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="rag_assets_pg_"))  # outside pytest's root-only folders: postgres runs there
    try:
        with local_postgres.local_postgres(base) as env:
            yield env
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _inbox(folder: Path, pdf: Path) -> Path:
    folder.mkdir()
    shutil.copy(pdf, folder / pdf.name)
    shutil.copy(pdf.parent / "subset.csv", folder / "subset.csv")
    return folder


def test_postgres_instance_runs_two_partitions_concurrently_and_reads_them_back(postgres, sample_pdfs, tmp_path,
                                                                               monkeypatch):
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(DEPLOY / "dagster.postgres.yaml", home / "dagster.yaml")
    env = {**os.environ, **postgres, "DAGSTER_HOME": str(home), "RAG_ASSETS_HOME": str(tmp_path / "data")}
    # a deployment creates its schema once, before any worker starts
    subprocess.run(["dagster", "instance", "migrate"], env=env, check=True, capture_output=True)
    by_name = {p.name: p for p in sample_pdfs}
    inboxes = [_inbox(tmp_path / f"inbox{i}", by_name[s.file_name]) for i, s in enumerate([NORTHWIND, BLUEBIRD])]
    procs = [subprocess.Popen([sys.executable, "-m", "rag_assets.cli.main", "ingest", str(box)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for box in inboxes]
    outputs = [p.communicate(timeout=600)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[-2000:] for o in outputs]

    for k, v in {**postgres, "DAGSTER_HOME": str(home)}.items():
        monkeypatch.setenv(k, v)
    with dg.DagsterInstance.get() as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        records = instance.get_run_records(dg.RunsFilter(job_name="ingest_reports"))
        assert len(records) == 2 and all(r.dagster_run.is_success for r in records)
        assert {r.dagster_run.tags["company"] for r in records} == {NORTHWIND.company, BLUEBIRD.company}
        (a, b) = sorted(records, key=lambda r: r.start_time)
        assert b.start_time < a.end_time, "the two runs overlapped in time"
        materialized = instance.get_materialized_partitions(dg.AssetKey("bm25_index"))
        assert materialized == {r.dagster_run.tags["dagster/partition"] for r in records}
    from rag_assets.orchestration.resources import ReportStore

    store = ReportStore(data_root=str(tmp_path / "data"))
    assert set(store.indexed_reports().values()) == {NORTHWIND.company, BLUEBIRD.company}


def test_celery_executor_configuration_is_valid():
    """The documented cluster executor: its run config validates against the ingestion job."""
    pytest.importorskip("dagster_celery", reason="pip install -e '.[deploy]' for the cluster executor")
    from rag_assets.orchestration.definitions import build_definitions, default_resources
    from rag_assets.orchestration.jobs import executor_named

    defs = build_definitions(default_resources({}), executor_named("celery"))
    job = defs.resolve_job_def("ingest_reports")
    assert job.executor_def.name == "celery"
    run_config = yaml.safe_load((DEPLOY / "celery_run_config.yaml").read_text())
    assert dg.validate_run_config(job, run_config)
    with pytest.raises(dg.DagsterInvalidConfigError):
        dg.validate_run_config(job, {"execution": {"config": {"broker": 5}}})


def test_named_deployments_choose_executor_threads_and_sensor():
    """RAG_ASSETS_DEPLOYMENT swaps what differs between one machine, CI and a cluster; an executor set in the
    environment wins; an unknown deployment is one line naming the variable."""
    pytest.importorskip("dagster_celery", reason="pip install -e '.[deploy]' for the cluster executor")
    import os

    from rag_assets.orchestration.definitions import definitions_for
    from rag_assets.settings import SettingsError, read_settings

    cores = os.cpu_count() or 1

    def shape(env):
        defs = definitions_for(read_settings(env))
        job = defs.resolve_job_def("ingest_reports")
        sensor = defs.resolve_sensor_def("inbox_sensor")
        threads = defs.resources["embedder"].threads
        return job.executor_def.name, threads, sensor.default_status.value

    assert shape({}) == ("in_process", max(1, cores // 2), "RUNNING")
    assert shape({"RAG_ASSETS_DEPLOYMENT": "ci"}) == ("in_process", cores, "STOPPED")
    assert shape({"RAG_ASSETS_DEPLOYMENT": "cluster"}) == ("celery", cores, "RUNNING")
    assert shape({"RAG_ASSETS_DEPLOYMENT": "cluster", "RAG_ASSETS_EXECUTOR": "multiprocess"})[0] == "multiprocess"
    with pytest.raises(SettingsError, match="RAG_ASSETS_DEPLOYMENT='prod'"):
        read_settings({"RAG_ASSETS_DEPLOYMENT": "prod"})


def test_docker_deployment_validates_with_dagsters_own_config_checks(monkeypatch):
    """deploy/docker: the instance (Postgres storage, queued runs, Docker run launcher, run monitoring) passes
    Dagster's instance-config validation and builds its run launcher; every container that runs steps mounts
    the one data root; the workers' Celery file validates against the executor and the run config of a
    launched run takes the broker from the image's environment."""
    pytest.importorskip("dagster_docker", reason="pip install -e '.[deploy]' for the Docker run launcher")
    from dagster._core.instance.config import dagster_instance_config
    from dagster._serdes.config_class import ConfigurableClassData
    from dagster_celery.cli import get_validated_config

    from rag_assets.orchestration.definitions import definitions_for
    from rag_assets.settings import read_settings

    docker = DEPLOY / "docker"
    compose = yaml.safe_load((docker / "docker-compose.yaml").read_text())
    env = compose["x-rag"]["environment"]
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    config, _ = dagster_instance_config(str(docker))
    assert config["storage"]["postgres"]["postgres_url"] == {"env": "DAGSTER_PG_URL"}
    launcher_conf = config["run_launcher"]
    launcher = ConfigurableClassData(launcher_conf["module"], launcher_conf["class"],
                                     yaml.safe_dump(launcher_conf["config"])).rehydrate(object)
    assert type(launcher).__name__ == "DockerRunLauncher" and launcher.image == env["RAG_ASSETS_IMAGE"]
    assert config["run_monitoring"]["enabled"]
    from rag_assets.orchestration.jobs import LINEAGE_WRITER_TAG

    limits = config["run_coordinator"]["config"]["tag_concurrency_limits"]
    assert {"key": LINEAGE_WRITER_TAG, "limit": 1} in limits
    assert set(launcher.env_vars) >= {"DAGSTER_PG_URL", "RAG_ASSETS_DEPLOYMENT", "RAG_ASSETS_CELERY_BROKER"}

    data_volume = "rag_assets_data:/data"
    image_env = dict(line.split("=", 1) for line in _dockerfile_env(docker / "Dockerfile"))
    assert image_env["RAG_ASSETS_HOME"] == "/data"
    assert data_volume in launcher.container_kwargs["volumes"]  # the run containers
    for name in ("webserver", "daemon", "worker"):  # every other container that reads or writes the data root
        service = {**compose["x-rag"], **compose["services"][name]}
        assert data_volume in service["volumes"], name
        assert service["image"] == env["RAG_ASSETS_IMAGE"]

    worker_file = get_validated_config(str(docker / "celery.yaml"))  # what `dagster-celery worker -y` checks
    assert worker_file["broker"] == env["RAG_ASSETS_CELERY_BROKER"]
    defs = definitions_for(read_settings(env))
    job = defs.resolve_job_def("ingest_reports")
    executor = dg.validate_run_config(job, {})["execution"]["celery"]  # a run launched from the UI or sensor
    assert (job.executor_def.name, executor["broker"], executor["backend"]) == (
        "celery", worker_file["broker"], worker_file["backend"])
    assert defs.resolve_job_def("evaluate_config").tags[LINEAGE_WRITER_TAG]  # the queue sees the writers


def _dockerfile_env(path: Path) -> list[str]:
    """The ``KEY=value`` pairs of a Dockerfile's ENV instructions (continued lines joined)."""
    text = path.read_text().replace("\\\n", " ")
    return [pair for line in text.splitlines() if line.startswith("ENV ") for pair in line[4:].split()]
