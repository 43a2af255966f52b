"""The session clock: the organizer starts and pauses it and gives tables that started late
extra minutes; the venue's screen shows it (``tournaments.selectors.session_clock``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.errors import E_BAD_EXTRA, TournamentError
from tournaments.models import SeatingAssignment, SessionClock, Tournament
from tournaments.rules.clock_time import seconds_run
from tournaments.services._common import _audit, state_require

MAX_EXTRA_MINUTES = 60


def _clock(tournament: Tournament, session: int) -> SessionClock:
    state_require(tournament, "clock")
    if not 1 <= session <= tournament.sessions:
        raise TournamentError(E_BAD_EXTRA, field="session")
    clock, _created = SessionClock.objects.select_for_update().get_or_create(
        tournament=tournament, session=session,
        defaults={"minutes": tournament.session_minutes},
    )
    return clock


@transaction.atomic
def session_clock_start(*, tournament: Tournament, session: int, user: Any) -> SessionClock:
    """Start (or go on after a pause); a running clock is left as it is."""
    clock = _clock(tournament, session)
    if clock.started_at is None:
        clock.started_at = timezone.now()
        clock.save(update_fields=["started_at"])
        _audit(tournament, "tournaments.tournament.clock", user, session=session,
               clock="start", elapsed=clock.elapsed)
    return clock


@transaction.atomic
def session_clock_pause(*, tournament: Tournament, session: int, user: Any) -> SessionClock:
    """Pause: the seconds run so far are kept; a paused clock is left as it is."""
    clock = _clock(tournament, session)
    if clock.started_at is not None:
        clock.elapsed = seconds_run(clock.elapsed, clock.started_at, timezone.now())
        clock.started_at = None
        clock.save(update_fields=["elapsed", "started_at"])
        _audit(tournament, "tournaments.tournament.clock", user, session=session,
               clock="pause", elapsed=clock.elapsed)
    return clock


@transaction.atomic
def session_clock_extra(*, tournament: Tournament, session: int, table: int, minutes: int,
                        user: Any) -> SessionClock:
    """Give a table of the session extra minutes (0 takes them back)."""
    clock = _clock(tournament, session)
    if not SeatingAssignment.objects.filter(tournament=tournament, session=session,
                                            table=table).exists():
        raise TournamentError(E_BAD_EXTRA, field="table")
    if not 0 <= minutes <= MAX_EXTRA_MINUTES:
        raise TournamentError(E_BAD_EXTRA, field="minutes")
    extra = {k: v for k, v in clock.extra.items() if k != str(table)}
    if minutes:
        extra[str(table)] = minutes
    clock.extra = dict(sorted(extra.items(), key=lambda kv: int(kv[0])))
    clock.save(update_fields=["extra"])
    _audit(tournament, "tournaments.tournament.clock", user, session=session, table=table,
           extra=minutes)
    return clock
