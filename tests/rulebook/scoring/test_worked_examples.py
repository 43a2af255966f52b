"""Score every worked example of MCR Appendix 1 with the MCR engine.

The examples and their expectations are data (``rulebook/data/mcr_worked_examples.json``,
made from seed 000; see docs/scoring/mcr-content.md). Each case scores the hand with its
context and checks that the example's own fan and every fan the book says it is «combined
with» are counted. Where the book is wrong (docs/scoring/mcr-errata.md) the data carries the
corrected expectation (``expected_combined_with``) and this test checks that instead,
including that the fan the book listed by mistake is *not* counted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook.scoring import score

DATA = Path(__file__).resolve().parents[3] / "rulebook" / "data" / "mcr_worked_examples.json"
with open(DATA, encoding="utf-8") as _fh:
    EXAMPLES = json.load(_fh)["examples"]


def _counted(result) -> dict[str, int]:
    return {str(f.id): f.count for f in result.fans}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e["id"])
def test_worked_example(example):
    result = score(example["hand"], rules="mcr", **example["context"])
    assert result.ok, result
    counted = _counted(result)
    shown = sorted(counted, key=lambda i: (len(i), i))

    assert example["fan"] in counted, f"own fan {example['fan']} not counted: {shown}"

    expected = example.get("expected_combined_with", example["combined_with"])
    missing = [fid for fid in expected if fid not in counted]
    assert not missing, f"combined fans {missing} not counted: {shown}"

    for fid, times in example.get("combined_with_times", {}).items():
        if fid in expected:
            assert counted[fid] >= times, f"fan {fid} counted {counted[fid]}x, book {times}x"

    for group in example.get("combined_with_one_of", []):
        assert any(fid in counted for fid in group), f"none of {group} counted: {shown}"

    # errata: a fan the book lists by mistake must not be counted
    for fid in set(example["combined_with"]) - set(expected):
        assert fid not in counted, f"fan {fid} (book erratum) counted: {shown}"

    # the book's conditional fans (Fully Concealed Hand on a self-drawn win)
    for fid, condition in example.get("combined_with_if", {}).items():
        if example["context"].get(condition):
            assert fid in counted
