"""Red Mahjong: a hand per fan, footnote 10, jokers, payments and errors (seed 003)."""

import pytest

from rulebook.scoring.errors import NotationError
from rulebook.scoring.hand import parse_hand
from rulebook.scoring.red.arrange import standard_splits
from rulebook.scoring.red.evaluate import score_red


def fans(result):
    return {f.id: f.count for f in result.fans}


def red(hand, **context):
    if not context.get("self_drawn"):
        context.setdefault("from_", "left")
    return score_red(hand, **context)


def test_footnote_10_pure_straight_counted_twice():
    # L687-690: two pure straights, a pure double chow, the special pair (+ what the
    # footnote leaves out: all chows, two terminal chows twice, full flush). Decision R1.
    r = red("123s123s456s789s8s8s")
    assert fans(r) == {"2": 1, "5": 2, "7": 1, "9": 1, "10": 2, "18": 1}
    assert r.total == 12 + 12 + 12 + 3 + 3 + 6 + 64 == 112


def test_flowers_three_points_each():
    assert fans(red("[222m,1][222p,1]456s789sEE", flowers=2)) == {"1": 2, "4": 1}
    assert fans(red("[222m,1][222p,1]456s789sEE", flowers=["f1", "s3", "s4"]))["1"] == 3
    assert fans(red("[222m,1][222p,1]456s789sEE f2"))["1"] == 1


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m123p456s789sEE", {"2": 1, "3": 1}),
        ("[222m,1][222p,1]456s789sEE", {"4": 1}),
        ("123m789m456p456sEE", {"2": 1, "3": 1, "5": 1}),
        ("[EEE,1][CCC,2]123m456p9s9s", {"6": 2, "13": 1}),
        ("[123m,1]456p789s234s5m5m", {"2": 1, "7": 1}),
        ("[111m,1]333p777s999sEE", {"8": 1}),
        ("123m123m456p789sEE", {"2": 1, "9": 1}),
        ("123m456m789m111pEE", {"5": 1, "10": 1}),
        ("[123m,1]456p789sEEECC", {"6": 1, "13": 1}),
        ("123m345m234p111s4s4s", {"14": 1}),
        ("567m789m678p999s66p", {"15": 1}),
        ("[CCC,1][FFF,2]PPP123m5s5s", {"6": 3, "7": 1, "17": 1}),
    ],
)
def test_one_hand_per_fan(hand, expected):
    assert fans(red(hand)) == expected


def test_half_flush():
    r = red("[123m,1]456m789mEEE2m2m")
    assert fans(r) == {"5": 1, "6": 1, "7": 1, "10": 1, "12": 1}
    assert "18" not in fans(r)


def test_red_hand():
    r = red("[111m,1]333m777mCCCEE")
    assert fans(r) == {"6": 1, "8": 1, "12": 1, "16": 1}
    assert r.total == 3 + 12 + 12 + 32


def test_all_types_needs_every_type():
    assert "13" not in fans(red("[123m,1]456p789pEEECC"))


def test_lower_and_upper_five_exclude_honours():
    assert "14" not in fans(red("123m345m234pEEE4s4s"))


def test_chaotic_hand():
    r = red("147m258p3sESWNCFP")
    assert fans(r) == {"11": 1} and r.total == 12 and r.form == "chaotic_hand"
    # Footnote 12: by agreement worth 3.
    assert red("147m258p3sESWNCFP", options=["chaotic_hand_3"]).total == 3
    with pytest.raises(NotationError) as err:
        red("147m258p34sESWNCF")  # 3s and 4s too close
    assert err.value.code == "not_winning"


def test_best_split():
    # 111222333m: pungs (all pungs 12 + ...) or three identical chows (3 pure doubles).
    r = red("111222333m555p7s7s")
    assert fans(r) == {"9": 3}
    assert r.total == 36


# --- jokers ---------------------------------------------------------------------------------


def test_joker_not_allowed_without_the_option():
    with pytest.raises(NotationError) as err:
        red("123s123s456s789s8sJ", self_drawn=True)
    assert err.value.code == "joker_not_allowed"


def test_joker_takes_the_best_value():
    r = red("123s123s456s789s8sJ", self_drawn=True, options=["jokers"])
    assert r.total == 112


def test_footnote_9_joker_moves_into_the_chow():
    # L582-585: 234s + J, another J drawn: J34s and J+2s is a valid split.
    hand = parse_hand("123m456m789p234sJJ")
    counts = [0] * 34
    for t in hand.concealed_with_win:
        if t < 34:
            counts[t] += 1
    splits = standard_splits(tuple(counts), 2, 4)
    assert (("chow", 0), ("chow", 3), ("chow", 15), ("chow", 19), ("pair", 19)) in splits
    # The scorer then picks joker values worth most: all chows + one 3-point fan.
    r = red("123m456m789p234sJJ", self_drawn=True, options=["jokers"])
    assert r.total == 6 and fans(r)["2"] == 1


