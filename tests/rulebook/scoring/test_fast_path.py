"""The fast path of ``score()`` (``mcr/fast.py``) gives exactly the full path's result."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulebook.scoring import score
from rulebook.scoring.entry import score_mcr_full
from rulebook.scoring.generate import random_hands
from rulebook.scoring.mcr.fast import score_fast


def _same(fast: Any, full: Any) -> bool:
    return bool(fast == full and repr(fast) == repr(full) and fast.to_dict() == full.to_dict())


@pytest.mark.parametrize("seed", [11, 12])
def test_fast_path_equals_full_path_on_generated_hands(seed: int) -> None:
    used = 0
    for g in random_hands(2500, seed):
        fast = score_fast(g.text, g.context)
        full = score_mcr_full(g.text, **g.context)
        if fast is not None:
            used += 1
            assert _same(fast, full), (g.text, g.context)
        assert _same(score(g.text, **g.context), full), (g.text, g.context)
    assert used > 2000  # the generated hands are the common case


def test_fast_path_leaves_unusual_calls_to_the_full_path() -> None:
    text = "123m456p789s123sEE"
    fallbacks: list[dict[str, Any]] = [
        {"claimed_from": "left"}, {"seat": 1}, {"prevalent": "s"}, {"flowers": ["f1"]},
        {"flowers": True}, {"flowers": 9}, {"self_drawn": 1}, {"from": "up"},
        {"self_drawn": True, "from": "left"}, {"kong_replacement": True},
        {"robbing_kong": True, "self_drawn": True}, {"bogus": True}, {"seat": ["E"]},
    ]
    for context in fallbacks:
        assert score_fast(text, context) is None, context
        assert _same(score(text, **context), score_mcr_full(text, **context))
    for other in ("123m456p789s123sEE f1", "123m456p789s123sE", "123m456p789s123sEJ", "", "[1m]"):
        assert score_fast(other, {}) is None, other
    assert score_fast(text, {"from": "left", "seat": "S"}) is not None


def test_mutated_hands_agree() -> None:
    rng = random.Random(5)
    for g in random_hands(600, 13):
        text = g.text
        pos = rng.randrange(len(text))
        mutated = text[:pos] + rng.choice("123456789mpsESWNCFP[],") + text[pos + 1 :]
        full = score_mcr_full(mutated, **g.context)
        assert _same(score(mutated, **g.context), full), mutated
        fast = score_fast(mutated, g.context)
        assert fast is None or _same(fast, full), mutated


@pytest.mark.parametrize("text", [
    "[111m,1]11m234567p999s",  # a winning shape, but with a fifth 1m (meld + pair)
    "[1111m,2]1m23456p789s99s",  # a kong and a fifth copy among the standing tiles
    "11111m234567p99s5s",  # five copies among the standing tiles alone
    "[111m,1][111m,2]123p456p99s",  # two pungs of the same tile
])
def test_a_fifth_copy_is_the_full_paths_notation_error(text: str) -> None:
    """The fast path leaves the fifth-copy test to the evaluator; the result must still
    be the parser's error, with its position."""
    full = score_mcr_full(text)
    assert full.error is not None and full.error.code == "too_many_copies"
    assert score_fast(text, {}) is None
    assert _same(score(text), full)
