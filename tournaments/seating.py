"""The seating draw (3.5.1, Appendices 3 and 4). Pure: no Django.

For N players (a multiple of 4) over S sessions: every player sits once per session, pairs of
players meet again as rarely as possible, team mates are kept apart, the four players of a
table take the seat winds so that over the tournament everyone sits East, South, West and
North about equally often (Appendix 4 then rotates them round by round inside the session),
and the same seed always gives the same draw.

Method: for each session a greedy start (each table takes the free player who has met its
players least) and then swaps between tables as long as one lowers the cost, where a pair that
has already met ``k`` times costs ``k`` and team mates cost much more. Then the winds of each
table: the permutation that best balances each player's winds so far.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TEAM_COST = 1000
REPEAT_COST = 6
PERMUTATIONS = tuple(itertools.permutations(range(4)))

# Appendix 4: the seat (wind) of players A, B, C, D (the table's E, S, W, N of round 1) in
# each of the four rounds of a session.
ROUND_SEATS: tuple[tuple[str, str, str, str], ...] = (
    ("E", "S", "W", "N"),  # East round: A East, B South, C West, D North
    ("S", "E", "N", "W"),  # South round: B East, A South, D West, C North
    ("N", "W", "E", "S"),  # West round: C East, D South, B West, A North
    ("W", "N", "S", "E"),  # North round: D East, C South, A West, B North
)


class SeatingError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Seating:
    # sessions[s][t] = the four players of table t+1 in session s+1, in wind order E, S, W, N
    sessions: tuple[tuple[tuple[int, int, int, int], ...], ...]
    repeat_pairs: int


def meetings(sessions: Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How often each pair of players sat at one table."""
    count: dict[tuple[int, int], int] = {}
    for session in sessions:
        for table in session:
            for a, b in itertools.combinations(sorted(table), 2):
                count[(a, b)] = count.get((a, b), 0) + 1
    return count


def repeat_pairs(sessions: Sequence[Sequence[Sequence[int]]]) -> int:
    """How many pairs of players meet more than once."""
    return sum(1 for n in meetings(sessions).values() if n > 1)


def random_draw(players: Sequence[int], sessions: int, seed: int) -> list[list[list[int]]]:
    """A plain random draw (the baseline the generator is measured against)."""
    rng = random.Random(seed)
    out = []
    for _ in range(sessions):
        order = list(players)
        rng.shuffle(order)
        out.append([order[i : i + 4] for i in range(0, len(order), 4)])
    return out


def draw(
    players: Sequence[int],
    sessions: int,
    *,
    seed: int,
    teams: Mapping[int, str] | None = None,
    before: Sequence[Sequence[Sequence[int]]] = (),
) -> Seating:
    """Seat ``players`` (ids) for ``sessions`` sessions; deterministic for ``seed``.
    ``before``: sessions already seated (tables of ids in wind order), whose meetings and
    winds count; players of theirs not in ``players`` are ignored. Only the new sessions
    are returned (``repeat_pairs`` counted over them and ``before``)."""
    n = len(players)
    if n == 0 or n % 4:
        raise SeatingError("players_not_multiple_of_4",
                           f"{n} players: the number must be a positive multiple of 4")
    if len(set(players)) != n:
        raise SeatingError("player_twice", "a player is listed twice")
    if sessions < 1:
        raise SeatingError("no_sessions", "at least one session")
    teams = teams or {}
    rng = random.Random(seed)
    # Work on indices 0..n-1; cost[i][j] = what seating i and j together costs now.
    team_of = [teams.get(p) or None for p in players]
    team = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and team_of[i] is not None and team_of[i] == team_of[j]:
                team[i][j] = TEAM_COST
    cost = [row[:] for row in team]
    met = [[0] * n for _ in range(n)]
    wind_count = [[0] * 4 for _ in range(n)]
    index = {p: i for i, p in enumerate(players)}
    for past in before:
        for past_table in past:
            here = [(w, index[p]) for w, p in enumerate(past_table) if p in index]
            for w, i in here:
                wind_count[i][w] += 1
            for (_, a), (_, b) in itertools.combinations(here, 2):
                met[a][b] += 1
                met[b][a] += 1
                cost[a][b] = cost[b][a] = team[a][b] + next_meeting_cost(met[a][b])
    result: list[tuple[tuple[int, int, int, int], ...]] = []
    for _ in range(sessions):
        tables = _greedy(n, cost, rng)
        _improve(tables, cost, rng)
        seated: list[tuple[int, int, int, int]] = []
        for table in tables:
            order = _winds(table, wind_count)
            for w, i in enumerate(order):
                wind_count[i][w] += 1
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
                cost[a][b] = cost[b][a] = team[a][b] + next_meeting_cost(met[a][b])
            seated.append((players[order[0]], players[order[1]], players[order[2]],
                           players[order[3]]))
        result.append(tuple(seated))
    return Seating(tuple(result), repeat_pairs([*before, *result]))


