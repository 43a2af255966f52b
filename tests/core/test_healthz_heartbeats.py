"""`/healthz` reports the task queue's worker and beat by their last heartbeats, and says
"degraded" while the worker is stopped (decision 0907): a real worker and beat, the worker's
heartbeat job on a one-second schedule and a limit of two seconds. SQLite and PostgreSQL
(tests/worker_processes.py)."""

from __future__ import annotations

import signal

import pytest
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from tests.worker_processes import REDIS_URL, TaskQueue, wait_for

pytestmark = pytest.mark.worker


@pytest.fixture
def health_reads_the_queue(settings, task_queue: TaskQueue) -> None:
    settings.HEALTH_TASK_QUEUE = True
    settings.HEARTBEAT_WORKER_MAX_AGE = 2
    settings.HEARTBEAT_BEAT_MAX_AGE = 5
    # the cache the worker and beat write their heartbeats to
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": REDIS_URL, "KEY_PREFIX": task_queue.name}}


def test_healthz_says_degraded_while_the_worker_is_stopped(
    client, task_queue: TaskQueue, health_reads_the_queue: None
) -> None:
    def health() -> dict:
        response = client.get("/healthz")
        assert response.status_code == 200
        return response.json()

    before = health()  # nothing ever ran
    assert before["status"] == "degraded"
    assert before["worker"] == {"status": "late", "last_heartbeat": None, "age_seconds": None,
                                "limit_seconds": 2}
    assert before["beat"]["status"] == "late"

    PeriodicTask.objects.update(enabled=False)
    every_second, _ = IntervalSchedule.objects.get_or_create(
        every=1, period=IntervalSchedule.SECONDS)
    PeriodicTask.objects.filter(task="config.worker_heartbeat").update(
        interval=every_second, enabled=True)
    task_queue.share_database()
    worker = task_queue.start_worker()
    task_queue.start_beat()
    running = wait_for(lambda: (h := health())["status"] == "ok" and h, 30,
                       "worker and beat reported")
    assert running["worker"]["status"] == running["beat"]["status"] == "ok"
    assert running["database"] == running["cache"] == "ok"

    task_queue.stop(worker, signal.SIGTERM)
    stopped = wait_for(lambda: (h := health())["status"] == "degraded" and h, 10,
                       "the stopped worker noticed")
    assert stopped["worker"]["status"] == "late" and stopped["worker"]["age_seconds"] > 2
    assert stopped["beat"]["status"] == "ok"  # beat still ticks: the worker is the fault

    task_queue.start_worker()
    wait_for(lambda: health()["status"] == "ok", 15, "the worker back")
