"""The federation's qualification list for a championship, PURE (decision 0842): the
candidates in the order of the officer's rule, the first `seats` qualified, the next
`reserves` reserves in order.

- By EMA rank or by national rating: the order of that list (its rank, then player id).
- By a series of tournaments: each place earns the points the officer set for it (1st,
  2nd, ...; further down none); a player's points are the sum over the series. Order:
  more points, then the better best place, then more tournaments played, then player id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


class PointsInvalid(ValueError):
    """The points per place are not whole numbers >= 0 separated by commas."""


def parse_points(text: str) -> tuple[int, ...]:
    """ "10, 8, 6" -> (10, 8, 6) (a Chinese comma ， or 、 separates too); empty -> ();
    anything else: PointsInvalid."""
    parts = [p.strip() for p in re.split(r"[,，、]", text or "")]
    if parts == [""]:
        return ()
    if not all(re.fullmatch(r"[0-9]{1,6}", p) for p in parts):
        raise PointsInvalid(text)
    return tuple(int(p) for p in parts)


@dataclass(frozen=True, slots=True)
class SeriesScore:
    player: int
    points: int
    best_place: int
    tournaments: int


def series_scores(places: Mapping[int, Iterable[tuple[int, int]]],
                  points: Sequence[int]) -> list[SeriesScore]:
    """`places`: tournament -> (player, place) pairs. Every player with a place, best
    first."""
    total: dict[int, int] = {}
    best: dict[int, int] = {}
    played: dict[int, int] = {}
    for rows in places.values():
        for player, place in rows:
            earned = points[place - 1] if 1 <= place <= len(points) else 0
            total[player] = total.get(player, 0) + earned
            best[player] = min(best.get(player, place), place)
            played[player] = played.get(player, 0) + 1
    scores = [SeriesScore(p, total[p], best[p], played[p]) for p in total]
    scores.sort(key=lambda s: (-s.points, s.best_place, -s.tournaments, s.player))
    return scores


@dataclass(frozen=True, slots=True)
class Line:
    position: int
    player: int
    status: str
    """"qualified", "reserve" or "" (neither)."""


QUALIFIED = "qualified"
RESERVE = "reserve"


def qualification(ordered: Sequence[int], seats: int, reserves: int) -> list[Line]:
    """The candidates (player ids, best first) with their status; the list stops after the
    last reserve."""
    out = []
    for i, player in enumerate(ordered[:seats + reserves], start=1):
        out.append(Line(i, player, QUALIFIED if i <= seats else RESERVE))
    return out