def draw_sessions(
    players_by_session: Sequence[Sequence[int]],
    *,
    seed: int,
    teams: Mapping[int, str] | None = None,
    before: Sequence[Sequence[Sequence[int]]] = (),
) -> Seating:
    """Seat each session with its own players (a drop-out leaves, a substitute fills a
    table), after the sessions ``before``: consecutive sessions with the same players are
    drawn together. Only the new sessions are returned."""
    drawn: list[tuple[tuple[int, int, int, int], ...]] = []
    start = 0
    while start < len(players_by_session):
        players = list(players_by_session[start])
        end = start + 1
        while end < len(players_by_session) and list(players_by_session[end]) == players:
            end += 1
        part = draw(players, end - start, seed=seed + start, teams=teams,
                    before=[*before, *drawn])
        drawn.extend(part.sessions)
        start = end
    return Seating(tuple(drawn), repeat_pairs([*before, *drawn]))


def next_meeting_cost(met: int) -> int:
    """What one more meeting of a pair that has met ``met`` times costs. A second meeting
    makes a new repeat pair and costs most; further meetings of an already repeated pair
    cost less at first (so that repeats stay among few pairs when they cannot be avoided)
    and then more and more (so that no pair keeps meeting)."""
    if met == 0:
        return 0
    if met == 1:
        return REPEAT_COST
    return 2 * met


def _greedy(n: int, cost: list[list[int]], rng: random.Random) -> list[list[int]]:
    free = list(range(n))
    rng.shuffle(free)
    tables: list[list[int]] = []
    while free:
        table = [free.pop()]
        while len(table) < 4:
            best = min(range(len(free)), key=lambda k: sum(cost[free[k]][m] for m in table))
            table.append(free.pop(best))
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], cost: list[list[int]], rng: random.Random) -> None:
    """Swap players between tables while a swap lowers the total cost (a local optimum)."""

    def burden(p: int, table: list[int], without: int) -> int:
        return sum(cost[p][m] for m in table if m != p and m != without)

    improved = True
    rounds = 0
    while improved and rounds < 50:
        improved = False
        rounds += 1
        order = list(range(len(tables)))
        rng.shuffle(order)
        for ti in order:
            t1 = tables[ti]
            for a_pos in range(4):
                a = t1[a_pos]
                here = burden(a, t1, -1)
                if here == 0:
                    continue
                best_gain, best = 0, None
                for tj, t2 in enumerate(tables):
                    if tj == ti:
                        continue
                    for b_pos in range(4):
                        b = t2[b_pos]
                        gain = (here + burden(b, t2, -1)
                                - burden(a, t2, b) - burden(b, t1, a))
                        if gain > best_gain:
                            best_gain, best = gain, (tj, b_pos)
                if best is not None:
                    tj, b_pos = best
                    t2 = tables[tj]
                    t1[a_pos], t2[b_pos] = t2[b_pos], t1[a_pos]
                    improved = True


def _winds(table: list[int], wind_count: list[list[int]]) -> list[int]:
    """The table's players in wind order E, S, W, N, balancing each player's winds."""
    members = sorted(table)
    best = min(
        PERMUTATIONS,
        key=lambda perm: sum(wind_count[members[perm[w]]][w] ** 2 for w in range(4)),
    )
    return [members[best[w]] for w in range(4)]


def round_seats(table: Sequence[int]) -> list[dict[str, int]]:
    """Appendix 4: for the players A, B, C, D of a table (its E, S, W, N of round 1), who
    sits in which wind in each of the four rounds."""
    return [
        {seat: player for seat, player in zip(seats, table, strict=True)}
        for seats in ROUND_SEATS
    ]
