"""Red Mahjong: jokers inside exposed melds (seed 003, L529-535; decision 0201)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.scoring.entry import score
from rulebook.scoring.errors import NotationError
from rulebook.scoring.hand import CHOW, PUNG, Hand, Meld, parse_hand
from rulebook.scoring.red.evaluate import score_red
from rulebook.scoring.tiles import JOKER

ROOT = Path(__file__).resolve().parents[4]
JOKERS = {"options": ["jokers"]}

# Four natural 5m in all: two in the exposed pung (with a joker), two as the pair. Written
# with the tile the joker stands for, the same hand would hold a fifth 5m.
LEGAL = "[5J5m,1]123p456p789s55m"


def fans(result):
    return {f.id: f.count for f in result.fans}


def test_pung_with_a_joker_scores():
    r = score_red(LEGAL, from_="left", **JOKERS)
    assert fans(r) == {"7": 1}  # the 5m pair is the special pair
    assert r.total == 3
    assert ("pung", 4) in r.groups  # the joker takes the meld's tile (5m)


def test_the_same_hand_without_the_joker_is_a_fifth_copy():
    with pytest.raises(NotationError) as err:
        parse_hand("[555m,1]123p456p789s55m")
    assert err.value.code == "too_many_copies"


def test_meld_identity_and_joker_places():
    h = parse_hand("[5J5m,1][4J6m,1][JJ7p,3][EEE]5s5s")
    pung5, chow, pung7, _ = h.melds
    east = parse_hand("[EJE,2]123p456p789s5s5s").melds[0]
    assert (pung5.kind, pung5.tile, pung5.claimed, pung5.jokers) == (PUNG, 4, 1, 0b010)
    assert (chow.kind, chow.tile, chow.claimed, chow.jokers) == (CHOW, 3, 1, 0b010)
    assert (pung7.kind, pung7.tile, pung7.claimed, pung7.jokers) == (PUNG, 15, 3, 0b011)
    assert (east.kind, east.tile, east.claimed, east.jokers) == (PUNG, 27, 2, 0b010)
    assert chow.tiles == (3, 4, 5) and chow.natural_tiles == (3, 5)
    assert pung7.natural_tiles == (15,)


@pytest.mark.parametrize(
    ("body", "low"),
    [("J56m", 3), ("56Jm", 4), ("5J7m", 4), ("J 8 9p", 15), ("1J3s", 18)],
)
def test_chow_missing_rank_from_its_place(body, low):
    meld = parse_hand(f"[{body}]123p456p789s5s5s").melds[0]
    assert (meld.kind, meld.tile) == (CHOW, low)


def test_one_natural_tile_is_a_pung():
    meld = parse_hand("[J5Jm]123p456p789s5s5s").melds[0]
    assert (meld.kind, meld.tile, meld.jokers) == (PUNG, 4, 0b101)


@pytest.mark.parametrize(
    ("hand", "code", "position"),
    [
        ("[JJJ,1]123p456p789s55m", "malformed_meld", 1),  # no natural tile (L529-531)
        ("[6J4m]123p456p789s55m", "malformed_meld", 1),  # chow not in rank order
        ("[5J7m,2]123p456p789s55m", "joker_not_claimable", 6),
        ("[89Jm]123p456p789s55m", "malformed_meld", 1),  # no 10m
        ("[5J6m]123p456p789s55m", "malformed_meld", 1),  # 5 and 6 two places apart
        ("[1J3mE]123p456p789s55m", "malformed_meld", 1),  # four places, not a kong
        ("[4J6m,2]123p456p789s55m", "joker_not_claimable", 6),  # the 5m claimed: a joker
        ("[J56m,1]123p456p789s55m", "joker_not_claimable", 6),
        ("[5J5m,4]123p456p789s55m", "malformed_meld", 6),  # a pung is claimed from 1-3
        ("[5J5m,1][JJ7p][EJE]5s5sJ", "too_many_copies", 23),  # a fifth joker
        ("[5J5m,1][JJ7p][EJJ]5s5s5s", "too_many_copies", 14),  # a fifth joker in melds
        ("[5J5m,1]555m456p789s55m", "too_many_copies", 10),  # five natural 5m
    ],
)
def test_meld_errors(hand, code, position):
    with pytest.raises(NotationError) as err:
        parse_hand(hand)
    assert (err.value.code, err.value.position) == (code, position)


def test_claim_of_a_natural_tile_of_a_chow_is_fine():
    assert parse_hand("[4J6m,3]123p456p789s55m").melds[0].claimed == 3


def test_joker_in_a_meld_needs_the_option():
    r = score(LEGAL, rules="red", from_="left")
    assert not r.ok and r.error.code == "joker_not_allowed"


def test_red_kong_with_a_joker_is_still_no_kong():
    r = score("[5J55m,1]123p456p789s5s5s", rules="red", from_="left", **JOKERS)
    assert not r.ok and r.error.code == "kong_not_allowed"


def test_concealed_joker_counts_the_natural_tiles_of_the_melds():
    # Decision 0201 (unchanged): a concealed joker is no fifth copy. Three natural 5m in
    # the melds and one in hand: the concealed joker can not pair with it.
    with pytest.raises(NotationError) as err:
        score_red("[5J5m,1][J5Jm,2][123p][456p]J5m", self_drawn=True, **JOKERS)
    assert err.value.code == "not_winning"
    # two natural 5m in the melds: the joker is the fourth 5m and the hand wins
    r = score_red("[5J5m,1][JJ7p,2][123p][456p]J5m", self_drawn=True, **JOKERS)
    assert ("pair", 4) in r.groups and ("pung", 15) in r.groups


@pytest.mark.parametrize("rules", ["mcr", "hkos"])
@pytest.mark.parametrize(
    ("hand", "position"),
    [
        ("[5J5m,1]123p456p789s55m", 2),
        ("[123s][4J6m,1]123p789s5s5s", 8),
        ("[JJ7p,3]123p456s789s5s5s", 1),
    ],
)
def test_mcr_and_hkos_reject_a_joker_in_a_meld(rules, hand, position):
    r = score(hand, rules=rules, from_="left")
    assert not r.ok
    assert (r.error.code, r.error.position) == ("joker_not_allowed", position)


@pytest.mark.parametrize("rules", ["mcr", "hkos"])
def test_mcr_and_hkos_reject_a_hand_object_with_a_meld_joker(rules):
    h = Hand(
        melds=(Meld(PUNG, 4, claimed=1, jokers=0b010),),
        concealed=(9, 10, 11, 12, 13, 14, 24, 25, 26, 4),
        win_tile=4,
    )
    r = score(h, rules=rules, from_="left")
    assert not r.ok and r.error.code == "joker_not_allowed"


def test_red_hand_object_claiming_a_joker():
    h = Hand(
        melds=(Meld(CHOW, 3, claimed=2, jokers=0b010),),
        concealed=(9, 10, 11, 12, 13, 14, 24, 25, 26, 4),
        win_tile=4,
    )
    r = score(h, rules="red", from_="left", **JOKERS)
    assert not r.ok and r.error.code == "joker_not_claimable"


def test_result_writes_the_joker_back():
    h = parse_hand("[5J5m,1][4J6m,3][JJ7p,3][EEE]5s5s")
    assert h.notation() == "[5J5m,1][4J6m,3][JJ7p,3][EEE]5s5s"
    assert parse_hand(h.notation()) == h
    r = score(h, rules="red", self_drawn=True, **JOKERS)
    assert r.ok and r.hand == "[5J5m,1][4J6m,3][JJ7p,3][EEE]5s5s"
    assert parse_hand("[E J E,2]123p456p789s5s5s").notation().startswith("[EJE,2]123")
    assert r.to_dict()["hand"] == r.hand
    # a pung keeps the places written, a chow is written in rank order
    assert parse_hand("[J 5 5m][56Jm,2]123p789s5s5s").notation().startswith(
        "[J55m][56Jm,2]123p"
    )
    r = score(LEGAL, rules="red", from_="left", **JOKERS)
    assert r.hand == LEGAL


def test_joker_tiles_are_not_tiles_of_the_meld():
    h = parse_hand(LEGAL)
    assert JOKER not in h.melds[0].tiles
    assert h.melds[0].natural_tiles == (4, 4)


def test_cli_red_with_a_meld_joker():
    proc = subprocess.run(
        [sys.executable, "-m", "rulebook.scoring", "--rules", "red", "--option", "jokers",
         "--from", "left", LEGAL, "[4J6m,2]123p456p789s55m"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    out = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert out[0]["ok"] is True and out[0]["total"] == 3 and out[0]["hand"] == LEGAL
    assert out[0]["payments"] == {"self": 3, "left": -3, "opposite": 0, "right": 0}
    assert out[1]["ok"] is False
    assert out[1]["error"]["code"] == "joker_not_claimable" and out[1]["error"]["position"] == 6


def test_cli_mcr_rejects_a_meld_joker():
    proc = subprocess.run(
        [sys.executable, "-m", "rulebook.scoring", "--from", "left", LEGAL],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    out = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert out[0]["error"]["code"] == "joker_not_allowed" and out[0]["error"]["position"] == 2
