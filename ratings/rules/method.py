"""The federation's rating method (docs/ratings.md), PURE: no Django.

* Every calendar month is a rating period, with or without tournaments. A tournament belongs
  to the period of its last day; all its sessions are games of that period.
* Each session at a table gives every player one result against each of the three others:
  1 for more game points in that session (before deducted penalties), 0.5 for equal, 0 for
  fewer.
* Everybody is rated with the opponents' ratings at the start of the period (Glicko-2,
  `ratings.rules.glicko.update`). A rated player without games gets the step-6 RD increase, capped
  at `max_rd`; over n idle months that is `glicko.inactive(rating, n)` in one step.
* New players start at 1500 / 350 / 0.06. RD above `provisional_rd` is provisional.
* Deterministic: outcomes, seats and games are sorted before anything is summed, so the same
  results give the same floats whatever the input order.

Periods are month indexes (`year * 12 + month - 1`) inside; "YYYY-MM" at the edges.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import NamedTuple, Protocol

from ratings.rules import glicko
from ratings.rules.glicko import Rating

Period = int

PERIOD_RE = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def period_of(day: date) -> Period:
    """The rating period (month) a day falls in."""
    return day.year * 12 + day.month - 1


def period_label(period: Period) -> str:
    """ "YYYY-MM" of a period."""
    return f"{period // 12:04d}-{period % 12 + 1:02d}"


def parse_period(text: str) -> Period:
    """The period of a "YYYY-MM" string; ValueError for anything else."""
    match = PERIOD_RE.match(text or "")
    if not match:
        raise ValueError(f"not a period (YYYY-MM): {text!r}")
    return int(match.group(1)) * 12 + int(match.group(2)) - 1


def period_first_day(period: Period) -> date:
    return date(period // 12, period % 12 + 1, 1)


class TableOutcomeLike(Protocol):
    """One session at one table of a confirmed tournament (`tournaments.selectors.TableOutcome`)."""

    @property
    def tournament_id(self) -> int: ...
    @property
    def end_date(self) -> date: ...
    @property
    def session(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def seats(self) -> Sequence[tuple[int, int | float | Decimal]]: ...
    @property
    def unrated(self) -> Collection[int]: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """A plain TableOutcome for callers and tests that have no selector at hand."""

    tournament_id: int
    end_date: date
    session: int
    table: int
    seats: tuple[tuple[int, int | float | Decimal], ...]
    unrated: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class MethodConfig:
    tau: float = glicko.DEFAULT_TAU
    provisional_rd: float = 110.0
    max_rd: float = glicko.NEW_RD
    new_vol: float = glicko.NEW_VOL


class PairResult(NamedTuple):
    """One player's result against one opponent in one session (a NamedTuple: a season
    makes hundreds of thousands of them)."""

    player: int
    opponent: int
    score: float
    tournament_id: int
    session: int
    table: int


@dataclass(frozen=True, slots=True)
class PlayerState:
    """Where a player stands after the last period in which they played."""

    rating: Rating
    period: Period
    first_period: Period


@dataclass(frozen=True, slots=True)
class OpponentLine:
    """Explanation: every game of a period against one opponent."""

    opponent: int
    opponent_rating: Rating
    games: int
    score: float
    expected: float


@dataclass(frozen=True, slots=True)
class PeriodChange:
    """A player's period: the rating at its start, the games, and the rating after it."""

    player: int
    period: Period
    before: Rating
    after: Rating
    is_new: bool
    games: int
    score: float
    expected: float
    lines: tuple[OpponentLine, ...]
    tournaments: tuple[int, ...]

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating


@dataclass
class RatingRun:
    states: dict[int, PlayerState] = field(default_factory=dict)
    changes: list[PeriodChange] = field(default_factory=list)
    periods: list[Period] = field(default_factory=list)


def _score(mine: int | float | Decimal, theirs: int | float | Decimal) -> float:
    if mine > theirs:
        return 1.0
    if mine == theirs:
        return 0.5
    return 0.0


