"""Session results, table points and the tournament ranking (MCR 3.9.2, 3.10.1, 3.11.2).

Pure functions on ints and :class:`~fractions.Fraction`; players are opaque ``int`` ids.

* A table of a session has four seats; each seat has its **game points** for the session
  (what the hands and transferred penalties moved: the four sum to zero) and its **deducted
  penalty** (3.11.2: points taken from the player and given to no one, so they are not in the
  game points and do not break the balance).
* **Table points** 4/2/1/0 (3.9.2) go by game points *before* deducted penalties; players
  tied on game points share equally the table points of the places they occupy together
  (two tied first: 3 and 3; all four tied: 1.75 each; three tied first: 7/3 each).
* **Ranking** (3.10.1): total table points, then total game points *after* penalties; players
  equal on both share the rank (1, 1, 3).

Problems are returned as :class:`Problem` values with a stable ``code`` and the place
(session, table, seat, hand, field); the site translates them by code.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .tiles import WIND_NAMES

PLACE_POINTS: tuple[int, ...] = (4, 2, 1, 0)  # 3.9.2
WINDS: tuple[str, ...] = tuple(WIND_NAMES)  # a table's seats in order: E, S, W, N

# Problem codes (stable; the site translates them)
E_SEAT_COUNT = "seat_count"  # a table needs exactly four seats
E_UNBALANCED = "unbalanced"  # the four seats' game points do not sum to zero
E_NEGATIVE_PENALTY = "negative_penalty"  # a deducted penalty is a positive number of points
E_PLAYER_TWICE = "player_twice"  # a player sits twice in one session
E_PLAYER_MISSING = "player_missing"  # a registered player has no seat in the session
E_PLAYER_UNKNOWN = "player_unknown"  # a seated player is not registered
E_TABLE_TWICE = "table_twice"  # a table number is used twice in one session


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a result: where it is and what is wrong."""

    code: str
    message: str  # English, for logs and the command line; the site translates ``code``
    session: int | None = None
    table: int | None = None
    seat: str | None = None  # "E", "S", "W", "N"
    hand: int | None = None  # 1-based line of the score sheet
    field: str | None = None
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    row: int | None = None  # line of an uploaded file, when there is one

    def located(self, **where: Any) -> Problem:
        """The same problem with its place completed (the caller knows session/table)."""
        missing = {k: v for k, v in where.items() if getattr(self, k) is None}
        return dataclasses.replace(self, **missing)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("row", "session", "table", "seat", "hand", "field"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["code"] = self.code
        out["message"] = self.message
        return out


@dataclass(frozen=True, slots=True)
class SeatScore:
    player: int
    game_points: int  # before deducted penalties
    penalty: int = 0  # deducted (>= 0), given to no one


@dataclass(frozen=True, slots=True)
class TableScore:
    session: int
    table: int
    seats: tuple[SeatScore, ...]  # in wind order E, S, W, N


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: int
    table_points: Fraction
    game_points: int  # total after deducted penalties
    penalties: int  # total deducted
    sessions: int  # sessions with a result


@dataclass(frozen=True, slots=True)
class TeamStanding:
    rank: int
    team: str
    players: tuple[int, ...]
    table_points: Fraction
    game_points: int
    penalties: int


def table_points(game_points: Sequence[int]) -> tuple[Fraction, ...]:
    """Table points of the four seats, in the order given (3.9.2, ties shared)."""
    if len(game_points) != len(PLACE_POINTS):
        raise ValueError("a table has four seats")
    order = sorted(range(len(game_points)), key=lambda i: -game_points[i])
    result = [Fraction(0)] * len(game_points)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and game_points[order[end + 1]] == game_points[order[place]]:
            end += 1
        shared = Fraction(sum(PLACE_POINTS[place : end + 1]), end - place + 1)
        for i in order[place : end + 1]:
            result[i] = shared
        place = end + 1
    return tuple(result)


def check_table(table: TableScore) -> list[Problem]:
    """Problems of one table on its own: four seats, balance, penalties, no player twice."""
    session, number = table.session, table.table
    problems: list[Problem] = []
    if len(table.seats) != len(WINDS):
        return [Problem(E_SEAT_COUNT, f"a table has four seats, not {len(table.seats)}",
                        session, number, field="seats", params={"count": len(table.seats)})]
    seen: set[int] = set()
    for wind, seat in zip(WINDS, table.seats, strict=True):
        if seat.penalty < 0:
            problems.append(Problem(
                E_NEGATIVE_PENALTY, "a deducted penalty is a positive number of points",
                session, number, wind, field="penalty", params={"penalty": seat.penalty}))
        if seat.player in seen:
            problems.append(Problem(
                E_PLAYER_TWICE, f"player {seat.player} sits twice in this session",
                session, number, wind, field="player", params={"player": seat.player}))
        seen.add(seat.player)
    total = sum(s.game_points for s in table.seats)
    if total != 0:
        problems.append(Problem(
            E_UNBALANCED, f"the game points sum to {total}, not zero",
            session, number, field="game_points", params={"total": total}))
    return problems


def check_session(
    session: int, tables: Sequence[TableScore], registered: Iterable[int]
) -> list[Problem]:
    """Problems of one session: every table's, and every registered player exactly once."""
    problems: list[Problem] = []
    players = set(registered)
    seated: dict[int, tuple[int, str]] = {}
    numbers: set[int] = set()
    for table in tables:
        if table.table in numbers:
            problems.append(Problem(
                E_TABLE_TWICE, f"table {table.table} is given twice",
                session=session, table=table.table, field="table",
                params={"table": table.table}))
        numbers.add(table.table)
        for problem in check_table(table):
            if problem.code != E_PLAYER_TWICE:
                problems.append(problem)
        for wind, seat in zip(WINDS, table.seats, strict=False):
            if seat.player not in players:
                problems.append(Problem(
                    E_PLAYER_UNKNOWN, f"player {seat.player} is not registered",
                    session, table.table, wind, field="player", params={"player": seat.player}))
            elif seat.player in seated:
                problems.append(Problem(
                    E_PLAYER_TWICE, f"player {seat.player} sits twice in this session",
                    session, table.table, wind, field="player", params={"player": seat.player}))
            else:
                seated[seat.player] = (table.table, wind)
    for player in sorted(players - set(seated)):
        problems.append(Problem(
            E_PLAYER_MISSING, f"player {player} has no seat in session {session}",
            session=session, field="player", params={"player": player}))
    return problems


def _ranks(keys: Sequence[tuple[Fraction, int]]) -> list[int]:
    """Competition ranks (1, 1, 3) of entries already sorted best first."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def standings(
    players: Sequence[int], tables: Iterable[TableScore],
    awarded: Iterable[tuple[int, Fraction, int]] = (),
) -> list[Standing]:
    """The tournament ranking (3.10.1) of ``players`` (their registration order breaks no
    tie: equal players share the rank and are listed in that order). Players without results
    have zeros. ``awarded``: (player, table points, game points) given outside any table
    (a session missed, when the tournament gives a fixed score for it); not a session
    played."""
    tp: dict[int, Fraction] = {p: Fraction(0) for p in players}
    gp: dict[int, int] = dict.fromkeys(players, 0)
    pen: dict[int, int] = dict.fromkeys(players, 0)
    count: dict[int, int] = dict.fromkeys(players, 0)
    for player, given, game in awarded:
        if player in tp:
            tp[player] += given
            gp[player] += game
    for table in tables:
        points = table_points([s.game_points for s in table.seats])
        for seat, won in zip(table.seats, points, strict=True):
            if seat.player not in tp:
                continue
            tp[seat.player] += won
            gp[seat.player] += seat.game_points - seat.penalty
            pen[seat.player] += seat.penalty
            count[seat.player] += 1
    position = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-tp[p], -gp[p], position[p]))
    ranks = _ranks([(tp[p], gp[p]) for p in order])
    return [
        Standing(rank, p, tp[p], gp[p], pen[p], count[p])
        for rank, p in zip(ranks, order, strict=True)
    ]


def team_standings(
    ranking: Sequence[Standing], teams: Mapping[int, str]
) -> list[TeamStanding]:
    """Teams ranked like players (3.5.3, 3.10.1) on the sums of their players' totals."""
    members: dict[str, list[Standing]] = {}
    for s in ranking:
        team = teams.get(s.player)
        if team:
            members.setdefault(team, []).append(s)
    rows = [
        (
            team,
            tuple(sorted(m.player for m in group)),
            sum((m.table_points for m in group), Fraction(0)),
            sum(m.game_points for m in group),
            sum(m.penalties for m in group),
        )
        for team, group in members.items()
    ]
    rows.sort(key=lambda r: (-r[2], -r[3], r[0]))
    ranks = _ranks([(r[2], r[3]) for r in rows])
    return [TeamStanding(rank, *row) for rank, row in zip(ranks, rows, strict=True)]


def session_table_points(tables: Iterable[TableScore]) -> dict[tuple[int, int], Fraction]:
    """(session, player) -> table points won in that session (for Appendix 7)."""
    out: dict[tuple[int, int], Fraction] = {}
    for table in tables:
        points = table_points([s.game_points for s in table.seats])
        for seat, won in zip(table.seats, points, strict=True):
            out[(table.session, seat.player)] = won
    return out


__all__ = [
    "PLACE_POINTS", "WINDS", "Problem", "SeatScore", "Standing", "TableScore", "TeamStanding",
    "check_session", "check_table", "session_table_points", "standings", "table_points",
    "team_standings",
]
