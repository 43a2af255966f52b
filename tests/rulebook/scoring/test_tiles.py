"""Tiles, notation and the keyboard encoding of the seed's worked examples."""

import pytest

from rulebook.scoring.errors import (
    E_MALFORMED_MELD,
    E_TOO_MANY_COPIES,
    E_UNKNOWN_TILE,
    E_WRONG_TILE_COUNT,
    NotationError,
)
from rulebook.scoring.hand import Meld, parse_hand
from rulebook.scoring.tiles import (
    JOKER,
    decode_keyboard,
    format_tiles,
    keyboard_to_notation,
    parse_tile,
    parse_tiles,
    tile_name,
)


def test_every_tile_name_round_trips() -> None:
    for t in range(43):
        assert parse_tile(tile_name(t)) == t


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", [0, 1, 2]),
        ("9p", [17]),
        ("19s", [18, 26]),
        ("ESWNCFP", [27, 28, 29, 30, 31, 32, 33]),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33]),
        ("f1 f4 s1s4", [34, 37, 38, 41]),
        ("123s1p", [18, 19, 20, 9]),
        ("J", [JOKER]),
    ],
)
def test_parse_tiles(text: str, expected: list[int]) -> None:
    assert parse_tiles(text) == expected


@pytest.mark.parametrize(
    ("text", "position"), [("12x", 2), ("12", 0), ("m", 0), ("8z", 0), ("11mq", 3)]
)
def test_unknown_tiles_have_a_position(text: str, position: int) -> None:
    with pytest.raises(NotationError) as err:
        parse_tiles(text)
    assert err.value.code == E_UNKNOWN_TILE
    assert err.value.position == position


def test_format_groups_suits() -> None:
    assert format_tiles([27, 0, 1, 2, 9, 18]) == "123m1p1sE"


def test_parse_hand_melds_and_winning_tile() -> None:
    hand = parse_hand("[123m,2][999s,3][EEEE][PPPP,6]5p5p f2 s3")
    assert hand.melds == (
        Meld("chow", 0, claimed=2),
        Meld("pung", 26, claimed=3),
        Meld("kong", 27, concealed=True),
        Meld("kong", 33, claimed=2, promoted=True),
    )
    assert hand.concealed == (13,)
    assert hand.win_tile == 13
    assert hand.bonus == (35, 40)
    assert parse_hand(hand.notation()) == hand


def test_winning_tile_is_the_last_concealed_tile() -> None:
    hand = parse_hand("123m456p789s1122s3s")
    assert hand.win_tile == 20
    assert len(hand.concealed) == 13


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("123m456p789s112s", E_WRONG_TILE_COUNT, 16),
        ("123m456p789s111222s", E_WRONG_TILE_COUNT, 17),
        ("11111m456p789s11s", E_TOO_MANY_COPIES, 4),
        ("[123m][456m][789m][123p][456p]1p", E_WRONG_TILE_COUNT, 24),
        ("[1111m]1m23m456p789s11s", E_TOO_MANY_COPIES, 7),
        ("[124m]456p789s11s123m", E_MALFORMED_MELD, 1),
        ("[123m,4]456p789s11s123m", E_MALFORMED_MELD, 6),
        ("[EEEE,4]456p789s11s123m", E_MALFORMED_MELD, 6),
        ("[123m456p789s11s123m", E_MALFORMED_MELD, 0),
        ("123m]456p789s11s123m", E_MALFORMED_MELD, 4),
        ("123m[456p]789s11s123m", E_MALFORMED_MELD, 4),
        ("123m456p789s11s12x", E_UNKNOWN_TILE, 17),
    ],
)
def test_bad_hands_get_a_code_and_position(text: str, code: str, position: int) -> None:
    with pytest.raises(NotationError) as err:
        parse_hand(text)
    assert (err.value.code, err.value.position) == (code, position)


def test_joker_is_representable_but_can_be_refused() -> None:
    assert parse_hand("123m456p789s111sJ1s").concealed[-1] == JOKER
    with pytest.raises(NotationError) as err:
        parse_hand("123m456p789s111sJ1s", allow_joker=False)
    assert err.value.code == "joker_not_allowed"


def test_keyboard_decoding_marks_claimed_tiles() -> None:
    groups = decode_keyboard("wwWw Fgh ,<,")
    assert [[kt.tile for kt in g] for g in groups] == [[1, 1, 1, 1], [12, 13, 14], [25, 25, 25]]
    assert [kt.claimed for kt in groups[0]] == [False, False, True, False]
    assert groups[2][1].claimed


def test_keyboard_honours() -> None:
    assert [kt.tile for kt in decode_keyboard("1234567")[0]] == [27, 28, 29, 30, 33, 32, 31]


def test_keyboard_to_notation() -> None:
    assert keyboard_to_notation("wwWw Fgh Yui ,<, tt") == (
        "[2222m,1][456p,1][678m,1][888s,2]5m5m"
    )
    assert keyboard_to_notation("zzzz 1111 222 ui o ii") == "[1111s][EEEE]7888mSSS9m"
    assert keyboard_to_notation("qqqwertyuiooo o") == "1112345678999m9m"
