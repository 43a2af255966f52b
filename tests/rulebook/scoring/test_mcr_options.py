"""MCR variant switches as options (score(..., options=...), the CLI's --option)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from rulebook.scoring import DEFAULT_CONFIG, MCRConfig, score
from rulebook.scoring.entry import score_mcr_full
from rulebook.scoring.mcr.options import OPTIONS, config_from_options, parse_options

ROOT = Path(__file__).resolve().parents[3]
# one melded kong (claimed from the left) and one concealed kong: 57B
KONGS_57B = "[1111s,1][EEEE]SSS7889m8m"
# two concealed kongs: 48
KONGS_48 = "[1111s][EEEE]SSS7889m8m"


def fan_points(result: object, fan_id: str) -> int | None:
    for fan in result.fans:  # type: ignore[attr-defined]
        if fan.id == fan_id:
            return int(fan.points)
    return None


def test_every_config_field_is_an_option() -> None:
    assert {o.name for o in OPTIONS} == {f.name for f in fields(MCRConfig)}


def test_57b_at_five_or_six() -> None:
    default = score(KONGS_57B, self_drawn=True)
    five = score(KONGS_57B, self_drawn=True, options={"fan_57b_points": 5})
    assert fan_points(default, "57B") == 6
    assert fan_points(five, "57B") == 5
    assert five.total == default.total - 1


def test_48_at_six_or_eight_with_option_strings() -> None:
    default = score(KONGS_48, self_drawn=True)
    six = score(KONGS_48, self_drawn=True, options=["fan_48_points=6"])
    assert fan_points(default, "48") == 8 and fan_points(six, "48") == 6
    assert six.total == default.total - 2
    assert six.payments == {"self": 3 * (8 + six.total), "left": -(8 + six.total),
                            "opposite": -(8 + six.total), "right": -(8 + six.total)}


def test_minimum_points_option_turns_a_short_hand_into_a_win() -> None:
    chicken_ish = "123m456p789s123s5s5s"  # 14 points with the discard
    assert score(chicken_ish, **{"from": "left"}).ok
    high = score(chicken_ish, options={"minimum_points": 20}, **{"from": "left"})
    assert not high.ok and high.error is not None
    assert high.error.code == "not_enough_points" and "20" in high.error.message


def test_flag_option_accepts_bare_name_and_booleans() -> None:
    assert parse_options(["waits_include_fifth_copy"]) == {"waits_include_fifth_copy": True}
    assert parse_options({"waits_include_fifth_copy": False}) == {
        "waits_include_fifth_copy": False
    }
    assert parse_options(["all_green_excludes_half_flush=yes"]) == {
        "all_green_excludes_half_flush": True
    }


def test_waits_include_fifth_copy_changes_waits() -> None:
    # 1111m held: a fifth 1m is no wait by default
    hand = "1111234m567p789s"
    plain = score(hand, waits=True)
    fifth = score(hand, waits=True, options=["waits_include_fifth_copy"])
    assert plain.waits is not None and fifth.waits is not None
    assert plain.waits == ("4m",)
    assert fifth.waits == ("1m", "4m")


def test_default_valued_options_keep_the_default_config() -> None:
    assert config_from_options({"fan_57b_points": 6}) is DEFAULT_CONFIG
    assert config_from_options({}) is DEFAULT_CONFIG
    changed = config_from_options({"fan_57b_points": 5})
    assert changed.fan_57b_points == 5 and changed.fan_48_points == 8


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["bogus"], ["unknown MCR option 'bogus'", "fan_57b_points"]),
        ({"fan_57b_points": 7}, ["fan_57b_points is 5 or 6, not 7"]),
        ({"fan_48_points": "many"}, ["fan_48_points needs a number"]),
        ({"fan_57b_points": True}, ["fan_57b_points needs a number"]),
        ({"wait_fans_in_knitted_straight": 3}, ["wait_fans_in_knitted_straight is true or false"]),
        ({"minimum_points": 100}, ["minimum_points is 0-88, not 100"]),
        ("fan_57b_points=5", ["options must be a list"]),
        ([5], ["options are strings"]),
        (["fan_48_points=6", "fan_48_points=8"], ["given twice"]),
    ],
)
def test_bad_options_are_bad_context_naming_the_option(options: object, words: list[str]) -> None:
    result = score(KONGS_57B, self_drawn=True, options=options)
    assert not result.ok and result.error is not None
    assert result.error.code == "bad_context"
    for word in words:
        assert word in result.error.message
    assert result.fans == () and result.total == 0


def test_full_path_takes_options_too() -> None:
    assert fan_points(score_mcr_full(KONGS_57B, self_drawn=True,
                                     options={"fan_57b_points": 5}), "57B") == 5


def _cli(*args: str) -> list[dict[str, object]]:
    proc = subprocess.run(
        [sys.executable, "-m", "rulebook.scoring", *args],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_cli_option_switches_mcr_config() -> None:
    out = _cli("--self-drawn", "--option", "fan_57b_points=5", "--option", "fan_48_points=6",
               KONGS_57B, KONGS_48)
    assert {"id": "57B", "points": 5, "count": 1, "sets": ["[1111s,1]", "[EEEE]"]} in out[0]["fans"]
    assert any(f["id"] == "48" and f["points"] == 6 for f in out[1]["fans"])  # type: ignore[union-attr]
    bad = _cli("--option", "fan_57b_points=4", KONGS_57B)[0]
    assert bad["ok"] is False
    assert bad["error"] == {"code": "bad_context",
                            "message": "option fan_57b_points is 5 or 6, not 4", "position": None}
