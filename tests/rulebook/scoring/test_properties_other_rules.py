"""Property tests for HKOS and Red Mahjong: any input ends in a result or a coded error."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook.scoring import score
from rulebook.scoring.generate import random_hand

NOTATION_CHARS = "123456789mpsESWNCFPJfs[],0 "
OPTIONS = st.lists(
    st.sampled_from(["jokers", "additional", "fan31", "min_doublings=3", "min_points=8", "bogus"]),
    max_size=2,
)


@pytest.mark.parametrize("rules", ["hkos", "red"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet=NOTATION_CHARS, max_size=40), options=OPTIONS)
def test_any_text_gives_a_result_or_a_coded_error(rules: str, text: str, options: list[str]) -> None:
    result = score(text, rules=rules, options=options)
    assert result.ok or (result.error is not None and result.error.code)
    if result.error is not None and result.error.position is not None:
        assert 0 <= result.error.position <= len(text)


@pytest.mark.parametrize("rules", ["hkos", "red"])
@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.sampled_from([2, 3, 4, 5]),
    liable=st.sampled_from([None, "left", "opposite", "right", "nobody"]),
)
def test_generated_hands_score_or_fail_with_a_code_and_payments_balance(
    rules: str, seed: int, players: int, liable: str | None
) -> None:
    generated = random_hand(random.Random(seed))
    context = dict(generated.context)
    if rules == "red":
        context["players"] = players
    if liable is not None:
        context["liable"] = liable
    result = score(generated.text, rules=rules, **context)
    assert result.ok or (result.error is not None and result.error.code)
    if result.ok and result.payments is not None:
        assert sum(result.payments.values()) == 0
