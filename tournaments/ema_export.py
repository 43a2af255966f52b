"""PURE: a confirmed tournament's results as the EMA's results sheet (decision 0807): the
rows organizers send to the EMA, and the players who block the sending. No Django."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

HEADER: tuple[str, ...] = (
    "Place", "First name", "Last name", "EMA number", "Table points", "Score",
    "EMA member", "Country",
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's final standing, with what the EMA's sheet needs of the player."""

    player: int
    rank: int
    table_points: Fraction
    game_points: int
    first_name: str
    last_name: str
    ema_number: str
    country: str
    member: bool
    """A member of the federation (not a guest)."""
    substitute: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    place: int
    first_name: str
    last_name: str
    ema_number: str
    table_points: Decimal
    score: int
    ema_member: bool
    country: str

    def values(self) -> tuple[object, ...]:
        return (self.place, self.first_name, self.last_name, self.ema_number,
                self.table_points, self.score, "yes" if self.ema_member else "no",
                self.country)


def points(value: Fraction) -> Decimal:
    """Table points as the sheet shows them: exact when whole, else 2 decimals."""
    if value.denominator == 1:
        return Decimal(value.numerator)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


def ema_rows(standings: Iterable[Standing]) -> list[Row]:
    """The ranked players (substitutes are not ranked) by place; the place counts only
    ranked players ahead (ties share it). A player with an EMA number is an EMA member."""
    ranked = sorted((s for s in standings if not s.substitute), key=lambda s: (s.rank, s.player))
    rows = []
    for s in ranked:
        place = 1 + sum(1 for other in ranked if other.rank < s.rank)
        rows.append(Row(place, s.first_name, s.last_name, s.ema_number,
                        points(s.table_points), s.game_points, bool(s.ema_number), s.country))
    return rows


def players_to_fix(standings: Iterable[Standing], *, mers: bool) -> list[int]:
    """In a MERS tournament, the ranked members (not guests) without an EMA number: the
    sheet is refused until they have one."""
    if not mers:
        return []
    return [s.player for s in standings
            if not s.substitute and s.member and not s.ema_number]
