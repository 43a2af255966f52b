"""The session clock as shown."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from tournaments.models import SessionClock, Tournament
from tournaments.rules.clock_time import seconds_left


@dataclass(frozen=True)
class ClockView:
    """A session's clock as shown: ``left`` seconds for the room, ``tables`` (table, extra
    minutes, seconds left) for the tables given extra minutes."""

    session: int
    minutes: int
    running: bool
    started: bool
    left: int
    tables: tuple[tuple[int, int, int], ...]


def session_clock(tournament: Tournament, session: int,
                  now: datetime.datetime | None = None) -> ClockView:
    now = now or timezone.now()
    clock = SessionClock.objects.filter(tournament=tournament, session=session).first()
    if clock is None:
        minutes = tournament.session_minutes
        return ClockView(session, minutes, False, False, minutes * 60, ())
    return ClockView(
        session, clock.minutes, clock.started_at is not None,
        clock.started_at is not None or clock.elapsed > 0,
        seconds_left(clock.minutes, clock.elapsed, clock.started_at, now),
        tuple((int(t), m, seconds_left(clock.minutes, clock.elapsed, clock.started_at, now, m))
              for t, m in clock.extra.items()),
    )
