"""HKOS through the shared ``score()`` entry point (and the command line when present)."""

import json
import subprocess
import sys
from pathlib import Path

from rulebook.scoring.entry import score

ROOT = Path(__file__).resolve().parents[4]


def test_score_dispatches_to_hkos():
    r = score("[EEE,1]111m999m555m2m2m", rules="hkos", self_drawn=True, seat="S", prevalent="S")
    assert r.ok and r.rules == "hkos"
    assert r.total == 32 and r.doublings == 8
    d = r.to_dict()
    assert d["doublings"] == 8
    assert {f["id"]: f["points"] for f in d["fans"]} == {"1": 1, "7": 1, "13": 3, "14": 3}
    assert d["payments"] == {"self": 192, "left": -64, "opposite": -64, "right": -64}


def test_errors_are_results_not_exceptions():
    r = score("123m456m789p345s2sJ", rules="hkos", from_="left")
    assert not r.ok and r.error.code == "joker_not_allowed"
    r = score("123m456m789p345s2s3s", rules="hkos", from_="left")
    assert not r.ok and r.error.code == "not_winning"


def test_house_minimum_result():
    r = score("[123m,1][555p,1]789p345s2s2s", rules="hkos", from_="left",
              options=["min_doublings=1"])
    assert not r.ok and r.error.code == "not_enough_points"
    assert r.payments is None and [f.id for f in r.fans] == ["1"]


def test_flower_tiles_remove_the_no_flowers_fan():
    r = score("[123m,1]456m789p345s2s2s", rules="hkos", from_="left", flowers=["f1", "s3"])
    assert r.ok and "1" not in {f.id for f in r.fans}


def _cli(*args, stdin=None):
    proc = subprocess.run(
        [sys.executable, "-m", "rulebook.scoring", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, check=False,
    )
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def test_cli_hkos():
    out = _cli("--rules", "hkos", "--self-drawn", "--seat", "S", "--prevalent", "S",
               "[EEE,1]111m999m555m2m2m")
    assert out[0]["rules"] == "hkos" and out[0]["total"] == 32 and out[0]["doublings"] == 8


def test_cli_hkos_flowers_liable_option():
    out = _cli("--rules", "hkos", "--from", "opposite", "--liable", "left",
               "--flowers", "f1,s1", "--option", "big_dragons_all_pungs",
               "[CCC,1][FFF,2]PPP111m2m2m")
    assert out[0]["ok"]
    assert out[0]["payments"] == {"self": 256, "left": -128, "opposite": -128, "right": 0}
    assert {f["id"] for f in out[0]["fans"]} >= {"2", "18"}


def test_cli_hkos_win_flags_and_stdin():
    out = _cli("--rules", "hkos", "-", stdin=(
        "123m456m789p345s2s2s --self-drawn --heavenly\n"
        "[123m,1]456m789p345s2s2s --from left --false-win\n"
        "[123m,1]456m789p345s2s2s --from right --late-discard --option fan31\n"
    ))
    assert "29" in {f["id"] for f in out[0]["fans"]} and out[0]["total"] == 64
    assert out[1]["payments"] == {"self": -48, "left": 16, "opposite": 16, "right": 16}
    assert out[2]["payments"] == {"self": 16, "left": 0, "opposite": 0, "right": -16}
