"""Reads of tournaments and their results that are more than a one-line query."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from rulebook.scoring.standings import (
    SeatScore,
    Standing,
    TableScore,
    TeamStanding,
    session_table_points,
    standings,
    team_standings,
)
from tournaments.models import (
    PUBLIC_STATES,
    SEAT_ORDER,
    Player,
    Registration,
    TableResult,
    Tournament,
)
from tournaments.permissions import can_accredit


@dataclass(frozen=True)
class TableOutcome:
    """One table of one session of a confirmed tournament: ``seats`` holds
    (player_id, game points of that session before deducted penalties) in seat order E, S, W, N."""

    tournament_id: int
    end_date: datetime.date
    session: int
    table: int
    seats: tuple[tuple[int, int], ...]




def confirmed_table_results(
    *, ruleset: str | None = None, since: datetime.date | None = None
) -> list[TableOutcome]:
    """Every table of every tournament in state "results confirmed" (the corrected values
    after corrections), ordered by end date, tournament, session, table. ``ruleset``: only
    tournaments played under these rules ("mcr", "hkos", "red"); ``since``: only
    tournaments that ended on or after that date. Read as plain values: a recompute reads
    ~200,000 seat results, and model instances made that read the slowest part of it."""
    rows = TableResult.objects.filter(tournament__state=Tournament.State.RESULTS_CONFIRMED)
    if ruleset is not None:
        rows = rows.filter(tournament__ruleset=ruleset)
    if since is not None:
        rows = rows.filter(tournament__end_date__gte=since)
    grouped: dict[tuple[datetime.date, int, int, int], list[tuple[int, int, int]]] = {}
    for end, tid, session, table, seat, player_id, points in rows.values_list(
        "tournament__end_date", "tournament_id", "session", "table", "seat", "player_id",
        "game_points",
    ).iterator(chunk_size=20_000):
        grouped.setdefault((end, tid, session, table), []).append(
            (SEAT_ORDER[seat], player_id, points))
    return [
        TableOutcome(
            tournament_id=tid, end_date=end, session=session, table=table,
            seats=tuple((player_id, points) for _, player_id, points in sorted(seats)),
        )
        for (end, tid, session, table), seats in sorted(grouped.items())
    ]


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    """Public tournaments for everyone; a user's own tournaments in any state; every
    tournament for accreditation officers."""
    qs = Tournament.objects.all()
    if can_accredit(user):
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


def upcoming_tournaments(*, limit: int) -> list[Tournament]:
    """The next public tournaments that have not ended, soonest first (the home page)."""
    return list(public_calendar().filter(end_date__gte=today())[:limit])


def _every_word_in(fields: tuple[str, ...], query: str) -> Q:
    """Each word of the query in one of the fields (any order, any case)."""
    condition = Q()
    for word in query.split():
        either = Q()
        for field in fields:
            either |= Q(**{f"{field}__icontains": word})
        condition &= either
    return condition


def players_matching(query: str, *, limit: int) -> list[Player]:
    """Players whose name holds every word of the query, in Latin letters or native
    script. Only players the public pages already show: rated, or entered in a public
    tournament; anonymised players are left out."""
    if not query.split():
        return []
    # Two EXISTS probes on indexed foreign keys instead of two LEFT JOINs under DISTINCT
    # (which joined every rating month and every entry of every player before the limit).
    # The rating entries are reached through the relation: tournaments does not import
    # ratings. The words are looked up in the trigram indexes of migration 0003 on
    # PostgreSQL.
    rating_entry = Player._meta.get_field("rating_entries").related_model
    rated = Exists(rating_entry.objects.filter(player_id=OuterRef("pk")))
    entered = Exists(Registration.objects.filter(
        player_id=OuterRef("pk"), tournament__state__in=PUBLIC_STATES))
    return list(
        Player.objects.filter(rated | entered, is_anonymised=False)
        .filter(_every_word_in(("name_latin", "name_native"), query))
        .order_by("name_latin", "pk")[:limit]
    )


def tournaments_matching(query: str, *, limit: int) -> list[Tournament]:
    """Public tournaments whose name or city holds every word of the query, newest first."""
    if not query.split():
        return []
    return list(
        public_calendar()
        .filter(_every_word_in(("name", "city"), query))
        .order_by("-start_date", "name", "pk")[:limit]
    )


def tournament_registrations(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament).select_related("player__member")
    )


# --- Standings ------------------------------------------------------------------------------


def table_points_number(value: Fraction) -> int | float:
    """Table points as a JSON number: whole numbers stay whole, 7/4 -> 1.75, 7/3 -> 2.33."""
    if value.denominator == 1:
        return int(value)
    return round(float(value), 2)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: int
    name: str
    country: str
    number: int
    team: str
    table_points: Fraction
    game_points: int
    penalties: int
    sessions: int

    @property
    def table_points_number(self) -> int | float:
        return table_points_number(self.table_points)


def tournament_tables(tournament: Tournament) -> list[TableScore]:
    grouped: dict[tuple[int, int], list[TableResult]] = {}
    for row in TableResult.objects.filter(tournament=tournament).order_by(
        "session", "table", "seat"
    ):
        grouped.setdefault((row.session, row.table), []).append(row)
    return [
        TableScore(session, table, tuple(
            SeatScore(r.player_id, r.game_points, r.penalty)
            for r in sorted(rows, key=lambda r: SEAT_ORDER[r.seat])
        ))
        for (session, table), rows in sorted(grouped.items())
    ]


def tournament_ranking(tournament: Tournament) -> list[Standing]:
    """The scoring core's ranking (3.10.1) of every registered player, in registration
    order for ties; players without results: zeros."""
    order = list(tournament.registrations.order_by("number").values_list("player_id", flat=True))
    return list(standings(order, tournament_tables(tournament)))


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The ranking of every registered player (3.10.1); players without results: zeros."""
    registrations = {r.player_id: r for r in tournament_registrations(tournament)}
    order = [r.player_id for r in sorted(registrations.values(), key=lambda r: r.number)]
    return [
        StandingRow(
            s.rank, s.player, str(registrations[s.player].player),
            registrations[s.player].player.country, registrations[s.player].number,
            registrations[s.player].team, s.table_points, s.game_points, s.penalties,
            s.sessions,
        )
        for s in standings(order, tournament_tables(tournament))
    ]


