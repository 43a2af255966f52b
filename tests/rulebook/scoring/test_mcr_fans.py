"""One hand for each MCR fan (mostly the seed's Appendix 1 examples) and the principles."""

from __future__ import annotations

from typing import Any

import pytest

from rulebook.scoring import score
from rulebook.scoring.mcr.config import MCRConfig
from rulebook.scoring.mcr.table import FAN_IDS, FANS

D: dict[str, Any] = {"from": "left"}  # won on a discard from the left
SD: dict[str, Any] = {"self_drawn": True}

# fan id -> (hand, context); the fan must be counted in the best arrangement
FAN_HANDS: dict[str, tuple[str, dict[str, Any]]] = {
    "1": ("EEESSSWWWNNNCC", D),
    "2": ("CCCFFFPPP111mSS", {"from": "left"}),
    "3": ("223344s666s88sFFF", D),
    "4": ("1112345678999m9m", SD),
    "5": ("[2222s][5555m][6666p][EEEE]CC", D),
    "6": ("22334455667788p", SD),
    "7": ("19m19p19sESWNCFPP", D),
    "8": ("111m111s999m999s1p1p", D),
    "9": ("[EEE,1][WWW,1][NNN,1]123sSS", D),
    "10": ("CCCFFFP111p999pP", D),
    "11": ("CCCPPPEEESSSNN", D),
    "12": ("222s444p777m222p3m3m", SD),
    "13": ("123s123s789s789s5s5s", D),
    "14": ("123m123m123m123m4m4m", D),
    "15": ("111p222p333p444p2s2s", D),
    "16": ("123m234m345m456m1m1m", D),
    "17": ("[2222m][3333m][4444m]222s3s3s", D),
    "18": ("EEE111m999p999sCC", D),
    "19": ("66p22s33mCCPPEENN", D),
    "20": ("147m258p3sESWNCFP", D),
    "21": ("222m444s666p888p2s2s", D),
    "22": ("666m777m888m999m55m", D),
    "23": ("[123m,1][123m,1]123m78p55s9p", D),
    "24": ("222s333s444s345p22p", D),
    "25": ("789m789s789p789p99p", D),
    "26": ("456s444s555s666s55p", D),
    "27": ("123p123m123s123s33s", D),
    "28": ("123m456m789m123m77m", D),
    "29": ("123p789p123m789m55s", D),
    "30": ("123p234p345p234s22s", D),
    "31": ("456p567s345m345m55m", D),
    "32": ("222p333m222m222s44m", D),
    "33": ("CCCEEE999m99s99p9s", D),
    "34": ("147s258m36pESWPFC", D),
    "35": ("147s258m369p555s33m", D),
    "36": ("789s678p789m999p99s", D),
    "37": ("123s123m123p123m44m", D),
    "38": ("SSSWWWNNN234m55m", D),
    "39": ("123s456p789m123s88p", D),
    "40": ("234p234p456s456s55s", D),
    "41": ("345s345p234m345m55m", D),
    "42": ("222p333s444m234p22s", D),
    "43": ("[234p,1][345s,1][789m,1]EE67m5m", {"from": "left"}),
    "44": ("123m456p789s123s5s5s", {"self_drawn": True, "last_tile": True}),
    "45": ("123m456p789s123s5s5s", {"from": "left", "last_tile": True}),
    "46": ("[1111p,1]123m456p789s5s5s", {"self_drawn": True, "kong_replacement": True}),
    "47": ("123m456p789s123s5s5s", {"from": "left", "robbing_kong": True}),
    "48": ("[1111s][EEEE]SSS7889m8m", SD),
    "49": ("[888m,1][888p,1][888s,1]CCC1s1s", D),
    "50": ("123m234m345m789mCC", D),
    "51": ("123s234m345p678s55p", D),
    "52": ("123m456p789sFFFEE", D),
    "53": ("[234m,1][456p,1][678m,1][888s,1]5m5m", D),
    "54": ("CCCFFF234m789m99s", D),
    "55": ("123m789m789p123s99s", D),
    "56": ("234m456p567p78s88m6s", SD),
    "57A": ("[4444p,1][CCCC,2][111m,1]2m2m333m", D),
    "57B": ("[2222p][PPPP,1][666s,1]44s35p4p", D),
    "58": ("[345m,1][555p,1][EEE,1]77m46p5p", D),
    "59": ("CCC234m456p789s5s5s", D),
    "60": ("SSS234m456p789s5s5s", {"from": "left", "prevalent": "S"}),
    "61": ("WWW234m456p789s5s5s", {"from": "left", "seat": "W"}),
    "62": ("234m678m456p678p99s", D),
    "63": ("234m456p678s234s99p", D),
    "64": ("789s789m789p999p77m", D),
    "65": ("222m222s456p789p55s", D),
    "66": ("[9999p]999s12m456m22m3m", D),
    "67": ("[1111m]234p456s678s99s", D),
    "68": ("234m456p678s345s88p", D),
    "69": ("234m234m678p345s88p", D),
    "70": ("234m234p678p345s88p", D),
    "71": ("234m567m345p345s88p", D),
    "72": ("123m789m345p345s88p", D),
    "73": ("111m234p456s678s99s", D),
    "74": ("[1111m,1]234p456s678s99s", D),
    "75": ("123m456m789p123p99m", D),
    "76": ("123m456m789p111p99s", D),
    "77": ("12m456m789p123p99s3m", D),
    "78": ("13m456m789p123p99s2m", D),
    "79": ("123m456m789p123p9s9s", D),
    "80": ("[123m,1]456m789p123p9s9s", SD),
    "81": ("123m456m789p123p9s9s", {"from": "left", "flowers": 2}),
}


