"""The MERS weight of a tournament as played, by the EMA's table in force since 2018
(decision 0830): duration + players + countries + qualification.

| part          | +0      | +0.5      | +1       | +2     | +3      |
|---------------|---------|-----------|----------|--------|---------|
| duration      |         |           | 1 day    | 2 days | 3 days+ |
| players       | <= 40   | 41 to 80  | > 80     |        |         |
| countries     | <= 5    | 6 to 9    | >= 10    |        |         |
| qualification | no      |           | yes      |        |         |

Substitutes count among the players, at most 3. Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

#: substitutes counted among the players, at most
SUBSTITUTES_COUNTED = 3
PLAYERS_HALF, PLAYERS_ONE = 40, 80
"""More than 40 players: +0.5; more than 80: +1."""
COUNTRIES_HALF, COUNTRIES_ONE = 5, 10
"""More than 5 countries: +0.5; 10 or more: +1 (the EMA's current table)."""
MAX_DAYS = 3

HALF, ONE, ZERO = Decimal("0.5"), Decimal(1), Decimal(0)


@dataclass(frozen=True, slots=True)
class MersFacts:
    """What the weight is computed from."""

    days: int
    players: int
    """Players who played, substitutes left out."""
    substitutes: int
    countries: int
    """Distinct countries of the players."""
    qualification: bool


@dataclass(frozen=True, slots=True)
class MersWeight:
    duration: Decimal
    players: Decimal
    countries: Decimal
    qualification: Decimal
    players_counted: int
    """Players plus substitutes up to 3, as the players' part counts them."""

    @property
    def total(self) -> Decimal:
        return self.duration + self.players + self.countries + self.qualification


def mers_weight(facts: MersFacts) -> MersWeight:
    """The EMA's weight of a tournament with these facts."""
    days = min(max(facts.days, 1), MAX_DAYS)
    counted = facts.players + min(max(facts.substitutes, 0), SUBSTITUTES_COUNTED)
    if counted > PLAYERS_ONE:
        players = ONE
    elif counted > PLAYERS_HALF:
        players = HALF
    else:
        players = ZERO
    if facts.countries >= COUNTRIES_ONE:
        countries = ONE
    elif facts.countries > COUNTRIES_HALF:
        countries = HALF
    else:
        countries = ZERO
    return MersWeight(
        duration=Decimal(days), players=players, countries=countries,
        qualification=ONE if facts.qualification else ZERO, players_counted=counted,
    )
