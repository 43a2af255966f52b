"""What an MCR hand comes to, once evaluated: shared by the full path and the fast path.

- the win conditions that cannot go together (:func:`win_flags_conflict`);
- a hand that does not win (:func:`not_winning`);
- 3.9.1.1, the minimum of 8 points without flowers, and 3.9.1.3, the payments
  (``payments.hand_payments``), in :func:`outcome`.
"""

from __future__ import annotations

from .._construct import slots_constructor
from ..hand import Direction
from ..payments import hand_payments
from ..result import ScoreError, ScoreResult, not_enough_points
from .evaluate import Evaluation

RULES = "mcr"
NOT_WINNING = ScoreError.of("not_a_complete_hand")
_new_result = slots_constructor(ScoreResult)


def win_flags_conflict(*, self_drawn: bool, kong_replacement: bool, robbing_kong: bool) -> str:
    """Why these win conditions cannot go together: the reason of the error
    (:data:`~..errors.REASONS`), "" when they can."""
    if kong_replacement and not self_drawn:
        return "kong_replacement_not_self_drawn"
    if robbing_kong and self_drawn:
        return "robbing_kong_self_drawn"
    return ""


def not_winning(text: str) -> ScoreResult:
    return _new_result(text, RULES, False, 0, (), (), None, NOT_WINNING, None)


def outcome(
    text: str,
    ev: Evaluation,
    *,
    minimum: int,
    self_drawn: bool,
    discarder: Direction | None,
) -> ScoreResult:
    """The result of the evaluated hand ``text``: not enough points, or a win with what
    each seat pays (``None`` when the discarder is not known)."""
    base = ev.total_without_flowers
    if base < minimum:
        return _new_result(
            text, RULES, False, ev.total, ev.fans, ev.excluded, None,
            not_enough_points(base, minimum), None,
        )
    payments = hand_payments(ev.total, self_drawn=self_drawn, discarder=discarder)
    return _new_result(text, RULES, True, ev.total, ev.fans, ev.excluded, payments, None, None)
