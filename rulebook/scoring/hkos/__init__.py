"""Hong Kong Old Style scoring (seed 001): ``score()`` for the rules registry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulebook.scoring.hand import Hand
from rulebook.scoring.result import ScoreResult, ruleset_result

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
    from rulebook.scoring.hkos.evaluate import HkosResult, score_hkos

    def doublings(r: HkosResult) -> dict[str, Any]:
        return {"doublings": r.doublings}

    text = hand if isinstance(hand, str) else hand.notation()
    return ruleset_result(
        text, RULES, lambda: score_hkos(hand, raise_shortfall=False, **context),
        HkosScoreResult, doublings,
    )


__all__ = ["HkosScoreResult", "score"]
