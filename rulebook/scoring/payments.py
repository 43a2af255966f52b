"""MCR payments (3.9.1.3) and point penalties (3.11).

Seats are named relative to the winner (for a hand) or to the offender (for a penalty):
``self``, ``left``, ``opposite``, ``right``. Every mapping returned sums to zero, except
deductions that the rules take from one player without giving them to anyone (lateness,
rule violations, 3.11.2), which are returned as a negative amount for ``self`` only.
"""

from __future__ import annotations

from typing import Literal

from .hand import DIRECTIONS, Direction

BASE_POINTS = 8  # 3.9.1.2 (1): each loser pays the winner 8 points


def hand_payments(
    points: int, *, self_drawn: bool, discarder: Direction | None = None
) -> dict[str, int] | None:
    """What each seat gains (+) or pays (-) for a hand worth ``points`` (3.9.1.3).

    Self-drawn: each of the three pays 8 + points. On a discard: the discarder pays
    8 + points, the other two pay 8. ``None`` when the discarder is not known.
    """
    if self_drawn:
        each = BASE_POINTS + points
        return {"self": 3 * each, "left": -each, "opposite": -each, "right": -each}
    if discarder is None:
        return None
    out: dict[str, int] = {
        "self": 3 * BASE_POINTS,
        "left": -BASE_POINTS, "opposite": -BASE_POINTS, "right": -BASE_POINTS,
    }
    if discarder in DIRECTIONS:
        out["self"] += points
        out[discarder] = -(BASE_POINTS + points)
    return out


Penalty = Literal[
    "false_win_points",  # 3.11.6.6: declared Hu under 8 points: 10 to each other player
    "false_win_claim",  # 3.11.6.6: wrongly claimed a discard for Hu: 20 to each other player
    "exposed_tiles",  # 3.11.6.7: exposed all tiles after a false Hu: 30, shared by the others
    "knocked_tiles",  # 3.11.6.7: knocked over another player's tiles: 5-60 to that player
    "late",  # 3.11.2: 10 points (<= 10 min) or 20 (11-15 min), only deducted
    "rule_violation",  # 3.11.2: 5, 10, 20, 40, 50 or 60, only deducted
    "repeated",  # 3.11.6.3-5: empty claim, touching the wall, late pung: warning, 5, 10, 20..
]

VIOLATION_POINTS = (5, 10, 20, 40, 50, 60)


class PenaltyError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def penalty(
    kind: Penalty,
    *,
    points: int | None = None,
    minutes_late: int | None = None,
    occurrence: int = 1,
    victim: Direction | None = None,
) -> dict[str, int]:
    """Point changes of one penalty, relative to the offender (``self``).

    Returns a mapping seat -> points; a kind that is only deducted (3.11.2) gives
    ``{"self": -n}``. Raises :class:`PenaltyError` (code ``bad_penalty``) on bad arguments.
    """
    if kind == "false_win_points":
        return _to_each(10)
    if kind == "false_win_claim":
        return _to_each(20)
    if kind == "exposed_tiles":
        # "лишается 30 очков, которые затем присуждаются каждому из оставшихся игроков":
        # read as 30 in total, 10 to each (see docs/scoring/mcr.md, Errata).
        return _to_each(10)
    if kind == "knocked_tiles":
        if points is None or not 5 <= points <= 60:
            raise PenaltyError("bad_penalty", "knocked tiles cost 5 to 60 points")
        if victim is None:
            raise PenaltyError("bad_penalty", "knocked tiles are paid to their owner")
        return {"self": -points, victim: points}
    if kind == "late":
        if minutes_late is None or minutes_late <= 0:
            raise PenaltyError("bad_penalty", "minutes_late must be positive")
        if minutes_late > 15:
            raise PenaltyError(
                "session_missed", "more than 15 minutes late: the session is missed"
            )
        return {"self": -(10 if minutes_late <= 10 else 20)}
    if kind == "rule_violation":
        if points not in VIOLATION_POINTS:
            raise PenaltyError("bad_penalty", "a rule violation costs 5, 10, 20, 40, 50 or 60")
        return {"self": -points}
    if kind == "repeated":
        if occurrence < 1:
            raise PenaltyError("bad_penalty", "occurrence starts at 1")
        if occurrence == 1:
            return {"self": 0}  # a warning
        return {"self": -(5 * 2 ** (occurrence - 2))}
    raise PenaltyError("bad_penalty", f"unknown penalty {kind!r}")


def _to_each(n: int) -> dict[str, int]:
    return {"self": -3 * n, "left": n, "opposite": n, "right": n}