def pairwise_results(outcome: TableOutcomeLike) -> list[PairResult]:
    """Every seat's result against each other seat of one table session, sorted."""
    seats = sorted(outcome.seats, key=lambda seat: seat[0])
    ids = [player for player, _ in seats]
    if len(set(ids)) != len(ids):
        raise ValueError(
            f"tournament {outcome.tournament_id}, session {outcome.session}, "
            f"table {outcome.table}: a player sits twice"
        )
    results = []
    for player, points in seats:
        for opponent, opponent_points in seats:
            if opponent != player:
                results.append(
                    PairResult(
                        player=player,
                        opponent=opponent,
                        score=_score(points, opponent_points),
                        tournament_id=outcome.tournament_id,
                        session=outcome.session,
                        table=outcome.table,
                    )
                )
    return results


def rating_at(state: PlayerState, period: Period, config: MethodConfig) -> Rating:
    """The player's rating at the end of `period` (on or after their last period)."""
    return glicko.inactive(state.rating, period - state.period, max_rd=config.max_rd)


def start_of_period(state: PlayerState | None, period: Period, config: MethodConfig) -> Rating:
    """The rating a player brings into `period`: the end of the previous period."""
    if state is None:
        return Rating(vol=config.new_vol)
    return rating_at(state, period - 1, config)


def is_provisional(rating: Rating, config: MethodConfig) -> bool:
    return rating.rd > config.provisional_rd


def rate_period(
    period: Period,
    outcomes: Iterable[TableOutcomeLike],
    states: Mapping[int, PlayerState],
    config: MethodConfig,
) -> list[PeriodChange]:
    """Rate every player who played in `period` (sorted by player id). A seat in an
    outcome's `unrated` (a substitute) counts as an opponent of the others and is not rated
    itself."""
    pairs: dict[int, list[PairResult]] = defaultdict(list)
    seated: set[int] = set()
    ordered = sorted(outcomes, key=lambda o: (o.tournament_id, o.session, o.table))
    for outcome in ordered:
        unrated = outcome.unrated
        for result in pairwise_results(outcome):
            seated.add(result.player)
            if result.player not in unrated:
                pairs[result.player].append(result)
    start = {player: start_of_period(states.get(player), period, config) for player in seated}
    changes = []
    for player in sorted(pairs):
        results = sorted(
            pairs[player], key=lambda r: (r.opponent, r.tournament_id, r.session, r.table)
        )
        before = start[player]
        games = [(start[r.opponent], r.score) for r in results]
        after = glicko.update(before, games, tau=config.tau)
        by_opponent: dict[int, list[float]] = {}
        for r in results:  # sorted by opponent: the dict keeps that order
            by_opponent.setdefault(r.opponent, []).append(r.score)
        expected = glicko.expected_scores(before, [start[o] for o in by_opponent])
        lines = [
            OpponentLine(
                opponent=opponent,
                opponent_rating=start[opponent],
                games=len(scores),
                score=sum(scores),
                expected=e * len(scores),
            )
            for (opponent, scores), e in zip(by_opponent.items(), expected, strict=True)
        ]
        changes.append(
            PeriodChange(
                player=player,
                period=period,
                before=before,
                after=after,
                is_new=player not in states,
                games=len(results),
                score=sum(line.score for line in lines),
                expected=sum(line.expected for line in lines),
                lines=tuple(lines),
                tournaments=tuple(sorted({r.tournament_id for r in results})),
            )
        )
    return changes


