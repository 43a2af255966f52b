"""Hong Kong Old Style scoring (seed 001): ``score()`` for the rules registry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulebook.scoring.hand import Hand
from rulebook.scoring.result import FanScore, ScoreError, ScoreResult
from rulebook.scoring.tiles import E_NOT_ENOUGH_POINTS, NotationError

RULES = "hkos"


@dataclass(frozen=True, slots=True)
class HkosScoreResult(ScoreResult):
    """The shared result plus the hand's doublings (before the cap of 10)."""

    doublings: int = 0

    def to_dict(self) -> dict[str, Any]:
        out = ScoreResult.to_dict(self)
        out["doublings"] = self.doublings
        return out


def score(hand: str | Hand, **context: Any) -> ScoreResult:
    """Score one HKOS hand. Never raises for bad input: the result carries the error."""
    from rulebook.scoring.hkos.evaluate import score_hkos

    text = hand if isinstance(hand, str) else hand.notation()
    try:
        r = score_hkos(hand, raise_shortfall=False, **context)
    except NotationError as err:
        return HkosScoreResult(
            hand=text, rules=RULES, ok=False, total=0,
            error=ScoreError(err.code, err.message, err.position),
        )
    fans = tuple(FanScore(f.id, f.points, f.count, f.sets) for f in r.fans)
    error = ScoreError(E_NOT_ENOUGH_POINTS, r.shortfall, None) if r.shortfall else None
    return HkosScoreResult(
        hand=text, rules=RULES, ok=error is None, total=r.total, fans=fans,
        payments=r.payments, error=error, doublings=r.doublings,
    )


__all__ = ["HkosScoreResult", "score"]
