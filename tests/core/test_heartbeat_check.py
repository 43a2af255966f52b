"""`manage.py heartbeat_check worker|beat`, the health check of a worker or beat container
(decision 0907): 0 while the last heartbeat is within its limit, 1 when it is late or
missing. Written by the processes themselves in tests/core/test_healthz_heartbeats.py."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from core.heartbeats import BEAT, WORKER, heartbeat_record


def check(process: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("heartbeat_check", process, stdout=out)
    except SystemExit as stop:
        return int(stop.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_missing_recent_and_late_heartbeats(settings) -> None:
    settings.HEARTBEAT_WORKER_MAX_AGE, settings.HEARTBEAT_BEAT_MAX_AGE = 300, 120
    assert check(WORKER) == (1, "worker: late, last heartbeat never, limit 300 s\n")
    heartbeat_record(WORKER)
    code, text = check(WORKER)
    assert code == 0 and text.startswith("worker: ok, last heartbeat 20")
    heartbeat_record(BEAT, at=timezone.now() - timedelta(seconds=121))
    assert check(BEAT)[0] == 1
    heartbeat_record(BEAT)
    assert check(BEAT)[0] == 0


def test_only_the_two_processes_are_known() -> None:
    from django.core.management import CommandError

    with pytest.raises(CommandError):
        call_command("heartbeat_check", "web")
