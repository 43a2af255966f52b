"""The Celery application: `celery -A config worker` runs the jobs, `celery -A config beat`
queues them on the schedules stored in the database (decision 0907).

Settings come from Django's (the ``CELERY_`` ones, config/settings/base.py); each app's jobs
are in its ``tasks.py`` (found by ``autodiscover_tasks``), each a thin call of the service
its management command calls. The worker records a heartbeat when it starts and on the
heartbeat schedule (``config.tasks.worker_heartbeat``); beat records one at each tick of
its scheduler (``config.celery_beat``); ``/healthz`` reads both (``core.health``).
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_ready

# as config/wsgi.py: the production settings unless told otherwise
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _heartbeat_at_start(**kwargs: Any) -> None:
    from core.heartbeats import WORKER, heartbeat_record

    heartbeat_record(WORKER)
