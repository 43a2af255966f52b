"""The EMA ranking (MERS), pure: base ranks of a tournament, a player's score on a date, the
ranking of a ruleset. No Django; exact arithmetic (``Fraction``) until the published
figures, which are rounded to two decimals. The reading of the EMA's rules, and the
alternatives other implementations use, are in docs/decisions/0806-ema-ranking.md.

- Base rank: 1000 for the first, 0 for the last, linear in the place among the ranked
  players (substitutes are not ranked and do not count in the field); tied players share
  the mean of the places they occupy.
- Base ranks are counted as the EMA publishes them: whole numbers, rounded down (decision
  0831; ``EmaConfig.base_rank_rounding``).
- Weight of a result: the tournament's MERS weight x the age factor of the result: 1 up to
  365 days old included, 1/2 up to 730, then out; days of the EMA's freeze do not age a
  result (``EmaConfig.freeze``, decision 0831).
- Part A: weighted average of the best 5 results plus 80 % (rounded up) of the others;
  Part B: weighted average of the best 4. Missing results (fewer than 5, fewer than 4)
  count 0 at weight 1. Score = 0.5 x A + 0.5 x B. At least 2 results to be listed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

BASE_MAX = 1000


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's final place in one tournament (ties: the same rank)."""

    player: int
    rank: int
    substitute: bool = False


def base_ranks(placings: Iterable[Placing]) -> dict[int, Fraction]:
    """Each ranked player's base rank: 1000 x (N - place) / (N - 1) among the N players who
    are not substitutes, places counted after removing substitutes; a tie shares the mean
    of the base ranks of the places it occupies. A field of one gets 1000."""
    ranked = sorted((p for p in placings if not p.substitute), key=lambda p: (p.rank, p.player))
    n = len(ranked)
    out: dict[int, Fraction] = {}
    place = 1
    i = 0
    while i < n:
        group = [p for p in ranked[i:] if p.rank == ranked[i].rank]
        first, last = place, place + len(group) - 1
        if n == 1:
            value = Fraction(BASE_MAX)
        else:
            # mean of 1000 (n - p) / (n - 1) over p = first..last = value at the mean place
            mean_place = Fraction(first + last, 2)
            value = BASE_MAX * (n - mean_place) / (n - 1)
        for p in group:
            out[p.player] = value
        place += len(group)
        i += len(group)
    return out


@dataclass(frozen=True, slots=True)
class AgeStep:
    """Results younger than `days` days on the ranking's date count with `factor`."""

    days: int
    factor: Fraction


#: how a base rank is published and counted (decision 0831): "down" to the whole number
#: below (the EMA's own example: 75th of 100 -> 252), "half-up" to the nearest whole number,
#: "exact" (a fraction, not rounded)
BASE_RANK_ROUNDINGS = ("down", "half-up", "exact")


@dataclass(frozen=True, slots=True)
class Freeze:
    """Days on which results do not age (the EMA's COVID freeze): from `start` included to
    `end` excluded."""

    start: date
    end: date


@dataclass(frozen=True, slots=True)
class EmaConfig:
    best_a: int = 5
    rest_share: Fraction = Fraction(4, 5)
    best_b: int = 4
    min_results: int = 2
    age_steps: tuple[AgeStep, ...] = (
        AgeStep(365, Fraction(1)),
        AgeStep(730, Fraction(1, 2)),
    )
    base_rank_rounding: str = "down"
    freeze: Freeze | None = None


def age_factor(age_days: int, config: EmaConfig) -> Fraction | None:
    """The factor of a result `age_days` old; None once it is out of the time window. A step
    of 365 days takes results up to 365 days old included: a result is "over one year old"
    from its 366th day (decision 0831)."""
    if age_days < 0:
        return None
    for step in config.age_steps:
        if age_days <= step.days:
            return step.factor
    return None


def age_days(end_date: date, on: date, config: EmaConfig) -> int:
    """Days from a tournament's last day to the ranking's date: the days after its last day
    up to the ranking's date included, the frozen ones left out (on the freeze's first day
    a result is as old as the day before)."""
    days = (on - end_date).days
    freeze = config.freeze
    if freeze is not None:
        first = max(end_date + timedelta(days=1), freeze.start)
        after = min(on + timedelta(days=1), freeze.end)
        days -= max(0, (after - first).days)
    return days


def window_start(on: date, config: EmaConfig) -> date:
    """A date before which no tournament can count on `on` (the longest step, lengthened by
    the whole freeze when there is one): the selector's bound, `age_factor` decides."""
    longest = max((s.days for s in config.age_steps), default=0)
    frozen = (config.freeze.end - config.freeze.start).days if config.freeze else 0
    return on - timedelta(days=longest + frozen + 1)


def published_base_rank(value: Fraction, config: EmaConfig) -> Fraction:
    """A base rank as the EMA publishes and counts it (`config.base_rank_rounding`)."""
    if config.base_rank_rounding == "down":
        return Fraction(math.floor(value))
    if config.base_rank_rounding == "half-up":
        return Fraction(math.floor(value + Fraction(1, 2)))
    return value


@dataclass(frozen=True, slots=True)
class Result:
    """One tournament result of a player."""

    tournament: int
    end_date: date
    base_rank: Fraction
    mers_weight: Fraction


