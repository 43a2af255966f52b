"""The seating draw (3.5.1, Appendices 3 and 4). Pure: no Django.

For N players (a multiple of 4) over S sessions: every player sits once per session, pairs of
players meet again as rarely as possible, team mates are kept apart, compatriots too when the
tournament asks for it, the four players of a table take the seat winds so that over the
tournament everyone sits East, South, West and North about equally often (Appendix 4 then
rotates them round by round inside the session), and the same seed always gives the same
draw.

Method (docs/decisions/0714-seating-designs.md): the cost of a draw is, per pair of players,
``REPEAT_COST`` for a second meeting and ``THIRD_COST`` for each further one, plus
``TEAM_COST`` per meeting of team mates and ``COUNTRY_COST`` per meeting of compatriots when
they are to be kept apart. The start is a repeat-free design of ``tournaments.rules.seating_designs``
when one exists for N (players relabelled by the seed, team mates and compatriots put in the
groups of the design that never meet), the sessions it lacks drawn greedily; or a greedy draw
session by session. Then a tabu search swaps two players of one session between tables,
always the best swap of a player in conflict, until the cost reaches its lower bound or a
fixed number of evaluated swaps (deterministic, no clock). Then a table whose four players
already sat together whole is broken up by the cheapest swap that costs no third meeting (any
swap short of team mates when its session repeats another one table for table). Then the winds
of each table: the permutation that best balances each player's winds so far.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.rules.seating_designs import best_design

TEAM_COST = 1_000_000
THIRD_COST = 10_000
REPEAT_COST = 100
COUNTRY_COST = 1
SEARCH_BUDGET = 1_500_000  # evaluated swaps, at most, per draw
SAMPLE = 24
TENURE_MIN = 3
TENURE_SPAN = 8
STALL = 150  # iterations without a better draw before going back to the best one
SHAKES = 4  # times the best draw is shaken without getting better before the search ends
PERMUTATIONS = tuple(itertools.permutations(range(4)))

# Appendix 4: the seat (wind) of players A, B, C, D (the table's E, S, W, N of round 1) in
# each of the four rounds of a session.
ROUND_SEATS: tuple[tuple[str, str, str, str], ...] = (
    ("E", "S", "W", "N"),  # East round: A East, B South, C West, D North
    ("S", "E", "N", "W"),  # South round: B East, A South, D West, C North
    ("N", "W", "E", "S"),  # West round: C East, D South, B West, A North
    ("W", "N", "S", "E"),  # North round: D East, C South, A West, B North
)

# a seed is stored (Tournament.seating_seed, a 32-bit integer): the draw takes no other
SEED_MIN, SEED_MAX = -2_147_483_648, 2_147_483_647


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
    # meetings of compatriots in the sessions returned (0 when no countries were given)
    country_pairs: int = 0
    # the fewest repeat pairs any draw of these sessions could reach after the sessions kept
    # (``kept_repeat_pairs_bound``); None when not computed
    fewest_repeat_pairs: int | None = None


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


def repeat_pairs_bound(players: int, sessions: int) -> int:
    """The fewest pairs that must meet more than once when ``players`` play ``sessions``
    sessions at tables of four with no pair meeting three times (decision 0714): every table
    makes 6 meetings and each meeting beyond one per pair is one more repeat pair."""
    return max(0, 6 * (players // 4) * sessions - players * (players - 1) // 2)


def drawn_repeat_pairs_bound(tables: int, players: int) -> int:
    """The same bound for a seating already drawn, from its tables over all sessions and the
    players seated in any: right also when the field changes between sessions (a player
    withdrawn from session k meets fewer people, so fewer pairs need to meet twice)."""
    return max(0, 6 * tables - players * (players - 1) // 2)


def kept_repeat_pairs_bound(
    before: Sequence[Sequence[Sequence[int]]], players_by_session: Sequence[Sequence[int]]
) -> int:
    """The fewest pairs that must meet more than once when the sessions ``before`` are kept
    and the sessions seating ``players_by_session`` are drawn after them, no pair meeting
    three times: the pairs that already met twice stay repeat pairs, and each new meeting
    beyond one per pair that has not met yet (both players seated again) makes one more
    (a redraw from session k cannot undo the meetings of sessions 1 to k-1)."""
    met = meetings(before)
    kept = sum(1 for n in met.values() if n > 1)
    present = {p for players in players_by_session for p in players}
    unmet = len(present) * (len(present) - 1) // 2 - sum(
        1 for a, b in met if a in present and b in present)
    new_meetings = sum(6 * (len(players) // 4) for players in players_by_session)
    return kept + max(0, new_meetings - unmet)


def random_draw(players: Sequence[int], sessions: int, seed: int) -> list[list[list[int]]]:
    """A plain random draw (the baseline the generator is measured against)."""
    rng = random.Random(seed)
    out = []
    for _ in range(sessions):
        order = list(players)
        rng.shuffle(order)
        out.append([order[i : i + 4] for i in range(0, len(order), 4)])
    return out


def country_pairs(
    sessions: Sequence[Sequence[Sequence[int]]], countries: Mapping[int, str]
) -> int:
    """Meetings of compatriots: over the sessions, the pairs of players of one country (an
    empty country matches nobody) seated at one table."""
    return sum(
        1
        for session in sessions
        for table in session
        for a, b in itertools.combinations(table, 2)
        if countries.get(a) and countries.get(a) == countries.get(b)
    )


def draw(
    players: Sequence[int],
    sessions: int,
    *,
    seed: int,
    teams: Mapping[int, str] | None = None,
    countries: Mapping[int, str] | None = None,
    before: Sequence[Sequence[Sequence[int]]] = (),
    budget: int = SEARCH_BUDGET,
) -> Seating:
    """Seat ``players`` (ids) for ``sessions`` sessions; deterministic for ``seed``.
    ``teams``: team mates are kept apart. ``countries``: when given, compatriots meet as
    little as possible (after repeats). ``before``: sessions already seated (tables of ids in
    wind order), whose meetings and winds count; players of theirs not in ``players`` are
    ignored. Only the new sessions are returned (``repeat_pairs`` counted over them and
    ``before``, ``country_pairs`` over them)."""
    n = len(players)
    if n == 0 or n % 4:
        raise SeatingError("players_not_multiple_of_4",
                           f"{n} players: the number must be a positive multiple of 4")
    if len(set(players)) != n:
        raise SeatingError("player_twice", "a player is listed twice")
    if sessions < 1:
        raise SeatingError("no_sessions", "at least one session")
    teams = teams or {}
    countries = countries or {}
    rng = random.Random(seed)
    index = {p: i for i, p in enumerate(players)}
    team_of = [teams.get(p) or None for p in players]
    country_of = [countries.get(p) or None for p in players]
    weight = [[0] * n for _ in range(n)]
    for i, j in itertools.combinations(range(n), 2):
        w = 0
        if team_of[i] is not None and team_of[i] == team_of[j]:
            w += TEAM_COST
        if country_of[i] is not None and country_of[i] == country_of[j]:
            w += COUNTRY_COST
        weight[i][j] = weight[j][i] = w
    met0 = [[0] * n for _ in range(n)]
    wind_count = [[0] * 4 for _ in range(n)]
    for past in before:
        for past_table in past:
            here = [(w, index[p]) for w, p in enumerate(past_table) if p in index]
            for w, i in here:
                wind_count[i][w] += 1
            for (_, a), (_, b) in itertools.combinations(here, 2):
                met0[a][b] += 1
                met0[b][a] += 1
    step = [0, REPEAT_COST] + [THIRD_COST] * (len(before) + sessions + 2)
    groups_floor = sessions * (TEAM_COST * _fewest_pairs(team_of, n // 4)
                               + COUNTRY_COST * _fewest_pairs(country_of, n // 4))
    search = _Search(n, sessions, met0, weight, step, groups_floor)
    starts: list[Tables] = []
    designed = _design_start(n, sessions, team_of, country_of, rng)
    if designed is not None:
        _relabel(designed, weight, rng)
        starts.append(_greedy_start(search, rng, designed))
    if not starts or search.cost_of(starts[0]) > search.floor:
        starts.append(_greedy_start(search, rng))
    best_start = min(starts, key=search.cost_of)
    search.run(best_start, rng, budget)
    search.vary_tables([
        [frozenset(index[p] for p in past_table) for past_table in past
         if all(p in index for p in past_table)]
        for past in before
    ])
    result: list[tuple[tuple[int, int, int, int], ...]] = []
    for tables in search.best:
        seated: list[tuple[int, int, int, int]] = []
        for table in tables:
            order = _winds(table, wind_count)
            for w, i in enumerate(order):
                wind_count[i][w] += 1
            seated.append((players[order[0]], players[order[1]], players[order[2]],
                           players[order[3]]))
        result.append(tuple(seated))
    return Seating(tuple(result), repeat_pairs([*before, *result]),
                   country_pairs(result, countries))


def draw_sessions(
    players_by_session: Sequence[Sequence[int]],
    *,
    seed: int,
    teams: Mapping[int, str] | None = None,
    countries: Mapping[int, str] | None = None,
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
                    countries=countries, before=[*before, *drawn])
        drawn.extend(part.sessions)
        start = end
    repeats = repeat_pairs([*before, *drawn])
    # a draw that must seat pairs a third time (a tiny field) may go below the bound
    fewest = min(repeats, kept_repeat_pairs_bound(before, players_by_session))
    return Seating(tuple(drawn), repeats, country_pairs(drawn, countries or {}), fewest)


def _fewest_pairs(group_of: Sequence[str | None], tables: int) -> int:
    """The fewest pairs of one group that a session can seat together: each group spread
    as evenly as it goes over the tables."""
    sizes: dict[str, int] = {}
    for group in group_of:
        if group is not None:
            sizes[group] = sizes.get(group, 0) + 1
    total = 0
    for size in sizes.values():
        q, r = divmod(size, tables)
        total += r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2
    return total


Tables = list[list[list[int]]]  # tables[s][t] = the four player indices of a table


class _Search:
    """The state of the tabu search: who sits at which table in each new session, how often
    each pair met (``before`` included), and the cost of the next / of the last meeting of
    each pair (``add`` and ``rem``, weights included)."""

    def __init__(self, n: int, sessions: int, met0: list[list[int]],
                 weight: list[list[int]], step: list[int], groups_floor: int = 0) -> None:
        self.n, self.sessions, self.met0, self.weight, self.step = n, sessions, met0, weight, step
        self.best: Tables = []
        self.best_cost = 0
        base = 0
        unmet = 0
        for i, j in itertools.combinations(range(n), 2):
            base += sum(step[:met0[i][j]]) + weight[i][j] * met0[i][j]
            unmet += met0[i][j] == 0
        # every meeting beyond one per unmet pair meets a pair again (at least REPEAT_COST)
        self.floor = base + step[1] * max(0, sessions * n * 6 // 4 - unmet) + groups_floor

    def cost_of(self, tables: Tables) -> int:
        met = [row[:] for row in self.met0]
        cost = 0
        for i, j in itertools.combinations(range(self.n), 2):
            cost += sum(self.step[:met[i][j]]) + self.weight[i][j] * met[i][j]
        for session in tables:
            for table in session:
                for a, b in itertools.combinations(table, 2):
                    cost += self.step[met[a][b]] + self.weight[a][b]
                    met[a][b] += 1
                    met[b][a] += 1
        return cost

    def _load(self, tables: Tables) -> None:
        n, step, weight = self.n, self.step, self.weight
        self.tables = [[list(t) for t in session] for session in tables]
        self.where = [[0] * n for _ in tables]
        met = [row[:] for row in self.met0]
        for s, session in enumerate(self.tables):
            for t, table in enumerate(session):
                for p in table:
                    self.where[s][p] = t
                for a, b in itertools.combinations(table, 2):
                    met[a][b] += 1
                    met[b][a] += 1
        self.met = met
        self.add = [[step[met[i][j]] + weight[i][j] for j in range(n)] for i in range(n)]
        self.rem = [[(step[met[i][j] - 1] + weight[i][j]) if met[i][j] else 0
                     for j in range(n)] for i in range(n)]
        self.cost = self.cost_of(tables)

    def _meet(self, a: int, b: int, change: int) -> None:
        met = self.met[a][b] + change
        self.met[a][b] = self.met[b][a] = met
        w = self.weight[a][b]
        self.add[a][b] = self.add[b][a] = self.step[met] + w
        self.rem[a][b] = self.rem[b][a] = (self.step[met - 1] + w) if met else 0

    def _swap(self, s: int, a: int, b: int) -> None:
        where = self.where[s]
        t1, t2 = where[a], where[b]
        table1, table2 = self.tables[s][t1], self.tables[s][t2]
        for x in table1:
            if x != a:
                self._meet(a, x, -1)
                self._meet(b, x, 1)
        for y in table2:
            if y != b:
                self._meet(b, y, -1)
                self._meet(a, y, 1)
        table1[table1.index(a)] = b
        table2[table2.index(b)] = a
        where[a], where[b] = t2, t1

    def _conflicts(self) -> list[tuple[int, int]]:
        rem = self.rem
        out = []
        for s, session in enumerate(self.tables):
            for table in session:
                for p in table:
                    row = rem[p]
                    if row[table[0]] or row[table[1]] or row[table[2]] or row[table[3]]:
                        out.append((s, p))
        return out

    def run(self, start: Tables, rng: random.Random, budget: int) -> None:
        self._load(start)
        self.best = [[list(t) for t in session] for session in self.tables]
        self.best_cost = self.cost
        groups = self.n // 4
        tabu = [[[0] * groups for _ in range(self.n)] for _ in range(self.sessions)]
        evaluations = iteration = since_best = shakes = 0
        add, rem = self.add, self.rem
        while self.cost > self.floor and evaluations < budget:
            iteration += 1
            conflicts = self._conflicts()
            if len(conflicts) > SAMPLE:
                conflicts = rng.sample(conflicts, SAMPLE)
            best_delta: int | None = None
            moves: list[tuple[int, int, int]] = []
            burdens: dict[int, list[int]] = {}  # per session: what each player costs there
            for s, a in conflicts:
                if s not in burdens:
                    burden = [0] * self.n
                    for table in self.tables[s]:
                        for p in table:
                            row = rem[p]
                            burden[p] = row[table[0]] + row[table[1]] + row[table[2]] + \
                                row[table[3]]
                    burdens[s] = burden
                burden = burdens[s]
                where = self.where[s]
                t1 = where[a]
                table1 = self.tables[s][t1]
                others1 = [x for x in table1 if x != a]
                add_a, rem_a = add[a], rem[a]
                out_a = sum(rem_a[x] for x in others1)
                x1, x2, x3 = others1
                tabu_a = tabu[s][a]
                for t2, table2 in enumerate(self.tables[s]):
                    if t2 == t1:
                        continue
                    into_t2 = add_a[table2[0]] + add_a[table2[1]] + add_a[table2[2]] + \
                        add_a[table2[3]]
                    for b in table2:
                        add_b = add[b]
                        delta = (into_t2 - add_a[b] - out_a
                                 + add_b[x1] + add_b[x2] + add_b[x3] - burden[b])
                        if best_delta is not None and delta > best_delta:
                            continue
                        if (tabu_a[t2] > iteration or tabu[s][b][t1] > iteration) and \
                                self.cost + delta >= self.best_cost:
                            continue
                        if best_delta is None or delta < best_delta:
                            best_delta, moves = delta, [(s, a, b)]
                        else:
                            moves.append((s, a, b))
                evaluations += 4 * (groups - 1)
            if not moves or best_delta is None:
                break
            s, a, b = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
            t1, t2 = self.where[s][a], self.where[s][b]
            self._swap(s, a, b)
            self.cost += best_delta
            tenure = TENURE_MIN + rng.randrange(TENURE_SPAN)
            tabu[s][a][t1] = iteration + tenure
            tabu[s][b][t2] = iteration + tenure
            if self.cost < self.best_cost:
                self.best_cost = self.cost
                self.best = [[list(t) for t in session] for session in self.tables]
                since_best = shakes = 0
            else:
                since_best += 1
                if since_best > STALL:  # stuck: back to the best, shaken a little
                    shakes += 1
                    if shakes > SHAKES:
                        break
                    self._load(self.best)
                    add, rem = self.add, self.rem
                    for _ in range(2 + rng.randrange(3)):
                        s = rng.randrange(self.sessions)
                        t1, t2 = rng.sample(range(groups), 2)
                        a = self.tables[s][t1][rng.randrange(4)]
                        b = self.tables[s][t2][rng.randrange(4)]
                        self.cost += self._delta(s, a, b)
                        self._swap(s, a, b)
                    since_best = 0

    def vary_tables(self, kept_sessions: Sequence[Sequence[frozenset[int]]]) -> None:
        """Break up the tables of ``best`` whose four players already sat together whole
        (in a session kept or another one drawn): the cheapest swap of one of them with a
        player of another table of that session that seats no table again whole, when it
        costs no pair a third meeting; when the session as a whole repeats another one table
        for table, even then (what players notice first), but never one seating team mates
        together. Few players leave no such swap (4 players)."""
        self._load(self.best)
        kept = [t for session in kept_sessions for t in session]
        sessions_seen = {frozenset(session) for session in kept_sessions}
        for s in range(self.sessions):
            for t in range(len(self.tables[s])):
                others = self._tables_but(s, kept)
                if frozenset(self.tables[s][t]) not in others:
                    continue
                whole = frozenset(frozenset(x) for x in self.tables[s])
                limit = TEAM_COST if whole in sessions_seen or any(
                    frozenset(frozenset(x) for x in session) == whole
                    for other, session in enumerate(self.tables) if other != s
                ) else THIRD_COST
                best: tuple[int, int, int] | None = None
                for a in list(self.tables[s][t]):
                    for t2, table2 in enumerate(self.tables[s]):
                        if t2 == t:
                            continue
                        for b in table2:
                            new1 = frozenset(self.tables[s][t]) - {a} | {b}
                            new2 = frozenset(table2) - {b} | {a}
                            if new1 in others or new2 in others:
                                continue
                            delta = self._delta(s, a, b)
                            if delta < limit and (best is None or delta < best[0]):
                                best = (delta, a, b)
                if best is not None:
                    self.cost += best[0]
                    self._swap(s, best[1], best[2])
        self.best = [[list(t) for t in session] for session in self.tables]
        self.best_cost = self.cost

    def _tables_but(self, s: int, kept: Sequence[frozenset[int]]) -> set[frozenset[int]]:
        """The tables seated in the sessions kept and in the drawn sessions but ``s``."""
        out = set(kept)
        for other, session in enumerate(self.tables):
            if other != s:
                out.update(frozenset(t) for t in session)
        return out

    def _delta(self, s: int, a: int, b: int) -> int:
        add, rem = self.add, self.rem
        table1 = self.tables[s][self.where[s][a]]
        table2 = self.tables[s][self.where[s][b]]
        return (sum(add[b][x] - rem[a][x] for x in table1 if x != a)
                + sum(add[a][y] - rem[b][y] for y in table2 if y != b))


def _relabel(tables: Tables, weight: list[list[int]], rng: random.Random) -> None:
    """Exchange players all through ``tables`` (which keeps who meets how often) while an
    exchange lowers the weighted meetings (team mates, compatriots); in place."""
    n = len(weight)
    if not any(any(row) for row in weight):
        return
    partners: list[list[int]] = [[] for _ in range(n)]
    for session in tables:
        for table in session:
            for a, b in itertools.permutations(table, 2):
                partners[a].append(b)
    label = list(range(n))  # label[slot] = the player seated in that slot

    def load(slot: int, player: int, skip: int) -> int:
        return sum(weight[player][label[x]] for x in partners[slot] if x != skip)

    for _ in range(10):
        improved = False
        order = list(range(n))
        rng.shuffle(order)
        for s1 in order:
            if not load(s1, label[s1], -1):
                continue
            for s2 in range(n):
                if s2 == s1:
                    continue
                p1, p2 = label[s1], label[s2]
                gain = (load(s1, p1, s2) + load(s2, p2, s1)
                        - load(s1, p2, s2) - load(s2, p1, s1))
                if gain > 0:
                    label[s1], label[s2] = p2, p1
                    improved = True
                    break
        if not improved:
            break
    for session in tables:
        for table in session:
            table[:] = [label[x] for x in table]


def _greedy_start(search: _Search, rng: random.Random, prefix: Tables | None = None) -> Tables:
    """``prefix`` (sessions already chosen), then session by session: each table takes the
    free player who costs least with it."""
    n = search.n
    met = [row[:] for row in search.met0]
    step, weight = search.step, search.weight
    out: Tables = [[list(t) for t in session] for session in prefix or []]
    for session in out:
        for table in session:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    while len(out) < search.sessions:
        free = list(range(n))
        rng.shuffle(free)
        tables: list[list[int]] = []
        while free:
            table = [free.pop()]
            while len(table) < 4:
                best = min(range(len(free)), key=lambda k: sum(
                    step[met[free[k]][m]] + weight[free[k]][m] for m in table))
                table.append(free.pop(best))
            tables.append(table)
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
        out.append(tables)
    return out


def _design_start(n: int, sessions: int, team_of: list[str | None],
                  country_of: list[str | None], rng: random.Random) -> Tables | None:
    """A repeat-free design for ``n`` players relabelled by ``rng``, team mates (then
    compatriots) placed in the design's groups that never meet; for more sessions than the
    design has, the design again when it makes every pair meet (no better is possible
    then), else only the design's sessions (the greedy start adds the others). None when
    there is no design for ``n``."""
    found = best_design(n, sessions)
    if found is None:
        return None
    design, apart = found
    groups: dict[tuple[str, str], list[int]] = {}
    loose: list[int] = []
    for i in range(n):
        if team_of[i] is not None:
            groups.setdefault(("team", team_of[i] or ""), []).append(i)
        elif country_of[i] is not None:
            groups.setdefault(("country", country_of[i] or ""), []).append(i)
        else:
            loose.append(i)
    if len(design) > sessions and (
        not apart or max((len(g) for g in groups.values()), default=0) <= 4
    ):
        apart = design[sessions]  # the tables of a session left out never meet
    slots_by_group = [list(g) for g in apart] or [list(range(n))]
    for group in slots_by_group:
        rng.shuffle(group)
    slot_player = [0] * n
    for _, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        todo = list(members)
        while todo:  # the whole group in the emptiest part, what does not fit in the next
            group = max(slots_by_group, key=len)
            while todo and group:
                slot_player[group.pop()] = todo.pop()
    rng.shuffle(loose)
    for group in slots_by_group:
        for slot in group:
            slot_player[slot] = loose.pop()
    chosen = design[:sessions]
    order = list(range(len(chosen)))
    rng.shuffle(order)
    out: Tables = [[[slot_player[x] for x in table] for table in chosen[k]] for k in order]
    if sessions > len(design) and len(design) * n * 6 // 4 == n * (n - 1) // 2:
        # every pair has met once: the design again is as good as it gets, each copy with
        # its players exchanged so that no table of four sits together again whole (a copy
        # as it was made the last sessions repeat the first ones table for table)
        copies = [out]
        seen = {frozenset(t) for session in out for t in session}
        while sum(len(c) for c in copies) < sessions:
            for _ in range(1000):
                label = list(range(n))
                rng.shuffle(label)
                copy = [[[label[x] for x in t] for t in session] for session in out]
                if not any(frozenset(t) in seen for session in copy for t in session):
                    break
            seen.update(frozenset(t) for session in copy for t in session)
            copies.append(copy)
        out = [session for c in copies for session in c][:sessions]
    return out

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
