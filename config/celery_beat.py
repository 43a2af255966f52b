"""Beat's scheduler: django-celery-beat's, reading the schedules from the database (edited
in the admin), which records a heartbeat at each tick (``core.heartbeats``): ``/healthz``
says "degraded" when beat stopped ticking. Named by ``CELERY_BEAT_SCHEDULER``."""

from __future__ import annotations

import contextlib
from typing import Any

from django_celery_beat.schedulers import DatabaseScheduler

from core.heartbeats import BEAT, heartbeat_record


class HeartbeatScheduler(DatabaseScheduler):
    def tick(self, *args: Any, **kwargs: Any) -> float:
        with contextlib.suppress(Exception):  # a cache that is away stops no schedule
            heartbeat_record(BEAT)
        return float(super().tick(*args, **kwargs))
