"""The scoring core against the book: every worked example agrees, errata applied.

A disagreement that docs/scoring/mcr-errata.md does not document (as an `erratum` of the
example in rulebook/data) fails here, and editors see it on the page and in the admin.
"""

from __future__ import annotations

import pytest

from rulebook import selectors
from rulebook.agreement import compare
from rulebook.models import WorkedExample
from rulebook.services import examples_load, fan_table_load

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded(db):
    from rulebook import book_data, rulesets

    for ruleset in rulesets.codes():
        if book_data.available(ruleset):
            fan_table_load(ruleset=ruleset)
            examples_load(ruleset=ruleset)


def test_every_worked_example_agrees_with_the_book(loaded):
    assert WorkedExample.objects.filter(ruleset="mcr").count() == 104
    disagreeing = {
        s.example.code: s.agreement for s in selectors.examples_disagreeing()
    }
    assert disagreeing == {}


def test_the_errata_examples_are_documented():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs/scoring/mcr-errata.md").read_text()
    import json

    data = json.loads(
        (Path(__file__).resolve().parents[2] / "rulebook/data/mcr_worked_examples.json").read_text()
    )
    for example in data["examples"]:
        if example.get("erratum"):
            assert f"### {example['id']}" in doc, example["id"]


def test_compare_reports_what_the_core_misses():
    agreement = compare(counted={"1": 1, "79": 1}, total=89, book_fans=["1", "11"])
    assert not agreement.ok and agreement.missing == ("11",)
    assert compare(counted={"1": 1, "11": 1}, total=152, book_fans=["1", "11"]).ok


def test_compare_applies_an_erratum():
    # the book lists 49 by mistake: the corrected list must be counted, 49 must not be
    ok = compare(counted={"32": 1, "8": 1}, total=80, book_fans=["32", "8", "49"],
                 expected_fans=["32", "8"])
    assert ok.ok
    wrong = compare(counted={"32": 1, "8": 1, "49": 1}, total=86, book_fans=["32", "8", "49"],
                    expected_fans=["32", "8"])
    assert wrong.struck_out == ("49",)


def test_compare_checks_counts_alternatives_conditions_and_totals():
    agreement = compare(
        counted={"8": 1, "65": 1}, total=70, book_fans=["8", "65"],
        conditions={"times": {"65": 2}, "one_of": [["69", "70"]], "if": {"56": "self_drawn"}},
        context={"self_drawn": True}, book_total=71,
    )
    assert agreement.too_few == (("65", 1, 2),)
    assert agreement.none_of == (("69", "70"),)
    assert agreement.missing == ("56",)
    assert agreement.total == (70, 71)
    assert compare(counted={}, total=0, book_fans=["1"], error="not a winning hand").error