def run(
    outcomes: Iterable[TableOutcomeLike],
    *,
    config: MethodConfig,
    states: Mapping[int, PlayerState] | None = None,
    from_period: Period | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RatingRun:
    """Rate every period with results, in order, from `from_period` on.

    `states` are the players' standings before `from_period` (empty for a full recompute);
    outcomes of earlier periods are ignored. `progress(done, total)` is called after each
    period.
    """
    by_period: dict[Period, list[TableOutcomeLike]] = defaultdict(list)
    for outcome in outcomes:
        period = period_of(outcome.end_date)
        if from_period is None or period >= from_period:
            by_period[period].append(outcome)
    result = RatingRun(states=dict(states or {}))
    periods = sorted(by_period)
    for done, period in enumerate(periods, start=1):
        changes = rate_period(period, by_period[period], result.states, config)
        for change in changes:
            previous = result.states.get(change.player)
            result.states[change.player] = PlayerState(
                rating=change.after,
                period=period,
                first_period=previous.first_period if previous else period,
            )
        result.changes.extend(changes)
        result.periods.append(period)
        if progress is not None:
            progress(done, len(periods))
    return result


@dataclass(frozen=True, slots=True)
class ListRow:
    rank: int
    player: int
    rating: Rating
    provisional: bool
    games: int
    change: float | None
    last_period: Period


def rating_list(
    period: Period,
    history: Mapping[int, Sequence[tuple[Period, Rating, int]]],
    config: MethodConfig,
) -> list[ListRow]:
    """The list at the end of `period`: every player rated by then, best first.

    `history` maps each player to their (period, rating after it, games) rows, in any order.
    `games` in a row is the total of games up to the period. `change` is the move since the
    end of the previous period (None for a player first rated in `period`). Ranks are
    1, 2, 3 ... : established players first (rating desc, then player id), the provisional
    ones after them in the same order, so a rank is always a unique number.
    """
    rows: list[tuple[int, Rating, bool, int, float | None, Period]] = []
    for player, entries in history.items():
        upto = sorted(e for e in entries if e[0] <= period)
        if not upto:
            continue
        last_period, last_rating, _ = upto[-1]
        games = sum(e[2] for e in upto)
        state = PlayerState(rating=last_rating, period=last_period, first_period=upto[0][0])
        now = rating_at(state, period, config)
        change: float | None = None
        if upto[0][0] < period:
            before = upto[-2] if last_period == period else upto[-1]
            previous = rating_at(
                PlayerState(rating=before[1], period=before[0], first_period=upto[0][0]),
                period - 1,
                config,
            )
            change = now.rating - previous.rating
        rows.append((player, now, is_provisional(now, config), games, change, last_period))
    rows.sort(key=lambda r: (r[2], -r[1].rating, r[0]))
    result = []
    for rank, (player, rating, provisional, games, change, last) in enumerate(rows, start=1):
        result.append(
            ListRow(
                rank=rank,
                player=player,
                rating=rating,
                provisional=provisional,
                games=games,
                change=change,
                last_period=last,
            )
        )
    return result


@dataclass(frozen=True, slots=True)
class ClubScore:
    """A club in the club ranking: its `counted` players (id, rating), best first, the
    mean of their ratings, its rank (None: fewer than the players counted, not ranked) and
    how many rated players it has in all."""

    club: int
    rank: int | None
    mean: float | None
    counted: tuple[tuple[int, float], ...]
    players: int


def club_ranking(ratings: Mapping[int, Sequence[tuple[int, float]]], best: int) -> list[ClubScore]:
    """The club ranking: each club's score is the mean of the ratings of its `best` best
    players (decision 0808). Ranked clubs first, highest mean first (equal means share a
    rank: 1, 2, 2, 4), then the clubs with fewer players, most players first; ties by club
    id."""
    ranked: list[ClubScore] = []
    short: list[ClubScore] = []
    for club, rows in ratings.items():
        ordered = tuple(sorted(rows, key=lambda r: (-r[1], r[0])))
        if len(ordered) >= best:
            counted = ordered[:best]
            mean = sum(r for _, r in counted) / best
            ranked.append(ClubScore(club, None, mean, counted, len(ordered)))
        else:
            short.append(ClubScore(club, None, None, ordered, len(ordered)))
    ranked.sort(key=lambda c: (-(c.mean or 0.0), c.club))
    out: list[ClubScore] = []
    for i, c in enumerate(ranked):
        rank = out[-1].rank if i and c.mean == ranked[i - 1].mean else i + 1
        out.append(ClubScore(c.club, rank, c.mean, c.counted, c.players))
    short.sort(key=lambda c: (-c.players, c.club))
    return out + short
