"""The room screen: what a projector at the venue shows, always as the public sees it
(the organizer logged in at the projector reveals nothing hidden; decision 0731)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Max
from django.utils import timezone

from rulebook.scoring.standings import WINDS, table_points
from tournaments.models import SessionClock, TableResult, Tournament
from tournaments.rules.room import current_session
from tournaments.selectors.clock import ClockView, session_clock
from tournaments.selectors.penalties import standings_cutoff
from tournaments.selectors.players import tournament_registrations
from tournaments.selectors.results import (
    StandingRow,
    table_points_number,
    tournament_standings,
    tournament_tables,
)
from tournaments.selectors.seating import seating_published, session_seating, tables_per_session


@dataclass(frozen=True)
class RoomSeat:
    wind: str
    player: int
    name: str
    number: int | None
    game_points: int | None = None
    penalty: int = 0
    table_points: int | float | None = None


@dataclass(frozen=True)
class RoomTable:
    table: int
    seats: tuple[RoomSeat, ...]
    done: bool  # its results are in (and shown)


@dataclass(frozen=True)
class RoomView:
    session: int
    tables: tuple[RoomTable, ...]
    seating_shown: bool  # the session's seating is published
    results_hidden: bool  # the session's results are hidden until the prize-giving
    standings: tuple[StandingRow, ...]  # empty before any result the public may see
    hidden_after: int | None  # while the last sessions are hidden: the standings' session
    clock: ClockView


def room_view(tournament: Tournament, session: int | None = None,
              now: datetime.datetime | None = None) -> RoomView:
    """The room screen of ``session`` (``None``: the current one,
    ``tournaments.rules.room.current_session``): its tables, seated as published, with the
    results the public may see; the public standings; the session's clock."""
    now = now or timezone.now()
    cutoff = standings_cutoff(tournament, AnonymousUser())
    published = seating_published(tournament)
    if session is None or not 1 <= session <= tournament.sessions:
        running = SessionClock.objects.filter(
            tournament=tournament, started_at__isnull=False).values_list("session", flat=True)
        seated = {s: n for s, n in tables_per_session(tournament).items() if s <= published}
        entered = dict(TableResult.objects.filter(tournament=tournament)
                       .values("session").annotate(n=Count("table", distinct=True))
                       .values_list("session", "n"))
        session = current_session(tournament.sessions, running=list(running), seated=seated,
                                  entered=entered)
    names = {r.player_id: r for r in tournament_registrations(tournament)}
    results_hidden = cutoff is not None and session > cutoff
    scored = {} if results_hidden else {
        t.table: t for t in tournament_tables(tournament, cutoff) if t.session == session}
    seating_shown = session <= published
    drawn = session_seating(tournament, session) if seating_shown else {}
    tables = []
    for number in sorted(set(drawn) | set(scored)):
        score = scored.get(number)
        if score is not None:
            points = table_points([s.game_points for s in score.seats])
            seats = tuple(
                RoomSeat(wind, s.player, _name(names, s.player), _number(names, s.player),
                         s.game_points, s.penalty, table_points_number(p))
                for wind, s, p in zip(WINDS, score.seats, points, strict=True))
        else:
            seats = tuple(
                RoomSeat(wind, drawn[number][wind], _name(names, drawn[number][wind]),
                         _number(names, drawn[number][wind]))
                for wind in WINDS if wind in drawn[number])
        tables.append(RoomTable(number, seats, score is not None))
    public = TableResult.objects.filter(tournament=tournament)
    if cutoff is not None:
        public = public.filter(session__lte=cutoff)
    last = public.aggregate(last=Max("session"))["last"]
    standings = tuple(tournament_standings(tournament, cutoff)) if last else ()
    return RoomView(session, tuple(tables), seating_shown, results_hidden, standings,
                    last if cutoff is not None else None,
                    session_clock(tournament, session, now))


def _name(names: dict[int, object], player: int) -> str:
    reg = names.get(player)
    return str(getattr(reg, "player", "")) if reg is not None else ""


def _number(names: dict[int, object], player: int) -> int | None:
    reg = names.get(player)
    return getattr(reg, "number", None) if reg is not None else None