def test_every_fan_has_a_hand() -> None:
    assert set(FAN_HANDS) == set(FAN_IDS)
    assert len(FAN_IDS) == 82


@pytest.mark.parametrize("fan_id", list(FAN_HANDS))
def test_fan_is_counted(fan_id: str) -> None:
    text, ctx = FAN_HANDS[fan_id]
    result = score(text, **ctx)
    ids = [f.id for f in result.fans]
    assert result.error is None or result.error.code == "not_enough_points", result.error
    assert fan_id in ids, (text, ids, result.excluded)
    fan = next(f for f in result.fans if f.id == fan_id)
    assert fan.points == FANS[fan_id].points


def test_fan_points_follow_the_fan_table() -> None:
    assert FANS["48"].points == 8
    assert FANS["57A"].points == 4
    assert FANS["57B"].points == 6
    assert FANS["13"].points == 64


def test_two_concealed_kongs_example_of_seed() -> None:
    # 000 Appendix 1, fan 48: zzzz 1111 222 ui o ii
    r = score("[1111s][EEEE]SSS7889m8m", self_drawn=True, seat="N", prevalent="W")
    ids = {f.id: f.count for f in r.fans}
    assert ids["48"] == 1 and ids["73"] == 3 and "75" in ids
    # the 8m is the only wait: Single Wait or Closed Wait (equal value), and the concealed
    # kongs are concealed pungs (the seed's example does not list 33 and 56: Errata)
    assert ("79" in ids) != ("78" in ids)
    assert "33" in ids and "56" in ids
    assert {"id": "80", "by": "56"} in [e.to_dict() for e in r.excluded]


def test_chicken_hand_is_eight_points() -> None:
    r = score(*FAN_HANDS["43"][:1], **FAN_HANDS["43"][1])
    assert [f.id for f in r.fans] == ["43"]
    assert r.total == 8 and r.ok


def test_pure_straight_plus_one_chow_counts_one_more_pair_fan() -> None:
    # 000 fan 28 example 1: "either Pure Double Chow, or Short Straight, or Two Terminal"
    r = score("123m456m789m123m77m", **D)
    pair_fans = [f for f in r.fans if f.id in ("69", "71", "72")]
    assert sum(f.count for f in pair_fans) == 1


def test_account_once_limits_four_chows_to_three_pair_fans() -> None:
    # 000 fan 55 example 2: qwe qwe uio uio 77 (one chow melded, else Seven Pairs is best)
    r = score("[123m,1]123m789m789mCC", **D)
    counted = {f.id: f.count for f in r.fans}
    assert counted.get("69", 0) + counted.get("72", 0) == 3


def test_mixed_triple_chow_and_a_fourth_chow() -> None:
    # 000 fan 41 example 2: yui nm, hjk hjk .. -> either Pure or Mixed Double Chow
    r = score("678m678s678p678p99s", **D)
    counted = {f.id: f.count for f in r.fans}
    assert counted["41"] == 1
    assert counted.get("69", 0) + counted.get("70", 0) == 1


def test_wait_fans_need_a_single_waiting_tile() -> None:
    # 2345m waits on 2m and 5m: no Single Wait although 2m can be the pair
    r = score("123p456p789s234m5m2m", **D)
    assert "79" not in [f.id for f in r.fans]


def test_fifth_copy_is_no_wait() -> None:
    # 1333p waits on 2p only: 1p would complete it too, but the hand holds all four 1p
    hand = "[7777p][111p,2][345p,1]1333p2p"
    r = score(hand, **D)
    assert "78" in [f.id for f in r.fans]  # Closed Wait
    # the Chinese calculator's switch counts 1p as a wait: no Closed Wait, a point less
    from rulebook.scoring.entry import score_mcr

    compat = score_mcr(hand, config=MCRConfig(waits_include_fifth_copy=True), **D)
    assert "78" not in [f.id for f in compat.fans]
    assert compat.total == r.total - 1


def test_variant_switches() -> None:
    from rulebook.scoring.entry import score_mcr

    hand = "[2222p][PPPP,1][666s,1]44s35p4p"
    assert {f.id: f.points for f in score_mcr(hand, **D).fans}["57B"] == 6
    cfg = MCRConfig(fan_57b_points=5)
    assert {f.id: f.points for f in score_mcr(hand, config=cfg, **D).fans}["57B"] == 5


def test_knitted_straight_wait_switch() -> None:
    from rulebook.scoring.entry import score_mcr

    hand = "147m258p36s123sEE9s"
    assert not {"77", "78"} & {f.id for f in score_mcr(hand, **D).fans}
    on = score_mcr(hand, config=MCRConfig(wait_fans_in_knitted_straight=True), **D)
    assert "77" in {f.id for f in on.fans}


def test_below_eight_points_is_an_error_with_explanation() -> None:
    r = score("123m456p789s123s5s5s", **D)  # 8: mixed straight
    assert r.ok
    r = score("123m456p678s123s5s5s", **D)
    assert not r.ok and r.error is not None and r.error.code == "not_enough_points"
    assert r.fans


def test_last_tile_needs_no_copy_in_hand() -> None:
    r = score("123m456p789s123s5s5s", **{**D, "last_of_kind": True})
    assert "58" not in [f.id for f in r.fans]
