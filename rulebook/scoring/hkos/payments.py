"""Hong Kong Old Style payments (pure functions on ints).

Lines refer to ``../shared/seeds/001_*.txt``:

* discard win: the discarder pays double, the two others single; the winner
  receives four times the hand (lines 854-859, footnote 12);
* self-drawn: everyone pays double, the winner receives six times (lines 860-862,
  footnote 13);
* liability for feeding a big hand (lines 698-735, footnote 10): if the liable
  player fed the hand and it is won self-drawn or on the liable player's own
  discard, he pays everything (4x / 6x); if it is won on another player's discard,
  the discarder pays double and the liable player double, the fourth pays nothing;
* a new tile discarded with 5 or fewer tiles left in the live wall: the discarder
  pays everything, the others nothing (lines 739-741);
* false win: the offender pays 16 to each other player (line 695).

Payments are keyed by the winner's point of view: ``self`` (the winner) and the
relative seats ``left``, ``opposite`` and ``right``; a payment is negative.
"""

from __future__ import annotations

from rulebook.scoring.hkos.table import FALSE_WIN_PENALTY

SEATS: tuple[str, ...] = ("left", "opposite", "right")


def _check_seat(name: str, value: str | None) -> None:
    if value is not None and value not in SEATS:
        raise ValueError(f"{name} must be one of {', '.join(SEATS)}, not {value!r}")


def payments(
    points: int,
    *,
    self_drawn: bool,
    discarder: str | None = None,
    liable: str | None = None,
    late_discard: bool = False,
) -> dict[str, int]:
    """Who pays what for a hand worth ``points``.

    ``discarder`` is the relative seat that discarded the winning tile (``None``
    when self-drawn); ``liable`` the seat that fed a big hand (lines 698-722);
    ``late_discard`` marks a new tile discarded with at most 5 tiles left in the
    live wall (lines 739-741), which only makes sense on a discard win.
    """
    if points < 0:
        raise ValueError("points must be >= 0")
    _check_seat("discarder", discarder)
    _check_seat("liable", liable)
    if self_drawn and discarder is not None:
        raise ValueError("a self-drawn win has no discarder")
    if not self_drawn and discarder is None:
        raise ValueError("a discard win needs the discarder")
    if late_discard and self_drawn:
        raise ValueError("the late-wall discard rule needs a discard win")

    pay = dict.fromkeys(SEATS, 0)
    if self_drawn:
        if liable is not None:
            pay[liable] = 6 * points
        else:
            pay = dict.fromkeys(SEATS, 2 * points)
    else:
        assert discarder is not None
        if late_discard or liable == discarder:
            pay[discarder] = 4 * points
        elif liable is not None:
            pay[discarder] = 2 * points
            pay[liable] = 2 * points
        else:
            pay = dict.fromkeys(SEATS, points)
            pay[discarder] = 2 * points
    result = {"self": sum(pay.values())}
    result.update({seat: -amount for seat, amount in pay.items()})
    return result


def false_win_penalty(offender: str = "self") -> dict[str, int]:
    """Payments for a false win: the offender pays 16 to each other player (line 695).

    ``offender`` is ``self`` (the player whose hand was scored) or a relative seat.
    """
    if offender != "self":
        _check_seat("offender", offender)
    everyone = ("self", *SEATS)
    result = {seat: FALSE_WIN_PENALTY for seat in everyone}
    result[offender] = -FALSE_WIN_PENALTY * (len(everyone) - 1)
    return result
