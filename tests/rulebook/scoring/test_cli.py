"""The command line, run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulebook.scoring", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, check=False,
    )


def test_scores_a_hand_as_json() -> None:
    proc = run("--self-drawn", "--seat", "N", "--prevalent", "W", "[1111s][EEEE]SSS7889m8m")
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["ok"] is True and out["rules"] == "mcr" and out["error"] is None
    assert out["total"] == 33
    assert {"id": "48", "points": 8, "count": 1, "sets": ["[1111s]", "[EEEE]"]} in out["fans"]
    assert out["payments"] == {"self": 123, "left": -41, "opposite": -41, "right": -41}
    assert {"id": "80", "by": "56"} in out["excluded"]


def test_bad_hand_is_a_coded_error_with_status_zero() -> None:
    proc = run("123m456p789s11s12x")
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert out["ok"] is False
    assert out["error"] == {
        "code": "unknown_tile", "message": "unknown tile character 'x'", "position": 17
    }


def test_stdin_lines_carry_their_own_options() -> None:
    lines = "123m456p789s123s5s5s --from left\n1112345678999m --waits\n'123m' --bogus\n"
    proc = run("-", stdin=lines)
    assert proc.returncode == 0
    outs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert outs[0]["total"] == 14 and outs[0]["payments"]["left"] == -22
    assert outs[1]["waits"] == ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]
    assert outs[2]["ok"] is False and outs[2]["error"]["code"] == "bad_arguments"


def test_unusable_arguments_exit_2() -> None:
    assert run("--from", "up", "123m").returncode == 2
    assert run().returncode == 2


def test_several_hands_give_several_lines() -> None:
    proc = run("--from", "opposite", "123m456p789s123s5s5s", "EEESSSWWWNNNCC")
    outs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["total"] for o in outs] == [14, 217]
    assert outs[1]["payments"]["opposite"] == -(8 + 217)
