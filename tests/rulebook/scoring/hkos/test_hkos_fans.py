"""HKOS: a hand per fan, limits, the cap, best split, payments and errors (seed 001)."""

import pytest

from rulebook.scoring.errors import NotationError
from rulebook.scoring.hand import parse_hand
from rulebook.scoring.hkos.evaluate import hkos_waits, score_hkos
from rulebook.scoring.tiles import tile_name

# A chicken hand with one claimed chow; the winning 2s completes the pair.
CHICKEN = "[123m,1]456m789p345s2s2s"


def fans(result):
    return {f.id: f.count for f in result.fans}


def hk(hand, **context):
    context.setdefault("from_", None if context.get("self_drawn") else "left")
    if context["from_"] is None:
        del context["from_"]
    return score_hkos(hand, **context)


def test_chicken_hand_no_flowers_all_chows():
    r = hk(CHICKEN)
    assert fans(r) == {"1": 1, "4": 1}
    assert (r.doublings, r.total) == (2, 4)


def test_zero_doublings_wins():
    # L833-834: a hand with no doubling wins; 0 doublings = 1 point (L1131).
    r = hk("[123m,1]456m789p345s2s2s", flowers=["f2"])
    assert fans(r) == {"4": 1}
    r = hk("[123m,1][555p,1]789p345s2s2s", flowers=["f2"])
    assert fans(r) == {} and r.doublings == 0 and r.total == 1
    assert r.payments == {"self": 4, "left": -2, "opposite": -1, "right": -1}


@pytest.mark.parametrize(
    ("seat", "flowers", "expected"),
    [
        ("S", ["f2"], {"2": 1}),
        ("S", ["f2", "s2"], {"2": 2}),
        ("S", ["f1"], {}),
        ("E", ["f1", "f2", "f3", "f4"], {"2": 1, "3": 1}),
        ("N", ["f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4"], {"2": 2, "3": 2}),
    ],
)
def test_flower_fans(seat, flowers, expected):
    r = hk("[123m,1][555p,1]789p345s2s2s", seat=seat, flowers=flowers)
    assert fans(r) == expected


def test_flowers_written_in_the_hand():
    r = hk("[123m,1][555p,1]789p345s2s2s f1 s1")
    assert fans(r) == {"2": 2}


def test_dragon_pung():
    assert fans(hk("[CCC,1]456m789p345s2s2s")) == {"1": 1, "5": 1}


@pytest.mark.parametrize(
    ("seat", "prevalent", "count"), [("S", "E", 1), ("S", "S", 2), ("W", "E", 0), ("E", "S", 1), ("E", "W", 0)]
)
def test_seat_and_prevalent_wind(seat, prevalent, count):
    r = hk("[SSS,1]456m789p345s2s2s", seat=seat, prevalent=prevalent)
    assert fans(r).get("6", 0) == count


def test_self_drawn_last_tile_and_last_discard():
    assert "7" in fans(hk("123m456m789p345s2s2s", self_drawn=True))
    r = hk("123m456m789p345s2s2s", self_drawn=True, last_tile=True)
    assert {"7", "8"} <= set(fans(r)) and "9" not in fans(r)
    r = hk("123m456m789p345s2s2s", last_tile=True)
    assert "9" in fans(r) and "8" not in fans(r) and "7" not in fans(r)


def test_kong_replacement_adds_to_self_drawn():
    # Decision D3: fan 10 and fan 7 together.
    r = hk("[1111p]456m789p345s2s2s", self_drawn=True, kong_replacement=True)
    assert {"7", "10"} <= set(fans(r))
    r = hk(
        "[1111p]456m789p345s2s2s", self_drawn=True, kong_replacement=True,
        options=["replacement_no_self_drawn"],
    )
    assert "10" in fans(r) and "7" not in fans(r)


def test_flower_replacement_is_an_option():
    base = {"self_drawn": True, "flowers": ["f3"], "flower_replacement": True}
    assert "10" not in fans(hk(CHICKEN, **base))
    assert "10" in fans(hk(CHICKEN, **base, options=["flower_replacement"]))


