"""The session clock as shown."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from tournaments.models import SessionClock, Tournament
from tournaments.rules.clock_time import WARNING_MINUTES, seconds_left, warning_due


@dataclass(frozen=True)
class ClockView:
    """A session's clock as shown: ``left`` seconds for the room, ``tables`` (table, extra
    minutes, seconds left) for the tables given extra minutes; ``warn_at``: the seconds
    left from which the room is warned (``tournaments.rules.clock_time.warning_due``)."""

    session: int
    minutes: int
    running: bool
    started: bool
    left: int
    tables: tuple[tuple[int, int, int], ...]
    warn_at: int = WARNING_MINUTES * 60

    @property
    def warn_minutes(self) -> int:
        return self.warn_at // 60

    @property
    def warning(self) -> bool:
        """Running with the warning's minutes or fewer left."""
        return self.running and warning_due(self.left)


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