def test_joker_split_keeps_a_natural_tile_in_every_group():
    # L529-531: three jokers and one natural tile can only be one group plus jokers.
    assert standard_splits((0,) * 34, 2, 0) == set()
    counts = [0] * 34
    counts[0] = 1
    assert standard_splits(tuple(counts), 2, 1) == set()
    assert ("pair", 0) in {g for split in standard_splits(tuple(counts), 1, 0) for g in split}


def test_footnote_9_two_jokers_are_no_pair():
    # L586-587: all four sets exposed, a joker waits for a pair: no win on a joker.
    with pytest.raises(NotationError) as err:
        red("[123m,1][456m,1][789p,1][234s,1]JJ", self_drawn=True, options=["jokers"])
    assert err.value.code == "not_winning"


def test_pair_with_a_joker_wins_on_any_tile():
    # L539-540.
    r = red("[123m,1][456m,1][789p,1][234s,1]J5s", self_drawn=True, options=["jokers"])
    assert ("pair", 22) in r.groups


def test_discarded_joker_can_not_be_claimed():
    with pytest.raises(NotationError) as err:
        red("123m456m789p234s5sJ", from_="left", options=["jokers"])
    assert err.value.code == "joker_not_claimable"


def test_joker_is_not_a_fifth_copy():
    with pytest.raises(NotationError) as err:
        red("1111mJ234p567pEEE", self_drawn=True, options=["jokers"])
    assert err.value.code == "not_winning"


def test_joker_in_a_chaotic_hand():
    r = red("147m258pJSWNCFPJ", self_drawn=True, options=["jokers"])
    assert r.form == "chaotic_hand"


def test_more_than_four_jokers():
    with pytest.raises(NotationError) as err:
        red("JJJJJ123m456m78p9p", self_drawn=True, options=["jokers"])
    assert err.value.code == "too_many_copies"


# --- payments ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "context", "expected"),
    [
        (4, {"from_": "opposite"}, {"self": 3, "left": 0, "opposite": -3, "right": 0}),
        (4, {"self_drawn": True}, {"self": 9, "left": -3, "opposite": -3, "right": -3}),
        (3, {"self_drawn": True}, {"self": 6, "opposite": -3, "right": -3}),
        (3, {"from_": "right"}, {"self": 3, "opposite": 0, "right": -3}),
        (3, {"from_": "left", "seat": "S"}, {"self": 3, "left": -3, "right": 0}),
        (2, {"self_drawn": True}, {"self": 3, "opposite": -3}),
        (2, {"from_": "opposite"}, {"self": 3, "opposite": -3}),
    ],
)
def test_payments(players, context, expected):
    r = score_red("[222m,1][222p,1]456s789sEE", players=players, **context)
    assert r.total == 3
    assert r.payments == expected


def test_false_win_penalty():
    r = score_red("[222m,1][222p,1]456s789sEE", players=3, self_drawn=True, false_win=True)
    assert r.payments == {"self": -18, "opposite": 9, "right": 9}


def test_house_minimum_ignores_flowers():
    with pytest.raises(NotationError) as err:
        red("[222m,1][222p,1]456s789sEE", flowers=3, options=["min_points=6"])
    assert err.value.code == "not_enough_points"
    assert red("[222m,1][222p,1]456s789sEE", options=["min_points=3"]).total == 3


@pytest.mark.parametrize(
    ("hand", "context", "code"),
    [
        ("[2222m,1][222p,1]456s789sEE", {}, "kong_not_allowed"),
        ("[222m,1][222p,1]456s789sEE", {"players": 5}, "bad_context"),
        ("[222m,1][222p,1]456s789sEE", {"players": 3, "from_": "left"}, "bad_context"),
        ("[222m,1][222p,1]456s789sEE", {"players": 2, "from_": "left"}, "bad_context"),
        ("[222m,1][222p,1]456s789sEE", {"robbing_kong": True}, "bad_context"),
        ("[222m,1][222p,1]456s789sEE", {"liable": "left"}, "bad_context"),
        ("[222m,1][222p,1]456s789sE", {}, "wrong_tile_count"),
        ("[222m,1][222p,1]456s789sEJ", {}, "joker_not_allowed"),
        ("[JJJ,1][222p,1]456s789sEE", {"options": ["jokers"]}, "malformed_meld"),
        ("[222m,1][222p,1]456s789sES", {}, "not_winning"),
    ],
)
def test_errors(hand, context, code):
    with pytest.raises(NotationError) as err:
        red(hand, **context)
    assert err.value.code == code


def test_highest_hand_found_stays_under_the_cap():
    # R12: four identical chows give six pure double chows (L673, footnote 10).
    r = red("123m123m123m123m5m5m", self_drawn=True, flowers=8)
    assert fans(r) == {"1": 8, "2": 1, "7": 1, "9": 6, "14": 1, "18": 1}
    assert r.total == r.raw_points == 190