@dataclass(frozen=True, slots=True)
class Counted:
    """A result as the calculation uses it; `tournament` None: a missing result (0 at
    weight 1)."""

    tournament: int | None
    end_date: date | None
    base_rank: Fraction
    mers_weight: Fraction
    age_days: int | None
    age_factor: Fraction
    in_a: bool
    in_b: bool

    @property
    def weight(self) -> Fraction:
        return self.mers_weight * self.age_factor


@dataclass(frozen=True, slots=True)
class PlayerScore:
    player: int
    results: tuple[Counted, ...]
    """The results in the window, best first, then the missing results."""
    tournaments: int
    part_a: Fraction
    part_b: Fraction
    score: Fraction
    listed: bool
    count_a: int = field(default=0)
    count_b: int = field(default=0)


def part_a_count(results: int, config: EmaConfig) -> int:
    """How many results part A averages: the best 5, plus 80 % of the others rounded up."""
    rest = max(0, results - config.best_a)
    return config.best_a + math.ceil(config.rest_share * rest)


def _average(items: Sequence[Counted]) -> Fraction:
    total = sum((c.weight for c in items), Fraction(0))
    if total == 0:
        return Fraction(0)
    return sum((c.base_rank * c.weight for c in items), Fraction(0)) / total


def player_score(
    player: int, results: Iterable[Result], on: date, config: EmaConfig = EmaConfig()
) -> PlayerScore:
    """A player's EMA score on `on` from their results (those after `on` or out of the
    window are left out)."""
    window: list[Counted] = []
    for r in results:
        age = age_days(r.end_date, on, config)
        factor = age_factor(age, config) if r.end_date <= on else None
        if factor is None:
            continue
        window.append(Counted(r.tournament, r.end_date, published_base_rank(r.base_rank, config),
                              r.mers_weight, age, factor, False, False))
    # best first: higher base rank, then heavier, then newer
    window.sort(key=lambda c: (-c.base_rank, -c.weight, c.age_days or 0, c.tournament or 0))
    n = len(window)
    count_a = part_a_count(n, config)
    count_b = config.best_b
    missing = max(0, count_a - n, count_b - n)
    fillers = [Counted(None, None, Fraction(0), Fraction(1), None, Fraction(1), False, False)
               for _ in range(missing)]
    every = window + fillers
    marked = tuple(
        Counted(c.tournament, c.end_date, c.base_rank, c.mers_weight, c.age_days,
                c.age_factor, i < count_a, i < count_b)
        for i, c in enumerate(every)
    )
    part_a = _average([c for c in marked if c.in_a])
    part_b = _average([c for c in marked if c.in_b])
    score = (part_a + part_b) / 2
    return PlayerScore(
        player=player, results=marked, tournaments=n, part_a=part_a, part_b=part_b,
        score=score, listed=n >= config.min_results, count_a=count_a, count_b=count_b,
    )


@dataclass(frozen=True, slots=True)
class RankedPlayer:
    rank: int
    score: PlayerScore


def rounded(value: Fraction, places: int = 2) -> Decimal:
    """A published figure: `value` rounded half up to `places` decimals."""
    quantum = Decimal(1).scaleb(-places)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )


def ranking(
    results: Mapping[int, Iterable[Result]], on: date, config: EmaConfig = EmaConfig()
) -> list[RankedPlayer]:
    """The listed players (at least `min_results` results in the window), best score first;
    equal published scores share a rank (1, 2, 2, 4), then by player id."""
    scores = [player_score(p, rs, on, config) for p, rs in results.items()]
    listed = sorted(
        (s for s in scores if s.listed), key=lambda s: (-rounded(s.score), s.player)
    )
    out: list[RankedPlayer] = []
    for i, s in enumerate(listed):
        tied = i > 0 and rounded(s.score) == rounded(listed[i - 1].score)
        rank = out[-1].rank if tied else i + 1
        out.append(RankedPlayer(rank, s))
    return out


#: the country ranking: the mean of a country's best 3 scores, missing ones counting 0
#: (decision 0832)
COUNTRY_BEST = 3


@dataclass(frozen=True, slots=True)
class CountryScore:
    rank: int
    country: str
    score: Decimal
    """The published figure: the mean of the best published scores, 2 decimals."""
    players: tuple[int, ...]
    """The players counted, best first."""


def country_ranking(
    rows: Iterable[tuple[int, str, Decimal]], best: int = COUNTRY_BEST
) -> list[CountryScore]:
    """The countries of the listed players (``(player, country, published score)``, a
    player without a country left out), each scored by the mean of its `best` best
    published scores, a missing player counting 0, rounded half up to 2 decimals; best
    first, equal scores share a rank (1, 2, 2, 4), then by country code."""
    by_country: dict[str, list[tuple[Decimal, int]]] = {}
    for player, country, score in rows:
        if country:
            by_country.setdefault(country, []).append((score, player))
    scored = []
    for country, players in by_country.items():
        top = sorted(players, key=lambda sp: (-sp[0], sp[1]))[:best]
        total = sum((Fraction(str(s)) for s, _p in top), Fraction(0))
        scored.append((rounded(total / best), country, tuple(p for _s, p in top)))
    scored.sort(key=lambda s: (-s[0], s[1]))
    out: list[CountryScore] = []
    for i, (score, country, players_) in enumerate(scored):
        rank = out[-1].rank if i and out[-1].score == score else i + 1
        out.append(CountryScore(rank, country, score, players_))
    return out
