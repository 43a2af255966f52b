"""The task queue's own job: the worker's heartbeat (a default schedule runs it every
minute; ``/healthz`` reads it). The other jobs are in each app's ``tasks.py``."""

from __future__ import annotations

from celery import shared_task

from core.heartbeats import WORKER, heartbeat_record


@shared_task(name="config.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> None:
    heartbeat_record(WORKER)
