"""What posted results mean: pure checks of parsed sessions through the scoring core.

Takes the :mod:`tournaments.rules.results_files` dataclasses, the registered player ids and the ruleset;
scores every table's hands (:mod:`rulebook.scoring.scoresheet`), checks balance and players
(:mod:`rulebook.scoring.standings`) and returns what to store, or every problem found.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebook.scoring import MCRConfig
from rulebook.scoring.scoresheet import (
    Draw,
    Line,
    LineResult,
    PenaltyTransfer,
    Win,
    score_sheet,
)
from rulebook.scoring.standings import (
    WINDS,
    Problem,
    SeatScore,
    TableScore,
    check_session,
    check_table,
)

from .results_files import HandEntry, SessionEntry, TableEntry
from .session_players import allowed_players, expected_players

E_SESSION_RANGE = "session_range"
E_NOT_AT_TABLE = "not_at_table"
E_PLAYER_WITHDRAWN = "player_withdrawn"  # seated in a session after their withdrawal
E_PLAYER_ABSENT = "player_absent"  # seated in a session they were recorded absent for


@dataclass(frozen=True)
class ScoredTable:
    score: TableScore
    hands: tuple[tuple[HandEntry, LineResult], ...]  # empty when only totals were given
    unbalanced: int | None = None  # totals only, kept as recorded: their sum (not zero)


@dataclass(frozen=True)
class ScoredSession:
    session: int
    tables: tuple[ScoredTable, ...]


def evaluate(
    sessions: Sequence[SessionEntry],
    *,
    registered: Iterable[int],
    session_count: int,
    rules: str,
    config: MCRConfig,
    withdrawn: Mapping[int, int] | None = None,
    substitutes: Collection[int] = (),
    absent: Mapping[int, Collection[int]] | None = None,
    partial: bool = False,
    allow_unbalanced: bool = False,
) -> tuple[list[ScoredSession], list[Problem]]:
    """``registered``: every registered player; ``withdrawn``: player -> the first session
    they no longer play; ``substitutes`` sit in a session only when a table needs them;
    ``absent``: session -> the players who miss it. Each session must seat exactly the
    players expected in it (``tournaments.rules.session_players``).
    ``partial``: the sessions give some of their tables only (a table entered at the
    table), so an expected player without a seat is not a problem.
    ``allow_unbalanced``: a table given as totals without hands whose game points do not
    sum to zero is kept as recorded (``ScoredTable.unbalanced``) instead of refused; tables
    with hands are always checked."""
    registered = set(registered)
    withdrawn = dict(withdrawn or {})
    absent = {k: set(v) for k, v in (absent or {}).items()}
    subs = set(substitutes)
    scored: list[ScoredSession] = []
    problems: list[Problem] = []
    for entry in sessions:
        if not 1 <= entry.session <= session_count:
            problems.append(Problem(
                E_SESSION_RANGE, f"the tournament has sessions 1 to {session_count}",
                session=entry.session, field="session", params={"count": session_count}))
            continue
        seated = {s.player for t in entry.tables for s in t.seats}
        players = expected_players(entry.session, registered=registered, withdrawn=withdrawn,
                                   substitutes=subs, absent=absent) | (
            allowed_players(entry.session, registered=registered, withdrawn=withdrawn,
                            absent=absent)
            & subs & seated)
        tables: list[ScoredTable] = []
        for table in entry.tables:
            result = _table(entry.session, table, rules, config, allow_unbalanced)
            if isinstance(result, list):
                problems.extend(result)
            else:
                tables.append(result)
        session_problems = (
            check_session(entry.session, [t.score for t in tables], players)
            if len(tables) == len(entry.tables)
            else _players_only(entry, players)
        )
        kept = {t.score.table for t in tables if t.unbalanced is not None}
        problems.extend(
            _withdrawn(p, withdrawn, absent.get(entry.session, set()))
            for p in session_problems
            if not (p.code == "unbalanced" and p.table in kept))
        scored.append(ScoredSession(entry.session, tuple(tables)))
    if partial:
        problems = [p for p in problems if p.code != "player_missing"]
    if problems and allow_unbalanced:
        # refused anyway: the tables that would have been flagged are listed too
        problems.extend(p for s in scored for t in s.tables if t.unbalanced is not None
                        for p in _balance(t.score))
    return scored, problems


def _withdrawn(problem: Problem, withdrawn: Mapping[int, int],
               absent: Collection[int] = ()) -> Problem:
    """A withdrawn (or absent) player seated after their withdrawal (in the session they
    miss) is not "unknown": say so."""
    player: Any = problem.params.get("player") if problem.params else None
    if problem.code == "player_unknown" and player in absent:
        return dataclasses.replace(
            problem, code=E_PLAYER_ABSENT,
            message=f"player {player} is recorded absent for session {problem.session}",
            params={"player": player, "session": problem.session})
    if problem.code != "player_unknown" or player not in withdrawn:
        return problem
    return dataclasses.replace(
        problem, code=E_PLAYER_WITHDRAWN,
        message=f"player {player} withdrew from session {withdrawn[player]} on",
        params={"player": player, "from_session": withdrawn[player]},
    )


def _players_only(entry: SessionEntry, players: set[int]) -> list[Problem]:
    """Player checks of a session some of whose tables have other problems."""
    tables = [
        TableScore(entry.session, t.table, tuple(SeatScore(s.player, 0) for s in t.seats))
        for t in entry.tables
    ]
    return [
        p for p in check_session(entry.session, tables, players)
        if p.code in ("player_twice", "player_unknown", "player_missing", "table_twice")
    ]


def _line(hand: HandEntry, seat_of: dict[int, int], number: int,
          where: dict[str, Any]) -> Line | Problem:
    def seat(player: int | None, fld: str) -> int | Problem | None:
        if player is None:
            return None
        if player not in seat_of:
            return Problem(E_NOT_AT_TABLE, f"player {player} does not sit at this table",
                           hand=number, field=fld, params={"player": player}, **where)
        return seat_of[player]

    if hand.kind == "draw":
        return Draw()
    if hand.kind == "penalty":
        offender = seat(hand.player, "penalty")
        if isinstance(offender, Problem):
            return offender
        assert offender is not None and hand.points is not None
        return PenaltyTransfer(offender, hand.points)
    winner = seat(hand.player, "winner")
    if isinstance(winner, Problem):
        return winner
    discarder = seat(hand.discarder, "from")
    if isinstance(discarder, Problem):
        return discarder
    assert winner is not None
    return Win(winner, discarder, hand.points, hand.fans, hand.tiles, hand.context)


def _table(
    session: int, table: TableEntry, rules: str, config: MCRConfig,
    allow_unbalanced: bool = False,
) -> ScoredTable | list[Problem]:
    where: dict[str, Any] = {"session": session, "table": table.table}
    if len(table.seats) != len(WINDS):
        return [Problem("seat_count", f"a table has four seats, not {len(table.seats)}",
                        field="seats", params={"count": len(table.seats)}, **where)]
    if table.hands is None:
        game = [s.game_points for s in table.seats]
        assert all(g is not None for g in game)
        score = TableScore(session, table.table, tuple(
            SeatScore(s.player, s.game_points or 0, s.penalty) for s in table.seats))
        problems = _balance(score)
        if allow_unbalanced and problems and all(p.code == "unbalanced" for p in problems):
            return ScoredTable(score, (), sum(s.game_points for s in score.seats))
        return problems if problems else ScoredTable(score, ())
    seat_of = {s.player: i for i, s in enumerate(table.seats)}
    lines: list[Line] = []
    problems = []
    for number, hand in enumerate(table.hands, start=1):
        line = _line(hand, seat_of, number, where)
        if isinstance(line, Problem):
            problems.append(line)
            lines.append(Draw())  # keeps the numbering; the sheet is refused anyway
        else:
            lines.append(line)
    sheet = score_sheet(lines, rules=rules, config=config,
                        stated=[s.game_points for s in table.seats])
    problems.extend(p.located(**where) for p in sheet.problems)
    if problems:
        problems.sort(key=lambda p: (p.hand or 0, p.seat or ""))
        return problems
    score = TableScore(session, table.table, tuple(
        SeatScore(s.player, sheet.game_points[i], s.penalty)
        for i, s in enumerate(table.seats)))
    problems = _balance(score)
    if problems:
        return problems
    pairs = tuple((hand, line) for hand, line in zip(table.hands, sheet.lines, strict=True)
                  if line is not None)
    return ScoredTable(score, pairs)


def _balance(score: TableScore) -> list[Problem]:
    # players twice are reported once for the session (check_session)
    return [p for p in check_table(score) if p.code != "player_twice"]
