"""The HKOS fan table, the fan-lak table and the payment rules (seed 001)."""

import pytest

from rulebook.scoring.hkos.payments import false_win_penalty, payments
from rulebook.scoring.hkos.table import FAN_LAK, FANS, FANS_BY_ID, doublings_to_points


def test_table_has_thirty_fans_and_eight_additional_hands():
    assert [f.id for f in FANS] == [str(i) for i in range(1, 39)]
    assert all(f.option is None for f in FANS[:30])
    assert all(f.option == f"fan{f.id}" for f in FANS[30:])


@pytest.mark.parametrize(
    ("fan", "value"),
    [("1", 1), ("4", 1), ("12", 2), ("13", 3), ("14", 3), ("15", 4), ("16", 6), ("17", 10),
     ("30", 10), ("31", 1), ("32", 1), ("33", 6), ("38", 10)],
)
def test_fan_values(fan, value):
    assert FANS_BY_ID[fan].doublings == value


def test_limit_hands_are_17_to_30_and_34_to_38():
    limits = {f.id for f in FANS if f.limit}
    assert limits == {str(i) for i in (*range(17, 31), *range(34, 39))}


def test_flower_fans_are_external():
    assert {f.id for f in FANS if f.external} == {"1", "2", "3"}


@pytest.mark.parametrize(
    ("doublings", "points"),
    [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 16), (6, 16), (7, 32), (8, 32), (9, 32),
     (10, 64), (11, 64), (25, 64)],
)
def test_fan_lak_table(doublings, points):
    # L1131-1146: not 2**n; 4-6 -> 16, 7-9 -> 32, capped at 10 -> 64.
    assert doublings_to_points(doublings) == points


def test_fan_lak_is_not_powers_of_two():
    assert FAN_LAK[5] != 2**5
    with pytest.raises(ValueError):
        doublings_to_points(-1)


def test_fan_lak_table_columns():
    # L1131-1143: the "on a discard" and "self-drawn" columns of the table.
    for doublings, discard, self_drawn in [
        (0, 4, None), (1, 8, 12), (2, 16, 24), (3, 32, 48), (5, 64, 96), (8, 128, 192),
        (10, 256, 384),
    ]:
        points = doublings_to_points(doublings)
        assert payments(points, self_drawn=False, discarder="left")["self"] == discard
        if self_drawn is not None:
            assert payments(points, self_drawn=True)["self"] == self_drawn


def test_footnote_13_self_drawn_one_doubling():
    # L886-887: 1 doubling = 2 points; every player pays 4, the winner gets 12.
    assert payments(doublings_to_points(1), self_drawn=True) == {
        "self": 12, "left": -4, "opposite": -4, "right": -4,
    }


def test_footnote_12_discard_payments():
    # L889-890 says 5 doublings = 32 points; the table (L1139) says 16: decision D1.
    assert payments(doublings_to_points(5), self_drawn=False, discarder="opposite") == {
        "self": 64, "left": -16, "opposite": -32, "right": -16,
    }
    # The footnote's payments (64 + 32 + 32 = 128) are those of a 32-point hand.
    assert payments(32, self_drawn=False, discarder="opposite") == {
        "self": 128, "left": -32, "opposite": -64, "right": -32,
    }


def test_footnote_10_liability_discard_by_third_player():
    # L729-735: Roman's hand is 6 doublings = 16 points; Sofia discards, Gennady is liable.
    points = doublings_to_points(6)
    assert points == 16
    result = payments(points, self_drawn=False, discarder="right", liable="left")
    assert result == {"self": 64, "left": -32, "opposite": 0, "right": -32}


def test_footnote_10_liability_self_drawn():
    # Self-drawn, 7 doublings = 32 points: Gennady pays 192 alone.
    points = doublings_to_points(7)
    result = payments(points, self_drawn=True, liable="opposite")
    assert result == {"self": 192, "left": 0, "opposite": -192, "right": 0}


def test_liable_player_discards_himself():
    # L701-703: won on the liable player's own discard, he pays four times.
    result = payments(16, self_drawn=False, discarder="left", liable="left")
    assert result == {"self": 64, "left": -64, "opposite": 0, "right": 0}


def test_late_dangerous_discard():
    # L739-741: with <= 5 tiles in the live wall, the discarder of a new tile pays all.
    result = payments(8, self_drawn=False, discarder="right", late_discard=True)
    assert result == {"self": 32, "left": 0, "opposite": 0, "right": -32}


def test_payment_input_errors():
    with pytest.raises(ValueError):
        payments(8, self_drawn=True, discarder="left")
    with pytest.raises(ValueError):
        payments(8, self_drawn=False)
    with pytest.raises(ValueError):
        payments(8, self_drawn=True, late_discard=True)
    with pytest.raises(ValueError):
        payments(8, self_drawn=False, discarder="north")


def test_false_win_penalty():
    # L695: 16 to each of the three others.
    assert false_win_penalty() == {"self": -48, "left": 16, "opposite": 16, "right": 16}
    assert false_win_penalty("left") == {"self": 16, "left": -48, "opposite": 16, "right": 16}
