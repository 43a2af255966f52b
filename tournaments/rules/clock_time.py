"""PURE: the time left on a session's clock, for the whole room and for a table given extra
minutes. Seconds, never below zero."""

from __future__ import annotations

import datetime


def seconds_run(elapsed: int, started_at: datetime.datetime | None,
                now: datetime.datetime) -> int:
    """Seconds the clock has run: those before the current run, and the current run."""
    running = int((now - started_at).total_seconds()) if started_at is not None else 0
    return elapsed + max(0, running)


def seconds_left(minutes: int, elapsed: int, started_at: datetime.datetime | None,
                 now: datetime.datetime, extra_minutes: int = 0) -> int:
    return max(0, (minutes + extra_minutes) * 60 - seconds_run(elapsed, started_at, now))


WARNING_MINUTES = 10
"""The room is warned this many minutes before a session's time is up (decision 0731)."""


def warning_due(left: int, warning_minutes: int = WARNING_MINUTES) -> bool:
    """Whether the room is warned: at most ``warning_minutes`` left, the time not yet up."""
    return 0 < left <= warning_minutes * 60
