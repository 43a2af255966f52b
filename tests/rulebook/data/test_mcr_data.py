"""Consistency checks of the MCR data files (plain pytest: no Django, no database).

``rulebook/data/mcr_fans.json`` is the fan table (seed 004 + Appendix 1 definitions) and
``rulebook/data/mcr_worked_examples.json`` the worked examples of Appendix 1. The checks
below use a tiny local parser of the hand notation and a local decoder of the seed's
keyboard encoding, so that they do not depend on the scoring engine.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[3] / "rulebook" / "data"
LANGUAGES = ("ru", "en", "zh-hans", "fr", "nl")

# The MCR point groups (seed 004; 57 split into 57A/57B).
EXPECTED_POINTS: dict[str, int] = {}
for _points, _ids in (
    (88, range(1, 8)),
    (64, range(8, 14)),
    (48, range(14, 16)),
    (32, range(16, 19)),
    (24, range(19, 28)),
    (16, range(28, 34)),
    (12, range(34, 39)),
    (8, range(39, 49)),
    (6, range(49, 55)),
    (4, (55, 56, 58)),
    (2, range(59, 69)),
    (1, range(69, 82)),
):
    for _i in _ids:
        EXPECTED_POINTS[str(_i)] = _points
EXPECTED_POINTS["57A"] = 4
EXPECTED_POINTS["57B"] = 6
EXPECTED_IDS = set(EXPECTED_POINTS)

CONTEXT_KEYS = {
    "self_drawn",
    "from",
    "seat",
    "prevalent",
    "flowers",
    "last_of_kind",
    "last_tile",
    "kong_replacement",
    "robbing_kong",
}


def _load(name: str) -> dict:
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


FANS_FILE = _load("mcr_fans.json")
EXAMPLES_FILE = _load("mcr_worked_examples.json")
FANS = FANS_FILE["fans"]
EXAMPLES = EXAMPLES_FILE["examples"]
FAN_IDS = {f["id"] for f in FANS}


# --- a tiny hand-notation parser -------------------------------------------------------

HONOURS = "ESWNCFP"


class BadHand(ValueError):
    pass


def _tokens(text: str) -> list[str]:
    """``"123m45pEE"`` -> ``["1m", "2m", "3m", "4p", "5p", "E", "E"]``."""
    out: list[str] = []
    digits: list[str] = []
    for ch in text:
        if ch in "123456789":
            digits.append(ch)
        elif ch in "mps":
            if not digits:
                raise BadHand(f"suit letter {ch!r} without digits")
            out += [d + ch for d in digits]
            digits = []
        elif ch in HONOURS:
            if digits:
                raise BadHand("digits must be followed by their suit letter")
            out.append(ch)
        else:
            raise BadHand(f"invalid character {ch!r}")
    if digits:
        raise BadHand("digits must be followed by their suit letter")
    return out


def _meld(body: str) -> tuple[list[str], bool]:
    """Parse the text inside brackets; return its tiles and whether it is a kong."""
    tiles_text, comma, digit = body.partition(",")
    tiles = _tokens(tiles_text)
    if comma and (len(digit) != 1 or not digit.isdigit()):
        raise BadHand(f"bad meld marker in [{body}]")
    d = int(digit) if comma else None
    if len(tiles) == 4 and len(set(tiles)) == 1:
        if d is not None and d not in (1, 2, 3, 5, 6, 7):
            raise BadHand(f"bad kong marker in [{body}]")
        return tiles, True
    if len(tiles) == 3 and len(set(tiles)) == 1:
        if d not in (1, 2, 3):
            raise BadHand(f"a claimed pung needs a marker 1-3: [{body}]")
        return tiles, False
    if len(tiles) == 3:
        suits = {t[-1] for t in tiles}
        ranks = sorted(int(t[0]) for t in tiles if t[0].isdigit())
        if (
            len(suits) != 1
            or tiles[0][-1] not in "mps"
            or len(ranks) != 3
            or ranks != list(range(ranks[0], ranks[0] + 3))
        ):
            raise BadHand(f"not a chow: [{body}]")
        if d not in (1, 2, 3):
            raise BadHand(f"a claimed chow needs a marker 1-3: [{body}]")
        return tiles, False
    raise BadHand(f"not a meld: [{body}]")


def parse_hand(hand: str) -> tuple[list[str], int, str]:
    """Return (all tiles, number of kongs, winning tile); raise BadHand if invalid."""
    tiles: list[str] = []
    kongs = 0
    rest = hand
    while rest.startswith("["):
        end = rest.find("]")
        if end < 0:
            raise BadHand("unclosed bracket")
        meld_tiles, is_kong = _meld(rest[1:end])
        tiles += meld_tiles
        kongs += is_kong
        rest = rest[end + 1 :]
    if "[" in rest or "]" in rest:
        raise BadHand("melds must come before the concealed tiles")
    concealed = _tokens(rest)
    if not concealed:
        raise BadHand("no concealed tiles (the last one is the winning tile)")
    tiles += concealed
    if len(tiles) != 14 + kongs:
        raise BadHand(f"{len(tiles)} tiles, expected {14 + kongs}")
    over = [t for t, n in Counter(tiles).items() if n > 4]
    if over:
        raise BadHand(f"more than four of {over}")
    return tiles, kongs, concealed[-1]


# --- a tiny keyboard decoder (seed 000 font) --------------------------------------------

KEYBOARD: dict[str, str] = {}
for _row, _suit in (("qwertyuio", "m"), ("asdfghjkl", "p"), ("zxcvbnm,.", "s")):
    for _k, _c in enumerate(_row):
        KEYBOARD[_c] = f"{_k + 1}{_suit}"
KEYBOARD.update({"1": "E", "2": "S", "3": "W", "4": "N", "5": "P", "6": "F", "7": "C"})
SHIFTED = {c.upper(): c for c in "qwertyuioasdfghjklzxcvbnm"}
SHIFTED.update({"<": ",", ">": "."})


def decode_keyboard(text: str) -> list[str]:
    out = []
    for ch in text:
        if ch.isspace():
            continue
        key = SHIFTED.get(ch, ch)
        if key not in KEYBOARD:
            raise BadHand(f"unknown keyboard character {ch!r}")
        out.append(KEYBOARD[key])
    return out


# --- the checkers must reject bad data ---------------------------------------------------


@pytest.mark.parametrize(
    "hand",
    [
        "123m456p789s11p2p",  # 15 tiles
        "123m456p789s1p",  # 13 tiles... and no pair
        "[123m,2][EEEE]456p789s1",  # digit without suit letter
        "[124m,1]456p789s123s11p",  # not a chow
        "[123m]456p789s123s11p",  # claimed chow without marker
        "[EEE]456p789s123s11p",  # pung without marker
        "[EEEE,4]456p789s123s11p",  # bad kong marker
        "11111m456p789s123s1p",  # five of a kind
        "123m456p789s123s1Xp",  # unknown letter
        "123m456p[EEE,1]789s123s",  # meld after concealed tiles
        "[123m,2][456m,1][789m,1][111p,1]",  # no concealed tiles
    ],
)
def test_hand_checker_rejects_bad_hands(hand):
    with pytest.raises(BadHand):
        parse_hand(hand)


def test_hand_checker_accepts_good_hands():
    assert parse_hand("[123m,2][EEEE]456p789s11p")[1:] == (1, "1p")
    assert parse_hand("[EEEE,5][SSSS,1][WWWW][NNNN,3]CC")[1] == 4


def test_keyboard_decoder():
    assert decode_keyboard("qwe Asd ,<. 1234 567") == [
        "1m",
        "2m",
        "3m",
        "1p",
        "2p",
        "3p",
        "8s",
        "8s",
        "9s",
        "E",
        "S",
        "W",
        "N",
        "P",
        "F",
        "C",
    ]
    with pytest.raises(BadHand):
        decode_keyboard("qw!")


# --- the fan table -------------------------------------------------------------------------


def test_every_fan_id_exactly_once():
    ids = [f["id"] for f in FANS]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    assert set(ids) == EXPECTED_IDS
    assert len(ids) == 82  # 81 fans, 57 split into 57A and 57B


@pytest.mark.parametrize("fan", FANS, ids=lambda f: f"fan{f['id']}")
def test_fan_points_and_names(fan):
    assert fan["points"] == EXPECTED_POINTS[fan["id"]]
    for lang in LANGUAGES:
        block = fan[lang]
        assert block["name"].strip(), (fan["id"], lang)
        assert block["points"] == fan["points"], (fan["id"], lang)
        assert isinstance(block["description"], str)
    for other in fan.get("not_combined_with_appendix", []):
        assert other in FAN_IDS


def test_known_points():
    points = {f["id"]: f["points"] for f in FANS}
    assert points["57A"] == 4
    assert points["57B"] == 6
    assert points["48"] == 8
    assert points["1"] == 88
    assert points["81"] == 1


def test_fan_errata_refer_to_fans():
    for erratum in FANS_FILE["errata"]:
        assert erratum["text"] and erratum["data"]
        for fid in erratum["fans"]:
            assert fid in FAN_IDS


# --- the worked examples ----------------------------------------------------------------------


def test_example_ids_unique_and_count():
    ids = [e["id"] for e in EXAMPLES]
    assert len(ids) == len(set(ids))
    assert len(EXAMPLES) == 104


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e["id"])
def test_worked_example(example):
    assert example["fan"] in FAN_IDS
    assert example["id"] == f"fan{example['fan']}-ex{example['number']}"
    tiles, _kongs, _win = parse_hand(example["hand"])

    keyboard = example.get("keyboard_corrected", example["keyboard"])
    if "keyboard_corrected" in example:
        assert example["keyboard_corrected"] != example["keyboard"]
        assert example.get("erratum"), "a corrected keyboard string needs a documented erratum"
    decoded = decode_keyboard(keyboard + " " + example.get("keyboard_extra", ""))
    assert Counter(decoded) == Counter(tiles), "keyboard and hand hold different tiles"

    context = example["context"]
    assert set(context) <= CONTEXT_KEYS
    assert context.get("seat", "E") in "ESWN" and context.get("prevalent", "E") in "ESWN"
    assert example["assumptions"], "defaults chosen must be written down"

    for fid in example["combined_with"]:
        assert fid in FAN_IDS
    for group in example.get("combined_with_one_of", []):
        assert len(group) >= 2 and all(fid in FAN_IDS for fid in group)
    for fid in example.get("combined_with_if", {}):
        assert fid in FAN_IDS
    for fid, times in example.get("combined_with_times", {}).items():
        assert fid in example["combined_with"] and times >= 2
    if "expected_combined_with" in example:
        assert example.get("erratum")
        assert all(fid in FAN_IDS for fid in example["expected_combined_with"])
    if example["combined_with"]:
        assert example["combined_with_ru"].startswith("Совмещено")


def test_combined_with_ru_names_are_all_mapped():
    """Every «name» of a combined-with phrase is accounted for by the id lists."""
    for example in EXAMPLES:
        phrase = example["combined_with_ru"] or ""
        ids = set(example["combined_with"]) | set(example.get("combined_with_if", {}))
        for group in example.get("combined_with_one_of", []):
            ids |= set(group)
        names = {n.lower().replace("\u0451", "\u0435") for n in re.findall(r"«([^»]+)»", phrase)}
        assert len(ids) <= len(names), example["id"]
        assert bool(ids) == bool(names), example["id"]
