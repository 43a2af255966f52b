"""`GET /healthz`: is this process able to answer, and are its database and cache there?

Used by the docker-compose healthcheck and by load balancers. It is outside the language
prefix and carries no session or CSRF work, so it measures the server itself; it answers
on the host names the container's own check uses (``HealthCheckMiddleware``) and over
plain http (``SECURE_REDIRECT_EXEMPT`` in the production settings).

Each dependency is reported: ``{"status": "ok", "database": "ok", "cache": "ok"}``. The
database is the source of truth: without it the answer is 503 (``"status":
"unavailable"``). The cache is an accelerator and a rate-limit store: without it the site
keeps answering, so the answer is 200 with ``"status": "degraded"`` and ``"cache":
"down"``.

The task queue's worker and scheduler (beat) are reported by their last heartbeat
(``core.heartbeats``): ``"worker": {"status": "ok", "last_heartbeat": "2026-11-28T10:00:00+00:00",
"age_seconds": 12, "limit_seconds": 300}``, and the same for ``"beat"``. One older than its
limit (``HEARTBEAT_WORKER_MAX_AGE``, ``HEARTBEAT_BEAT_MAX_AGE``), or none at all, is
``"late"`` and the answer is 200 with ``"status": "degraded"``: the pages are served, but
no mail, reminder or scheduled job goes out. A site that runs the jobs from cron sets
``HEALTH_TASK_QUEUE=false`` and the answer leaves them out.

Without persistent connections (``DATABASE_CONN_MAX_AGE`` 0, the default) each check
connects, which proves the database reachable. A connection kept from an earlier request
(``DATABASE_CONN_MAX_AGE`` > 0) proves nothing by existing: it is pinged first, and one
that does not answer is dropped and the check connects again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.utils import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.heartbeats import BEAT, WORKER, heartbeat_last

HEALTH_PATH = "/healthz"


def _database_ok() -> bool:
    try:
        if connection.connection is not None and not connection.is_usable():
            connection.close()
        connection.ensure_connection()
    except DatabaseError:
        return False
    return True


def _cache_ok() -> bool:
    ping = getattr(cache, "ping", None)  # the Redis backend (core/cache.py)
    if ping is not None:
        return ping()
    try:  # the database or per-process cache of development and tests
        cache.get("healthz")
    except Exception:
        return False
    return True


def heartbeat_report(name: str, limit_seconds: int) -> dict[str, Any]:
    """The last heartbeat of ``name``, its age, and whether it is within its limit."""
    last = heartbeat_last(name)
    age = None if last is None else max(0, int((timezone.now() - last).total_seconds()))
    return {
        "status": "ok" if age is not None and age <= limit_seconds else "late",
        "last_heartbeat": last.isoformat() if last else None,
        "age_seconds": age,
        "limit_seconds": limit_seconds,
    }


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    database = _database_ok()
    cache_up = _cache_ok()
    body: dict[str, Any] = {
        "status": "ok" if database and cache_up else "degraded" if database else "unavailable",
        "database": "ok" if database else "down",
        "cache": "ok" if cache_up else "down",
    }
    if settings.HEALTH_TASK_QUEUE:
        body["worker"] = heartbeat_report(WORKER, settings.HEARTBEAT_WORKER_MAX_AGE)
        body["beat"] = heartbeat_report(BEAT, settings.HEARTBEAT_BEAT_MAX_AGE)
        late = body["worker"]["status"] != "ok" or body["beat"]["status"] != "ok"
        if late and body["status"] == "ok":
            body["status"] = "degraded"
    return JsonResponse(body, status=200 if database else 503)


class HealthCheckMiddleware:
    """Answers ``/healthz`` before ``CommonMiddleware`` checks the host name: the
    container's own health check asks ``127.0.0.1`` or ``localhost``, which a site's
    ``ALLOWED_HOSTS`` need not list. Only that path, only GET and HEAD, only the health
    answer; every other request still goes through the host check."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
