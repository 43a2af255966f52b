"""Property tests (hypothesis): no exceptions, zero-sum payments, suit symmetry."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook.scoring import score
from rulebook.scoring.generate import random_hand
from rulebook.scoring.hand import Hand, Meld

NOTATION_CHARS = "123456789mpszESWNCFPJf[],0 "


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=NOTATION_CHARS, max_size=40))
def test_any_text_gives_a_result_or_a_coded_error(text: str) -> None:
    result = score(text)
    assert result.ok or (result.error is not None and result.error.code)
    if result.error is not None and result.error.position is not None:
        assert 0 <= result.error.position <= len(text)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**32),
    st.dictionaries(
        st.sampled_from(["self_drawn", "last_tile", "last_of_kind", "kong_replacement",
                         "robbing_kong", "from", "seat", "flowers", "bogus"]),
        st.one_of(st.booleans(), st.integers(-2, 10), st.sampled_from(["left", "E", "x"])),
        max_size=4,
    ),
)
def test_any_context_gives_a_result_or_a_coded_error(seed: int, context: dict) -> None:  # type: ignore[type-arg]
    g = random_hand(random.Random(seed))
    result = score(g.text, **context)
    assert result.ok or (result.error is not None and result.error.code)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_payments_sum_to_zero(seed: int) -> None:
    g = random_hand(random.Random(seed))
    result = score(g.text, **g.context)
    if result.ok:
        assert result.payments is not None
        assert sum(result.payments.values()) == 0
        if g.context.get("self_drawn"):
            assert result.payments["self"] == 3 * (8 + result.total)
        else:
            assert result.payments[g.context["from"]] == -(8 + result.total)


def _swap(hand: Hand, perm: tuple[int, int, int]) -> Hand:
    def t(x: int) -> int:
        return perm[x // 9] * 9 + x % 9 if x < 27 else x

    melds = tuple(
        Meld(m.kind, t(m.tile), m.concealed, m.claimed, m.promoted) for m in hand.melds
    )
    return Hand(melds, tuple(t(x) for x in hand.concealed), t(hand.win_tile), hand.bonus)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.permutations([0, 1, 2]))
def test_swapping_suits_keeps_the_total(seed: int, perm: list[int]) -> None:
    g = random_hand(random.Random(seed))
    a = score(g.hand, **g.context)
    b = score(_swap(g.hand, (perm[0], perm[1], perm[2])), **g.context)
    # All Green (bamboo) and Reversible Tiles (dots, bamboo) name particular suits
    suit_bound = {"3", "40"} & ({f.id for f in a.fans} | {f.id for f in b.fans})
    if not suit_bound:
        assert a.total == b.total, g.text