def test_robbing_a_kong():
    assert "11" in fans(hk(CHICKEN, robbing_kong=True))
    with pytest.raises(NotationError) as err:
        hk(CHICKEN, self_drawn=True, robbing_kong=True)
    assert err.value.code == "bad_context"


def test_little_three_dragons_with_two_dragon_pungs():
    r = hk("[CCC,1][FFF,2]456m789pPP")
    assert fans(r) == {"1": 1, "5": 2, "12": 1}
    assert (r.doublings, r.total) == (5, 16)


def test_all_pungs():
    r = hk("[111m,1]555p999s222sEE")
    assert fans(r) == {"1": 1, "13": 1}


def test_footnote_11_all_pungs_half_flush_self_drawn_no_flowers():
    # L840-842: 3 + 3 + 1 (+1 no flowers) = 8 doublings.
    r = hk("[EEE,1]111m999m555m2m2m", self_drawn=True, seat="S", prevalent="S")
    assert fans(r) == {"1": 1, "7": 1, "13": 1, "14": 1}
    assert r.doublings == 8 and r.total == 32
    assert r.payments == {"self": 192, "left": -64, "opposite": -64, "right": -64}


def test_half_flush_includes_honour_pung_fans():
    r = hk("[123m,1]456m789mEEE2m2m")
    assert fans(r) == {"1": 1, "6": 2, "14": 1}


def test_seven_pairs():
    r = hk("1133m5577p99sEEFF")
    assert fans(r) == {"1": 1, "15": 1}
    assert r.form == "seven_pairs"


def test_seven_pairs_with_four_equal_tiles():
    # L996-998: four equal tiles may be two pairs.
    r = hk("1111m5577p99sEEFF")
    assert "15" in fans(r)


def test_full_flush():
    r = hk("[123m,1]456m789m234m5m5m")
    assert fans(r) == {"1": 1, "4": 1, "16": 1}
    assert r.total == 32  # 8 doublings


def test_best_split_never_mixes_seven_pairs_and_all_chows():
    # L671-684: 11223344556677m is seven pairs (15+16+...) or chows (4+16), never both.
    r = hk("11223344556677m", self_drawn=True, flowers=["f1", "s1"])
    assert fans(r) == {"2": 2, "7": 1, "15": 1, "16": 1}
    assert r.doublings == 13 and r.total == 64
    r = hk("11223344556677m", self_drawn=True, flowers=["f1", "s1"], options=["min_doublings=0"])
    assert "4" not in fans(r)


def test_best_split_prefers_pungs_over_chows():
    # 111222333m: three pungs or three chows - pungs with the rest give more.
    r = hk("111222333m555pEE", self_drawn=True)
    assert "13" in fans(r) and "17" in fans(r)


def test_four_concealed_pungs_self_drawn_only():
    assert "17" in fans(hk("111p555m999s222sEE", self_drawn=True))
    # On a discard (even one completing the pair) it is not scored (L1011-1012, D10).
    assert "17" not in fans(hk("111p555m999s222sEE"))
    assert "17" not in fans(hk("111p555m999sEE22s2s", self_drawn=False))
    # A melded pung is exposed.
    assert "17" not in fans(hk("[111p,1]555m999s222sEE", self_drawn=True))


def test_big_three_dragons():
    assert "18" in fans(hk("[CCC,1][FFF,2]PPP11m23m4m"))
    with_chow = hk("[CCC,1][FFF,2]PPP11m23m4m", options=["big_dragons_all_pungs"])
    assert "18" not in fans(with_chow)
    all_pungs = hk("[CCC,1][FFF,2]PPP111m2m2m", options=["big_dragons_all_pungs"])
    assert "18" in fans(all_pungs)


def test_winds():
    assert "19" in fans(hk("[EEE,1][SSS,2]WWW123mNN"))
    assert "20" in fans(hk("[EEE,1][SSS,2][WWW,3]NNN5m5m"))
    assert "19" not in fans(hk("[EEE,1][SSS,2]WWW123mNN".replace("NN", "CC")))


