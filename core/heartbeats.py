"""Heartbeats of the processes that run without a request: the task queue's worker and
its scheduler (beat). Each records the time it last showed life in the shared cache;
``/healthz`` (``core.health``) reads them and says "degraded" when one is older than its
limit (``HEARTBEAT_WORKER_MAX_AGE``, ``HEARTBEAT_BEAT_MAX_AGE``).

Only the cache is used, so the kernel knows nothing of the task queue: the wiring
(config/celery.py, config/celery_beat.py, config/tasks.py) calls ``heartbeat_record``.
The cache must be one every process shares (Redis in production; the database cache
table in development), as for the rate limits.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.core.cache import cache
from django.utils import timezone

WORKER = "worker"
BEAT = "beat"
_KEY = "core:heartbeat:{}"


def heartbeat_record(name: str, at: datetime | None = None) -> None:
    """``name`` is alive now (or at ``at``); kept until the next heartbeat replaces it."""
    cache.set(_KEY.format(name), (at or timezone.now()).timestamp(), timeout=None)


def heartbeat_last(name: str) -> datetime | None:
    """When ``name`` last showed life; None when it never did (or the cache lost it)."""
    try:
        value = cache.get(_KEY.format(name))
    except Exception:  # a cache that is away: no heartbeat can be read
        return None
    if value is None:
        return None
    return datetime.fromtimestamp(float(value), tz=UTC)
