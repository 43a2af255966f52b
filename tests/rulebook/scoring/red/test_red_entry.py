"""Red Mahjong through the shared ``score()`` entry point (and the command line)."""

import json
import subprocess
import sys
from pathlib import Path

from rulebook.scoring.entry import score

ROOT = Path(__file__).resolve().parents[4]


def test_score_dispatches_to_red():
    r = score("123s123s456s789s8s8s", rules="red", self_drawn=True, players=3)
    assert r.ok and r.rules == "red" and r.total == 112
    assert r.to_dict()["payments"] == {"self": 224, "opposite": -112, "right": -112}


def test_red_errors_are_results():
    r = score("123s123s456s789s8sJ", rules="red", self_drawn=True)
    assert not r.ok and r.error.code == "joker_not_allowed"
    r = score("123s123s456s789s8sJ", rules="red", from_="left", options=["jokers"])
    assert not r.ok and r.error.code == "joker_not_claimable"
    r = score("[2222m,1][222p,1]456s789sEE", rules="red", from_="left")
    assert not r.ok and r.error.code == "kong_not_allowed"


def _cli(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "rulebook.scoring", *args],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def test_cli_red_players_and_jokers():
    out = _cli("--rules", "red", "--players", "2", "--self-drawn", "--option", "jokers",
               "123s123s456s789s8sJ", "123s123s456s789s8s8s")
    assert [o["total"] for o in out] == [112, 112]
    assert out[0]["payments"] == {"self": 112, "opposite": -112}


def test_cli_red_joker_error():
    out = _cli("--rules", "red", "--from", "left", "123s123s456s789s8sJ")
    assert out[0]["ok"] is False and out[0]["error"]["code"] == "joker_not_allowed"
