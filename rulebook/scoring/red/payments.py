"""Red Mahjong payments for 2, 3 or 4 players (pure functions on ints).

Lines refer to ``../shared/seeds/003_*.txt``:

* seats: four players sit East, South, West, North; three players East, South
  and West; two players East and West (lines 156-157). South sits on East's
  right (seed 001, line 153: seats follow the same layout);
* discard win: the discarder pays the hand, nobody else pays (line 702); the
  winner receives the single value (lines 695-698, 701);
* self-drawn: every loser pays the hand (line 703): the winner receives three
  times with four players, twice with three (line 700), once with two (line 701);
* false win: the offender pays 9 to each other player (line 596).

Payments are keyed by the winner's point of view: ``self`` and the relative
seats ``left``, ``opposite``, ``right`` that are occupied at the table.
"""

from __future__ import annotations

from rulebook.scoring.red.table import FALSE_WIN_PENALTY
from rulebook.scoring.standings import WINDS

RELATIVE: tuple[str, ...] = ("right", "opposite", "left")  # seat + 1, + 2, + 3
OCCUPIED: dict[int, tuple[str, ...]] = {
    4: WINDS,
    3: ("E", "S", "W"),
    2: ("E", "W"),
}


def seats_for(players: int) -> tuple[str, ...]:
    """The winds occupied by ``players`` players (lines 156-157)."""
    if players not in OCCUPIED:
        raise ValueError("Red Mahjong is played by 2, 3 or 4 players")
    return OCCUPIED[players]


def opponents(players: int, seat: str = "E") -> dict[str, str]:
    """Relative position -> wind of every other player at the table."""
    occupied = seats_for(players)
    if seat not in occupied:
        raise ValueError(f"with {players} players the seats are {', '.join(occupied)}")
    index = WINDS.index(seat)
    result: dict[str, str] = {}
    for step, name in enumerate(RELATIVE, start=1):
        wind = WINDS[(index + step) % 4]
        if wind in occupied:
            result[name] = wind
    # Keep the conventional order left, opposite, right.
    return {k: result[k] for k in ("left", "opposite", "right") if k in result}


def payments(
    points: int,
    *,
    players: int = 4,
    seat: str = "E",
    self_drawn: bool,
    discarder: str | None = None,
) -> dict[str, int]:
    """Who pays what for a hand worth ``points`` (already capped)."""
    if points < 0:
        raise ValueError("points must be >= 0")
    others = opponents(players, seat)
    if self_drawn and discarder is not None:
        raise ValueError("a self-drawn win has no discarder")
    if not self_drawn:
        if discarder is None:
            raise ValueError("a discard win needs the discarder")
        if discarder not in others:
            raise ValueError(
                f"nobody sits {discarder} of {seat} with {players} players"
            )
    pay = dict.fromkeys(others, 0)
    if self_drawn:
        pay = dict.fromkeys(others, points)
    else:
        assert discarder is not None
        pay[discarder] = points
    result = {"self": sum(pay.values())}
    result.update({pos: -amount for pos, amount in pay.items()})
    return result


def false_win_penalty(players: int = 4, seat: str = "E") -> dict[str, int]:
    """The offender (``self``) pays 9 to every other player (line 596)."""
    others = opponents(players, seat)
    result = {"self": -FALSE_WIN_PENALTY * len(others)}
    result.update(dict.fromkeys(others, FALSE_WIN_PENALTY))
    return result