def test_all_honours_and_all_terminals():
    assert "21" in fans(hk("[EEE,1][SSS,2]CCCFFFPP"))
    assert {"15", "21"} <= set(fans(hk("EESSWWNNCCFFPP")))
    assert {"13", "22"} <= set(fans(hk("[111m,1]999m111p999p1s1s")))
    assert {"15", "22"} <= set(fans(hk("1111m99m11p99p11s99s")))


def test_nine_gates():
    r = hk("1112345678999m5m")
    assert "23" in fans(r)
    # The 13 tiles must be exactly 1112345678999 (D13).
    assert "23" not in fans(hk("1112345678899m9m"))
    # With the heavenly blessing only fan 29 counts (L690-692).
    r = hk("1112345678999m5m", self_drawn=True, heavenly=True)
    assert "29" in fans(r) and "23" not in fans(r)


def test_thirteen_orphans():
    r = hk("19m19p19sESWNCFPP")
    assert fans(r) == {"1": 1, "24": 1}
    assert r.total == 64


def test_four_kongs():
    assert "25" in fans(hk("[1111m][2222p,1][3333s,2][EEEE,3]5s5s", self_drawn=True))


@pytest.mark.parametrize(
    ("hand", "fan"),
    [
        ("[FFF,1]222s444s666s88s", "26"),
        ("[CCC,1]222m444m666m88m", "27"),
        ("[PPP,1]222p444p666p88p", "28"),
    ],
)
def test_jade_ruby_pearl_dragons(hand, fan):
    assert fan in fans(hk(hand))


def test_jade_dragon_needs_pungs():
    assert "26" not in fans(hk("[FFF,1]234s444s666s88s"))


def test_heavenly_and_earthly_blessings():
    assert "29" in fans(hk("123m456m789p345s2s2s", self_drawn=True, heavenly=True))
    r = hk("123m456m789p345s2s2s", seat="S", from_="left", earthly=True)
    assert "30" in fans(r)
    for bad in (
        {"seat": "S", "from_": "right", "earthly": True},
        {"seat": "E", "from_": "left", "earthly": True},
        {"seat": "S", "self_drawn": True, "heavenly": True},
    ):
        with pytest.raises(NotationError) as err:
            score_hkos("123m456m789p345s2s2s", **bad)
        assert err.value.code == "bad_context"
    with pytest.raises(NotationError):
        score_hkos("[1111p]456m789p345s2s2s", self_drawn=True, heavenly=True)


def test_limit_hand_capped_at_64_points():
    # L849-851, L1145-1146: over 10 doublings stays at 64 points; doublings recorded.
    r = hk("[CCC,1][FFF,2]PPP11m23m4m", self_drawn=True)
    assert r.doublings > 10
    assert r.total == 64
    assert r.payments == {"self": 384, "left": -128, "opposite": -128, "right": -128}


# --- additional hands (options) ------------------------------------------------------------


def test_additional_hands_are_off_by_default():
    assert "31" not in fans(hk("123m456m789p345s2s2s"))
    with pytest.raises(NotationError) as err:
        hk("1234567mESWNCFP")
    assert err.value.code == "not_winning"


def test_concealed_hand():
    # Discard completing the pair: still concealed; completing a chow: exposed (D19).
    assert "31" in fans(hk("123m456m789p345s2s2s", options=["fan31"]))
    assert "31" not in fans(hk("123m456m789p22s34s5s", options=["fan31"]))
    assert "31" in fans(hk("123m456m789p22s34s5s", self_drawn=True, options=["fan31"]))
    assert "31" in fans(hk("[1111p]456m789p345s2s2s", self_drawn=True, options=["fan31"]))
    assert "31" not in fans(hk(CHICKEN, options=["fan31"]))


def test_single_wait():
    # Footnote 19: only one tile kind completes the hand.
    assert "32" in fans(hk("123m456m789p11s24s3s", options=["fan32"]))
    assert "32" not in fans(hk("123m456m789p345s2s2s", options=["fan32"]))  # 2s or 5s
    assert "32" not in fans(hk("123m456m789p5777p6p", options=["fan32"]))  # L1208-1210


def test_human_blessing():
    r = hk(CHICKEN.replace("[123m,1]", "123m"), seat="S", from_="opposite", first_round=True,
           options=["fan33"])
    assert fans(r).get("33") == 1


