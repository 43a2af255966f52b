"""The Red Mahjong fan table and payments for 2, 3 and 4 players (seed 003)."""

import pytest

from rulebook.scoring.red.payments import false_win_penalty, opponents, payments
from rulebook.scoring.red.table import FANS, FANS_BY_ID, cap_points


def test_table_has_eighteen_fans():
    assert [f.id for f in FANS] == [str(i) for i in range(1, 19)]


@pytest.mark.parametrize(
    ("fan", "value"),
    [("1", 3), ("7", 3), ("8", 12), ("11", 12), ("13", 16), ("14", 24), ("16", 32),
     ("17", 64), ("18", 64)],
)
def test_fan_values(fan, value):
    assert FANS_BY_ID[fan].points == value


def test_cap_is_300():
    assert cap_points(299) == 299
    assert cap_points(300) == 300
    assert cap_points(412) == 300


def test_seats_by_player_count():
    assert opponents(4, "E") == {"left": "N", "opposite": "W", "right": "S"}
    assert opponents(3, "E") == {"opposite": "W", "right": "S"}
    assert opponents(3, "S") == {"left": "E", "right": "W"}
    assert opponents(3, "W") == {"left": "S", "opposite": "E"}
    assert opponents(2, "E") == {"opposite": "W"}
    assert opponents(2, "W") == {"opposite": "E"}
    with pytest.raises(ValueError):
        opponents(3, "N")
    with pytest.raises(ValueError):
        opponents(5, "E")


def test_four_players():
    # L695-698, L702-703: single value on a discard, triple when self-drawn.
    assert payments(20, players=4, self_drawn=False, discarder="left") == {
        "self": 20, "left": -20, "opposite": 0, "right": 0,
    }
    assert payments(20, players=4, self_drawn=True) == {
        "self": 60, "left": -20, "opposite": -20, "right": -20,
    }


def test_three_players():
    # L700: double value when self-drawn.
    assert payments(15, players=3, self_drawn=True) == {
        "self": 30, "opposite": -15, "right": -15,
    }
    assert payments(15, players=3, seat="S", self_drawn=False, discarder="left") == {
        "self": 15, "left": -15, "right": 0,
    }
    with pytest.raises(ValueError):
        payments(15, players=3, seat="E", self_drawn=False, discarder="left")


def test_two_players():
    # L701: always the single value.
    assert payments(12, players=2, self_drawn=True) == {"self": 12, "opposite": -12}
    assert payments(12, players=2, self_drawn=False, discarder="opposite") == {
        "self": 12, "opposite": -12,
    }


def test_false_win_penalty():
    # L596: 9 to every other player.
    assert false_win_penalty(4) == {"self": -27, "left": 9, "opposite": 9, "right": 9}
    assert false_win_penalty(3) == {"self": -18, "opposite": 9, "right": 9}
    assert false_win_penalty(2) == {"self": -9, "opposite": 9}
