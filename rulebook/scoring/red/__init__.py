"""Red Mahjong scoring (seed 003): ``score()`` for the rules registry."""

from __future__ import annotations

from typing import Any

from rulebook.scoring.hand import Hand
from rulebook.scoring.result import ScoreResult, ruleset_result

RULES = "red"


def score(hand: str | Hand, **context: Any) -> ScoreResult:
    """Score one Red Mahjong hand. Never raises for bad input: the result carries the error."""
    from rulebook.scoring.red.evaluate import score_red

    text = hand if isinstance(hand, str) else hand.notation()
    return ruleset_result(text, RULES, lambda: score_red(hand, raise_shortfall=False, **context))


__all__ = ["score"]
