"""Red Mahjong scoring (seed 003): ``score()`` for the rules registry."""

from __future__ import annotations

from typing import Any

from rulebook.scoring.hand import Hand
from rulebook.scoring.result import FanScore, ScoreError, ScoreResult
from rulebook.scoring.tiles import E_NOT_ENOUGH_POINTS, NotationError

RULES = "red"


def score(hand: str | Hand, **context: Any) -> ScoreResult:
    """Score one Red Mahjong hand. Never raises for bad input: the result carries the error."""
    from rulebook.scoring.red.evaluate import score_red

    text = hand if isinstance(hand, str) else hand.notation()
    try:
        r = score_red(hand, raise_shortfall=False, **context)
    except NotationError as err:
        return ScoreResult(
            hand=text, rules=RULES, ok=False, total=0,
            error=ScoreError(err.code, err.message, err.position),
        )
    fans = tuple(FanScore(f.id, f.points, f.count, f.sets) for f in r.fans)
    error = ScoreError(E_NOT_ENOUGH_POINTS, r.shortfall, None) if r.shortfall else None
    return ScoreResult(
        hand=text, rules=RULES, ok=error is None, total=r.total, fans=fans,
        payments=r.payments, error=error,
    )


__all__ = ["score"]
