"""Payments (3.9.1.3) and penalties (3.11)."""

import pytest

from rulebook.scoring.payments import PenaltyError, hand_payments, penalty


def test_self_drawn_everyone_pays_eight_plus_points() -> None:
    assert hand_payments(27, self_drawn=True) == {
        "self": 105, "left": -35, "opposite": -35, "right": -35
    }


def test_discard_the_discarder_pays_points_others_eight() -> None:
    assert hand_payments(10, self_drawn=False, discarder="opposite") == {
        "self": 34, "left": -8, "opposite": -18, "right": -8
    }


def test_unknown_discarder_gives_no_payments() -> None:
    assert hand_payments(10, self_drawn=False) is None


def test_false_win_penalties_go_to_the_others() -> None:
    assert penalty("false_win_points") == {"self": -30, "left": 10, "opposite": 10, "right": 10}
    assert penalty("false_win_claim") == {"self": -60, "left": 20, "opposite": 20, "right": 20}
    assert sum(penalty("exposed_tiles").values()) == 0


def test_deductions_only() -> None:
    assert penalty("late", minutes_late=10) == {"self": -10}
    assert penalty("late", minutes_late=11) == {"self": -20}
    assert penalty("rule_violation", points=40) == {"self": -40}
    assert [penalty("repeated", occurrence=k)["self"] for k in (1, 2, 3, 4, 5)] == [
        0, -5, -10, -20, -40
    ]


def test_knocked_tiles_are_paid_to_the_owner() -> None:
    assert penalty("knocked_tiles", points=15, victim="right") == {"self": -15, "right": 15}


@pytest.mark.parametrize(
    ("kind", "kwargs", "code"),
    [
        ("late", {"minutes_late": 16}, "session_missed"),
        ("rule_violation", {"points": 7}, "bad_penalty"),
        ("knocked_tiles", {"points": 80, "victim": "left"}, "bad_penalty"),
    ],
)
def test_bad_penalties_are_coded(kind: str, kwargs: dict, code: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(PenaltyError) as err:
        penalty(kind, **kwargs)  # type: ignore[arg-type]
    assert err.value.code == code
