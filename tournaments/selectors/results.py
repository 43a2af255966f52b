"""Results and the standings computed from them: the confirmed tables the ratings read,
the stored sheets plus the organizer's penalties, the ranking, the standings and their top,
teams, the session grid (Appendix 7), the EMA's standings."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import QuerySet
from django.utils import translation

from core.countries import country_name
from rulebook.scoring.standings import (
    WINDS,
    SeatScore,
    Standing,
    TableScore,
    TeamStanding,
    session_table_points,
    standings,
    team_standings,
)
from tournaments import ema_export
from tournaments.models import (
    SEAT_ORDER,
    Absence,
    Penalty,
    Registration,
    TableResult,
    Tournament,
    TournamentResult,
)
from tournaments.rules.withdrawn_ranking import Placed, place
from tournaments.selectors.players import tournament_registrations


@dataclass(frozen=True)
class TableOutcome:
    """One table of one session of a confirmed tournament: ``seats`` holds
    (player_id, game points of that session before deducted penalties) in seat order E, S, W, N."""

    tournament_id: int
    end_date: datetime.date
    session: int
    table: int
    seats: tuple[tuple[int, int], ...]
    unrated: frozenset[int] = frozenset()  # the substitutes at this table: never rated


def confirmed_table_results(
    *, ruleset: str | None = None, since: datetime.date | None = None
) -> list[TableOutcome]:
    """Every table of every tournament in state "results confirmed" (the corrected values
    after corrections), ordered by end date, tournament, session, table. ``ruleset``: only
    tournaments played under these rules ("mcr", "hkos", "red"); ``since``: only
    tournaments that ended on or after that date. ``unrated`` marks the substitutes' seats:
    their games count for their opponents, they are never rated. Read as plain values: a recompute reads
    ~200,000 seat results, and model instances made that read the slowest part of it."""
    rows = TableResult.objects.filter(tournament__state=Tournament.State.RESULTS_CONFIRMED)
    subs = Registration.objects.filter(
        tournament__state=Tournament.State.RESULTS_CONFIRMED, substitute=True)
    given = Penalty.objects.filter(tournament__state=Tournament.State.RESULTS_CONFIRMED)
    if ruleset is not None:
        rows = rows.filter(tournament__ruleset=ruleset)
        subs = subs.filter(tournament__ruleset=ruleset)
        given = given.filter(tournament__ruleset=ruleset)
    if since is not None:
        rows = rows.filter(tournament__end_date__gte=since)
        subs = subs.filter(tournament__end_date__gte=since)
        given = given.filter(tournament__end_date__gte=since)
    finals = TournamentResult.objects.filter(
        tournament__state=Tournament.State.RESULTS_CONFIRMED,
        tournament__results_kind=Tournament.ResultsKind.FINAL, tournament__rated=True)
    if ruleset is not None:
        finals = finals.filter(tournament__ruleset=ruleset)
    if since is not None:
        finals = finals.filter(tournament__end_date__gte=since)
    substitutes: dict[int, set[int]] = {}
    for tid, player_id in subs.values_list("tournament_id", "player_id"):
        substitutes.setdefault(tid, set()).add(player_id)
    grouped: dict[tuple[datetime.date, int, int, int], list[tuple[int, int, int]]] = {}
    transfers = _transfers(given)
    for end, tid, session, table, seat, player_id, points in rows.values_list(
        "tournament__end_date", "tournament_id", "session", "table", "seat", "player_id",
        "game_points",
    ).iterator(chunk_size=20_000):
        grouped.setdefault((end, tid, session, table), []).append(
            (SEAT_ORDER[seat], player_id, points))
    if transfers:
        for (_end, tid, session, _table), seats in grouped.items():
            players = [p for _, p, _ in sorted(seats)]
            moved = _moved(transfers.get((tid, session), ()), players)
            if moved:
                seats[:] = [(o, p, g + moved.get(p, 0)) for o, p, g in seats]
    # a tournament with final standings only, when it counts in the rating list: one
    # "table" of every ranked player, each beating those placed below (decision 0810)
    for end, tid, player_id, rank in finals.values_list(
            "tournament__end_date", "tournament_id", "player_id", "rank"):
        grouped.setdefault((end, tid, 1, 1), []).append((0, player_id, -rank))
    return [
        TableOutcome(
            tournament_id=tid, end_date=end, session=session, table=table,
            seats=tuple((player_id, points) for _, player_id, points in sorted(seats)),
            unrated=frozenset(p for _, p, _ in seats if p in substitutes.get(tid, ())),
        )
        for (end, tid, session, table), seats in sorted(grouped.items())
    ]


# --- Standings ------------------------------------------------------------------------------


def table_points_number(value: Fraction) -> int | float:
    """Table points as a JSON number: whole numbers stay whole, 7/4 -> 1.75, 7/3 -> 2.33."""
    if value.denominator == 1:
        return int(value)
    return round(float(value), 2)


@dataclass(frozen=True)
class StandingRow:
    rank: int | None  # None: a substitute, or withdrawn when such players are not ranked
    player: int
    name: str
    country: str
    number: int
    team: str
    table_points: Fraction
    game_points: int
    penalties: int
    sessions: int
    substitute: bool = False
    withdrawn_from: int | None = None
    withdrawal_reason: str = ""

    @property
    def table_points_number(self) -> int | float:
        return table_points_number(self.table_points)


# --- Penalties given by the organizer, added to the stored sheets ---------------------------
# The stored rows (TableResult, HandRecord) are the sheets as entered, their penalties
# included; the penalties the organizer gives on the session view or the API are kept apart
# (they survive a table posted again) and added here, for the standings and the ratings
# alike (docs/decisions/0715-penalties-absences-hidden-standings.md).

Transfer = tuple[int, int, int | None]  # offender, points, receiver (None: the three others)


def _transfers(qs: QuerySet[Penalty]) -> dict[tuple[int, int], list[Transfer]]:
    """(tournament, session) -> the transferred penalties given by the organizer."""
    out: dict[tuple[int, int], list[Transfer]] = {}
    for tid, session, player, points, to in qs.filter(
        source=Penalty.Source.ORGANIZER, kind=Penalty.Kind.TRANSFERRED,
    ).values_list("tournament_id", "session", "player_id", "points", "to_player_id"):
        out.setdefault((tid, session), []).append((player, points, to))
    return out


def _moved(transfers: Sequence[Transfer], players: Sequence[int]) -> dict[int, int]:
    """What the transfers whose offender sits at this table (``players``) move: the
    offender pays ``points``, to the receiver or a third to each of the three others."""
    moved: dict[int, int] = {}
    for offender, points, to in transfers:
        if offender not in players:
            continue
        receivers = [to] if to is not None else [p for p in players if p != offender]
        if to is not None and to not in players:
            continue
        moved[offender] = moved.get(offender, 0) - points
        for r in receivers:
            moved[r] = moved.get(r, 0) + points // len(receivers)
    return moved


def tournament_tables(tournament: Tournament, up_to: int | None = None) -> list[TableScore]:
    """The seat scores of every stored table (sessions up to ``up_to``) as the scoring core
    takes them: the stored sheet plus the penalties given by the organizer."""
    rows_qs = TableResult.objects.filter(tournament=tournament)
    given = Penalty.objects.filter(tournament=tournament, source=Penalty.Source.ORGANIZER)
    if up_to is not None:
        rows_qs = rows_qs.filter(session__lte=up_to)
        given = given.filter(session__lte=up_to)
    grouped: dict[tuple[int, int], list[TableResult]] = {}
    for row in rows_qs.order_by("session", "table", "seat"):
        grouped.setdefault((row.session, row.table), []).append(row)
    deducted: dict[tuple[int, int], int] = {}
    transfers: dict[int, list[Transfer]] = {}
    for session, player, kind, points, to in given.values_list(
            "session", "player_id", "kind", "points", "to_player_id"):
        if kind == Penalty.Kind.DEDUCTED:
            deducted[(session, player)] = deducted.get((session, player), 0) + points
        else:
            transfers.setdefault(session, []).append((player, points, to))
    tables = []
    for (session, table), rows in sorted(grouped.items()):
        rows.sort(key=lambda r: SEAT_ORDER[r.seat])
        moved = _moved(transfers.get(session, ()), [r.player_id for r in rows])
        tables.append(TableScore(session, table, tuple(
            SeatScore(r.player_id, r.game_points + moved.get(r.player_id, 0),
                      r.penalty + deducted.get((session, r.player_id), 0))
            for r in rows
        )))
    return tables


def _awarded(tournament: Tournament, up_to: int | None) -> list[tuple[int, Fraction, int]]:
    """The fixed score of each session missed, when the tournament gives one."""
    if tournament.absent_score != Tournament.AbsentScore.FIXED:
        return []
    qs = Absence.objects.filter(tournament=tournament)
    if up_to is not None:
        qs = qs.filter(session__lte=up_to)
    return [(player, Fraction(tournament.absent_table_points), tournament.absent_game_points)
            for player in qs.values_list("player_id", flat=True)]


def _placed(tournament: Tournament, registrations: list[Registration],
            up_to: int | None = None) -> list[Placed]:
    """Everyone's standing (3.10.1) and final rank under the tournament's rules for
    substitutes and withdrawn players (``tournaments.rules.withdrawn_ranking``)."""
    order = [r.player_id for r in sorted(registrations, key=lambda r: r.number)]
    return place(
        standings(order, tournament_tables(tournament, up_to), _awarded(tournament, up_to)),
        substitutes={r.player_id for r in registrations if r.substitute},
        withdrawn={r.player_id: r.withdrawn_from for r in registrations
                   if r.withdrawn_from is not None},
        rule=tournament.withdrawn_ranking,
    )


def tournament_ranking(tournament: Tournament) -> list[Standing]:
    """The final ranking (3.10.1) of the ranked players: substitutes and, when the
    tournament says so, withdrawn players are left out; players without results: zeros."""
    return [
        dataclasses.replace(p.standing, rank=p.rank)
        for p in _placed(tournament, list(tournament.registrations.all()))
        if p.rank is not None
    ]


def tournament_standings(tournament: Tournament, up_to: int | None = None
                         ) -> list[StandingRow]:
    """Every registered player's row: the ranked players (3.10.1) first, then the unranked
    ones (``rank`` None); players without results: zeros. ``up_to``: the standings after
    that session (the last sessions hidden)."""
    registrations = {r.player_id: r for r in tournament_registrations(tournament)}
    if tournament.results_kind == Tournament.ResultsKind.FINAL:
        return _final_standings(tournament, registrations)
    rows = []
    for placed in _placed(tournament, list(registrations.values()), up_to):
        s = placed.standing
        reg = registrations[s.player]
        rows.append(StandingRow(
            placed.rank, s.player, str(reg.player), reg.player.country, reg.number, reg.team,
            s.table_points, s.game_points, s.penalties, s.sessions,
            substitute=reg.substitute, withdrawn_from=reg.withdrawn_from,
            withdrawal_reason=reg.withdrawal_reason,
        ))
    return rows


def _final_standings(tournament: Tournament, registrations: dict[int, Registration]
                     ) -> list[StandingRow]:
    """A tournament with final standings only: its stored rows, as imported."""
    rows = []
    for result in TournamentResult.objects.filter(tournament=tournament).order_by("rank", "pk"):
        reg = registrations.get(result.player_id)
        if reg is None:
            continue
        rows.append(StandingRow(
            result.rank, result.player_id, str(reg.player), reg.player.country, reg.number,
            reg.team, result.table_points, result.game_points, result.penalties,
            result.sessions,
        ))
    return rows


@dataclass(frozen=True)
class Leader:
    rank: int | None
    player: int
    name: str
    table_points: Fraction
    game_points: int


def tournament_leaders(tournament: Tournament, *, limit: int,
                       up_to: int | None = None) -> list[Leader]:
    """The top of the standings (the tournament page). A confirmed tournament's are the
    stored final standings (``TournamentResult``: one query); before that they are
    computed from the results as they stand, up to session ``up_to`` while the last
    sessions are hidden."""
    if tournament.state == Tournament.State.RESULTS_CONFIRMED and up_to is None:
        return [
            Leader(row.rank, row.player_id, str(row.player), row.table_points, row.game_points)
            for row in TournamentResult.objects.filter(tournament=tournament)
            .select_related("player").order_by("rank", "pk")[:limit]
        ]
    return [
        Leader(row.rank, row.player, row.name, row.table_points, row.game_points)
        for row in tournament_standings(tournament, up_to)[:limit]
    ]


def tournament_team_standings(tournament: Tournament, up_to: int | None = None
                              ) -> list[TeamStanding]:
    teams = dict(
        Registration.objects.filter(tournament=tournament).exclude(team="")
        .values_list("player_id", "team")
    )
    if not teams:
        return []
    ranking = standings(list(teams), tournament_tables(tournament, up_to),
                        _awarded(tournament, up_to))
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


def session_grid(tournament: Tournament, up_to: int | None = None
                 ) -> dict[int, dict[int, SessionCell]]:
    """player -> session -> the Appendix 7 cells (points of the session and running sums)."""
    tables = tournament_tables(tournament, up_to)
    seats = {
        (t.session, s.player): (t.table, wind)
        for t in tables for wind, s in zip(WINDS, t.seats, strict=True)
    }
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


def tournament_ema_standings(tournament: Tournament) -> list[ema_export.Standing]:
    """The stored final standings with what the EMA's sheet needs (two queries)."""
    substitutes = set(
        tournament.registrations.filter(substitute=True).values_list("player_id", flat=True)
    )
    rows = TournamentResult.objects.filter(tournament=tournament).select_related("player")
    out = []
    for row in rows:
        player = row.player
        first, last = player.latin_first_last
        with translation.override("en"):
            country = country_name(player.country)
        out.append(ema_export.Standing(
            player=player.pk, rank=row.rank, table_points=row.table_points,
            game_points=row.game_points, first_name=first, last_name=last,
            ema_number=player.ema_number, country=country,
            member=player.member_id is not None, substitute=player.pk in substitutes,
        ))
    return out
