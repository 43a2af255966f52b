"""The EMA's quotas for its championships, PURE (decision 0841): how many of a
championship's EMA seats each member country gets, from the countries' players in the EMA
ranking. The EMA's published rules ("Basics for EMA Quotas", mahjong-europe.org):

- Part A: A2 one seat for every EMA country; A3 one more for every country with a player
  above the threshold (700); A1 one more for each of the 3 best countries of the country
  ranking. Given in that order while seats remain.
- Part B: the seats left are shared by B3 = (B1 + B2) / 2, B1 the country's share of the
  ranked players, B2 its share of the players above the threshold, one seat at a time
  (EMA General Assembly 2019): seat n goes to the country furthest below n x B3 (ties: the
  better country).
- Limit: a country gets no more seats than it has players above the ranking's average
  (at least 1).
- Redistribution: seats a limit took back go one at a time down the country ranking to
  the countries still below their limit.

Exact arithmetic (``Fraction``); the order of ``countries`` is the country ranking's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

THRESHOLD = Fraction(700)
TOP_COUNTRIES = 3


@dataclass(frozen=True, slots=True)
class CountryPlayers:
    """A member country and the EMA scores of its ranked players."""

    country: str
    scores: tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class Quota:
    country: str
    players: int
    over_threshold: int
    above_average: int
    share: Fraction
    """B3: (share of the ranked players + share of those above the threshold) / 2."""
    part_a: int
    part_b: int
    cap: int
    seats: int


@dataclass(frozen=True, slots=True)
class Quotas:
    total: int
    average: Fraction
    rows: tuple[Quota, ...]
    unallocated: int
    """Seats no country could take (every country at its limit)."""


def quotas(total: int, countries: Sequence[CountryPlayers], *,
           threshold: Fraction = THRESHOLD, top: int = TOP_COUNTRIES) -> Quotas:
    """The seats of each country (``countries`` in the country ranking's order)."""
    everyone = [s for c in countries for s in c.scores]
    average = sum(everyone, Fraction(0)) / len(everyone) if everyone else Fraction(0)
    players = [len(c.scores) for c in countries]
    over = [sum(1 for s in c.scores if s > threshold) for c in countries]
    above = [sum(1 for s in c.scores if s > average) for c in countries]
    caps = [max(1, a) for a in above]
    all_players, all_over = sum(players), sum(over)
    shares = []
    for n, o in zip(players, over, strict=True):
        b1 = Fraction(n, all_players) if all_players else Fraction(0)
        b2 = Fraction(o, all_over) if all_over else Fraction(0)
        shares.append((b1 + b2) / 2)
    weight = sum(shares, Fraction(0))
    if weight:  # nobody above the threshold: B1 alone (the shares always sum to 1)
        shares = [s / weight for s in shares]

    remaining = total
    part_a = [0] * len(countries)

    def give(i: int) -> None:
        nonlocal remaining
        if remaining > 0:
            part_a[i] += 1
            remaining -= 1

    for i in range(len(countries)):  # A2: every country
        give(i)
    for i in range(len(countries)):  # A3: a player above the threshold
        if over[i]:
            give(i)
    for i in range(min(top, len(countries))):  # A1: the best countries
        give(i)

    part_b = [0] * len(countries)
    for n in range(1, remaining + 1):
        if not countries:
            break
        behind = [n * s - b for s, b in zip(shares, part_b, strict=True)]
        best = max(range(len(countries)), key=lambda i: (behind[i], -i))
        part_b[best] += 1
    remaining = 0 if countries else remaining

    seats = [a + b for a, b in zip(part_a, part_b, strict=True)]
    for i, cap in enumerate(caps):  # the limit
        if seats[i] > cap:
            remaining += seats[i] - cap
            seats[i] = cap
    while remaining:  # redistribution down the country ranking
        given = False
        for i in range(len(countries)):
            if remaining and seats[i] < caps[i]:
                seats[i] += 1
                remaining -= 1
                given = True
        if not given:
            break
    rows = tuple(
        Quota(c.country, players[i], over[i], above[i], shares[i],
              part_a[i], part_b[i], caps[i], seats[i])
        for i, c in enumerate(countries))
    return Quotas(total, average, rows, remaining)
