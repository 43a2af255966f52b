"""The Celery application: `celery -A config worker` runs the jobs, `celery -A config beat`
queues them on the schedules stored in the database (decision 0907).

Settings come from Django's (the ``CELERY_`` ones, config/settings/base.py); each app's jobs
are in its ``tasks.py`` (found by ``autodiscover_tasks``), each a thin call of the service
its management command calls. The worker records a heartbeat when it starts and on the
heartbeat schedule (``config.tasks.worker_heartbeat``); beat records one at each tick of
its scheduler (``config.celery_beat``) and each time it queues a job (so also when started
with another ``--scheduler``); ``/healthz`` reads both (``core.health``).
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import after_task_publish, beat_init, worker_ready

# as config/wsgi.py: the production settings unless told otherwise
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _heartbeat_at_start(sender: Any = None, **kwargs: Any) -> None:
    """A worker of the jobs' queue is up (not one of another queue only, as the backups')."""
    from core.heartbeats import WORKER, heartbeat_record

    queues = getattr(getattr(sender, "task_consumer", None), "queues", None)
    if queues is not None and app.conf.task_default_queue not in {q.name for q in queues}:
        return
    heartbeat_record(WORKER)


_in_beat = False


@beat_init.connect
def _beat_started(**kwargs: Any) -> None:
    global _in_beat
    _in_beat = True
    from core.heartbeats import BEAT, heartbeat_record

    heartbeat_record(BEAT)


@after_task_publish.connect
def _beat_published(**kwargs: Any) -> None:
    """Beat queued a job: a heartbeat whatever scheduler class it was started with (the
    worker's heartbeat job is queued every minute). ``HeartbeatScheduler`` adds one a tick."""
    if _in_beat:
        from core.heartbeats import BEAT, heartbeat_record

        heartbeat_record(BEAT)
