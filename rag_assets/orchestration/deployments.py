"""Named deployments: what differs between one machine, CI and a cluster, chosen by ``RAG_ASSETS_DEPLOYMENT``
(as Dagster's ``project_fully_featured`` swaps its resources per deployment). Everything else is the same code
location."""

from __future__ import annotations

from dataclasses import dataclass

from rag_assets.settings import DeploymentName, ExecutorName, Settings


@dataclass(frozen=True)
class Deployment:
    """How runs use the machines of a deployment."""

    executor: ExecutorName  # where a run's steps execute (RAG_ASSETS_EXECUTOR overrides)
    runs_at_once: int  # runs that share one machine's cores (its threads are cores // runs_at_once)
    sensor_running: bool  # the inbox sensor starts by itself


DEPLOYMENTS: dict[DeploymentName, Deployment] = {
    # dagster.yaml queues two runs at once: each embeds and OCRs with half the cores
    "local": Deployment(executor="in_process", runs_at_once=2, sensor_running=True),
    # tests and CI: one run at a time with every core; no run starts unless a test launches it
    "ci": Deployment(executor="in_process", runs_at_once=1, sensor_running=False),
    # a Celery worker per machine takes one step at a time (worker_prefetch_multiplier 1): every core
    "cluster": Deployment(executor="celery", runs_at_once=1, sensor_running=True),
}


def deployment_of(settings: Settings) -> Deployment:
    """The settings' deployment, with an executor set in the environment taking precedence."""
    named = DEPLOYMENTS[settings.deployment]
    if settings.executor and settings.executor != named.executor:
        return Deployment(settings.executor, named.runs_at_once, named.sensor_running)
    return named