@pytest.mark.parametrize(
    ("hand", "fan"),
    [
        ("1234567mESWNCFP", "34"),
        ("123456789sCFPEE", "35"),
        ("1258m1258p1258sEE", "36"),
        ("147m258p369sCFPEE", "38"),
    ],
)
def test_irregular_additional_hands(hand, fan):
    r = hk(hand, options=[f"fan{fan}"])
    assert fan in fans(r) and r.total == 64
    assert hk(hand, options=["additional"]).form != "standard"


def test_double_fortune():
    r = hk("[1111m][2222p]789p345s2s2s", self_drawn=True, kong_replacement=True,
           double_fortune=True, options=["fan37"])
    assert "37" in fans(r)
    with pytest.raises(NotationError):
        hk("[1111m]222p789p345s2s2s", self_drawn=True, kong_replacement=True,
           double_fortune=True, options=["fan37"])


# --- minimum, liability, payments ---------------------------------------------------------


def test_house_minimum_ignores_flower_fans():
    # L836-847: at least one "inner" doubling; fans 1-3 do not count.
    with pytest.raises(NotationError) as err:
        hk("[123m,1][555p,1]789p345s2s2s", options=["min_doublings=1"])
    assert err.value.code == "not_enough_points"
    assert hk(CHICKEN, options=["min_doublings=1"]).doublings == 2


def test_liability_requires_a_big_hand():
    r = hk("[CCC,1][FFF,2]PPP11m23m4m", from_="opposite", liable="left")
    assert r.payments == {"self": 256, "left": -128, "opposite": -128, "right": 0}
    with pytest.raises(NotationError) as err:
        hk(CHICKEN, liable="left")
    assert err.value.code == "bad_context"


def test_liability_full_flush_self_drawn():
    r = hk("[123m,1][456m,1][789m,1]234m5m5m", self_drawn=True, liable="left")
    assert r.payments["left"] == -6 * r.total and r.payments["opposite"] == 0


def test_late_discard():
    r = hk(CHICKEN, from_="right", late_discard=True)
    assert r.payments == {"self": 16, "left": 0, "opposite": 0, "right": -16}


def test_false_win_payments():
    r = hk(CHICKEN, false_win=True)
    assert r.payments == {"self": -48, "left": 16, "opposite": 16, "right": 16}


@pytest.mark.parametrize(
    ("hand", "context", "code"),
    [
        ("123m456m789p345s2sJ", {}, "joker_not_allowed"),
        ("123m456m789p345s2s", {}, "wrong_tile_count"),
        ("123m456m789p345s2s3s", {}, "not_winning"),
        (CHICKEN, {"flowers": 2}, "bad_context"),
        (CHICKEN, {"players": 3}, "bad_context"),
        (CHICKEN, {"options": ["no_such_rule"]}, "bad_context"),
        (CHICKEN, {"options": ["min_doublings=x"]}, "bad_context"),
        (CHICKEN, {"liable": "north"}, "bad_context"),
        (CHICKEN, {"late_discard": True, "liable": "right"}, "bad_context"),
    ],
)
def test_errors(hand, context, code):
    with pytest.raises(NotationError) as err:
        hk(hand, **context)
    assert err.value.code == code


# Footnote 19 (L1204-1211): the wait shapes it names.
_BASES = {4: "123m456m789p", 5: "123m456mEE", 7: "123m456m"}


def _waiting(form):
    return parse_hand(_BASES[len(form)] + form + "s" + "C", allow_joker=False)


@pytest.mark.parametrize("form", ["2334", "67889", "1233", "1223334"])
def test_footnote_19_single_waits(form):
    waits = hkos_waits(_waiting(form))
    assert len(waits) == 1
    win = tile_name(waits[0])
    r = hk(_BASES[len(form)] + form + "s" + win, options=["fan32"])
    assert "32" in fans(r)


@pytest.mark.parametrize("form", ["5777", "7899", "1199", "4445"])
def test_footnote_19_not_single_waits(form):
    assert len(hkos_waits(_waiting(form))) > 1
