"""Reads of tournaments and their results that are more than a one-line query."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from ratings.models import PUBLIC_STATES, Registration, TableResult, Tournament


@dataclass(frozen=True)
class TableOutcome:
    """One table of one session of a confirmed tournament: ``seats`` holds
    (player_id, game points of that session before deducted penalties) in seat order E, S, W, N."""

    tournament_id: int
    end_date: datetime.date
    session: int
    table: int
    seats: tuple[tuple[int, int], ...]


SEAT_ORDER = {"E": 0, "S": 1, "W": 2, "N": 3}


def confirmed_table_results(*, since: datetime.date | None = None) -> list[TableOutcome]:
    """Every table of every tournament in state "results confirmed" (the corrected values
    after corrections), ordered by end date, tournament, session, table. ``since``: only
    tournaments that ended on or after that date."""
    rows = TableResult.objects.filter(
        tournament__state=Tournament.State.RESULTS_CONFIRMED
    ).select_related("tournament")
    if since is not None:
        rows = rows.filter(tournament__end_date__gte=since)
    rows = rows.order_by("tournament__end_date", "tournament_id", "session", "table", "seat")
    grouped: dict[tuple[int, int, int], list[TableResult]] = {}
    dates: dict[int, datetime.date] = {}
    for row in rows:
        grouped.setdefault((row.tournament_id, row.session, row.table), []).append(row)
        dates[row.tournament_id] = row.tournament.end_date
    outcomes = [
        TableOutcome(
            tournament_id=tid,
            end_date=dates[tid],
            session=session,
            table=table,
            seats=tuple(
                (r.player_id, r.game_points)
                for r in sorted(seats, key=lambda r: SEAT_ORDER[r.seat])
            ),
        )
        for (tid, session, table), seats in grouped.items()
    ]
    outcomes.sort(key=lambda o: (o.end_date, o.tournament_id, o.session, o.table))
    return outcomes


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    """Public tournaments for everyone; a user's own tournaments in any state; every
    tournament for accreditation officers."""
    qs = Tournament.objects.all()
    if user.is_authenticated and user.has_perm("ratings.accredit_tournament"):
        return qs
    public = Q(state__in=PUBLIC_STATES)
    if user.is_authenticated:
        return qs.filter(public | Q(organizer=user))
    return qs.filter(public)


def public_calendar(*, state: str | None = None) -> QuerySet[Tournament]:
    qs = Tournament.objects.filter(state__in=PUBLIC_STATES).select_related("club")
    if state:
        qs = qs.filter(state=state)
    return qs.order_by("start_date", "name", "pk")


def tournament_registrations(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament).select_related("player__member")
    )