def tournament_team_standings(tournament: Tournament) -> list[TeamStanding]:
    teams = dict(
        Registration.objects.filter(tournament=tournament).exclude(team="")
        .values_list("player_id", "team")
    )
    if not teams:
        return []
    ranking = standings(list(teams), tournament_tables(tournament))
    return team_standings(ranking, teams)


@dataclass(frozen=True)
class SessionCell:
    table_points: Fraction
    table_points_sum: Fraction
    game_points: int  # after the deducted penalty
    game_points_sum: int
    penalty: int
    table: int
    seat: str


def session_grid(tournament: Tournament) -> dict[int, dict[int, SessionCell]]:
    """player -> session -> the Appendix 7 cells (points of the session and running sums)."""
    seats = {
        (r.session, r.player_id): (r.table, r.seat)
        for r in TableResult.objects.filter(tournament=tournament)
    }
    tables = tournament_tables(tournament)
    won = session_table_points(tables)
    grid: dict[int, dict[int, SessionCell]] = {}
    penalties = {(t.session, s.player): (s.game_points - s.penalty, s.penalty)
                 for t in tables for s in t.seats}
    for session in sorted({t.session for t in tables}):
        for (sess, player), points in won.items():
            if sess != session:
                continue
            cells = grid.setdefault(player, {})
            before = cells[max(cells)] if cells else None
            gp, pen = penalties[(session, player)]
            table, seat = seats[(session, player)]
            cells[session] = SessionCell(
                points, points + (before.table_points_sum if before else 0), gp,
                gp + (before.game_points_sum if before else 0), pen, table, seat,
            )
    return grid


def today() -> datetime.date:
    return timezone.localdate()
