"""The calculator's question (URL <-> score call), its answer and the translated texts."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.http import urlencode

from rulebook.calculator import Question, answer, question_from_query
from rulebook.calculator_texts import exclusion_text
from rulebook.error_texts import error_text, place_of, tile_at
from rulebook.scoring import score


def test_query_parameters_become_the_score_call() -> None:
    q = question_from_query({
        "rules": "mcr", "hand": " [1111s][EEEE] SSS7889m8m ", "self_drawn": "1", "seat": "n",
        "prevalent": "W", "flowers": "2", "last_of_kind": "1", "robbing_kong": "0",
        "option": ["fan_48_points=6"],
    })
    assert q.hand == "[1111s][EEEE]SSS7889m8m"
    assert q.score_kwargs() == {
        "rules": "mcr", "self_drawn": True, "seat": "N", "prevalent": "W", "flowers": 2,
        "last_of_kind": True, "options": ["fan_48_points=6"],
    }
    direct = score(q.hand, **q.score_kwargs())
    assert answer(q).result == direct
    assert direct.total == 33 - 2 + 2  # 48 at 6 (-2), two flowers (+2)


def test_canonical_query_is_a_fixpoint_and_leaves_defaults_out() -> None:
    q = question_from_query({"rules": "mcr", "hand": "123m456p789s123s5s5s", "win": "left",
                             "seat": "E", "prevalent": "E", "flowers": "0"})
    assert q.query() == "rules=mcr&hand=123m456p789s123s5s5s&from=left"
    again = question_from_query(dict(pair.split("=") for pair in q.query().split("&")))
    assert again == q


def test_flowers_by_name_and_other_rulesets_keys() -> None:
    q = question_from_query({"rules": "hkos", "hand": "x", "flowers": "f1,s2", "liable": "left",
                             "late_discard": "1", "players": "3"})
    assert q.context == {"flowers": ("f1", "s2"), "liable": "left", "late_discard": True}
    # keys of another ruleset are dropped: MCR has no liability and no late discard
    mcr = question_from_query({"rules": "mcr", "hand": "x", "liable": "left", "late_discard": "1"})
    assert mcr.context == {}
    red = question_from_query({"rules": "red", "hand": "x", "players": "3"})
    assert red.context == {"players": 3}
    assert "players=3" in red.query()


def test_thirteen_tiles_are_answered_with_each_wait_scored() -> None:
    q = Question("mcr", "1112345678999m", {"self_drawn": True})
    a = answer(q)
    assert a.is_waiting and a.result is None
    assert [w.tile for w in a.waits or ()] == [f"{n}m" for n in range(1, 10)]
    for w in a.waits or ():
        assert w.result == score(q.hand + w.tile, rules="mcr", self_drawn=True)
        assert w.result.ok and any(f.id == "4" for f in w.result.fans)  # Nine Gates


@pytest.mark.parametrize("rules", ["hkos", "red"])
def test_waits_of_other_rulesets_are_the_tiles_that_complete_the_hand(rules: str) -> None:
    a = answer(Question(rules, "123m456p789s123s5s", {"from": "left"}))
    assert [w.tile for w in a.waits or ()] == ["5s"]
    assert a.waits and a.waits[0].result.total > 0


def test_a_waiting_hand_with_an_impossible_condition_shows_the_error() -> None:
    a = answer(Question("mcr", "1112345678999m", {"self_drawn": True, "robbing_kong": True}))
    assert a.waits is not None
    assert all(w.result.error and w.result.error.code == "bad_context" for w in a.waits)
    bad_option = answer(Question("mcr", "1112345678999m", {}, ("bogus=1",)))
    assert bad_option.error is not None and bad_option.error.code == "bad_context"


def test_tile_and_meld_at_an_error_position() -> None:
    assert tile_at("123m456p", 1) == "2m"
    assert tile_at("EESS", 2) == "S"
    assert tile_at("11z", 0) == "E"
    assert tile_at("123mf1", 5) is None  # the number of a flower
    place = place_of("[123m][567p,4]5s", 12)
    assert place is not None and place.meld_number == 2 and place.meld_text == "[567p,4]"


def test_errors_in_the_pages_language_point_at_the_tile() -> None:
    hand = "123m456p789s5s5s5s5s5s"
    result = score(hand)
    assert result.error is not None and result.error.code == "too_many_copies"
    with translation.override("en"):
        text = error_text(result.error, hand)
    assert text.title == "There are only four copies of each tile."
    assert text.where is not None and text.where.startswith("This is the fifth ")
    assert text.marked == hand[result.error.position]  # type: ignore[index]
    with translation.override("ru"):
        ru = error_text(result.error, hand)
    assert ru.title != text.title and "пят" in (ru.where or "").lower()


def test_a_bad_meld_is_named_with_its_number() -> None:
    hand = "[123m][567p,4]123s456s5s5s"
    result = score(hand)
    assert result.error is not None
    with translation.override("en"):
        text = error_text(result.error, hand)
    assert text.where == "Meld 2: [567p,4]."
    assert text.detail == ("The digit of a chow says which of its three tiles was claimed: "
                           "1, 2 or 3.")
    assert text.marked == "[567p,4]"


def test_not_enough_points_says_how_many() -> None:
    result = score("123m456p789s123s5s5s", options={"minimum_points": 20}, **{"from": "left"})
    assert result.error is not None
    with translation.override("en"):
        text = error_text(result.error, "")
    assert text.detail == "14 points without flowers; a win needs 20."


def test_exclusion_sentences() -> None:
    with translation.override("en"):
        assert exclusion_text("Pure Shifted Chows", "Pure Straight", True) == (
            "Pure Shifted Chows is not counted: Pure Straight implies it.")
        assert "already used by Mixed Double Chow" in exclusion_text(
            "Two Terminal Chows", "Mixed Double Chow", False)
        assert "3.9.1.5" in exclusion_text("Short Straight", None, False)


def test_urlencode_roundtrip_of_brackets() -> None:
    q = Question("mcr", "[1111s,1][EEEE]SSS7889m8m", {"self_drawn": True}, ("fan_57b_points=5",))
    assert q.query() == urlencode({"rules": "mcr", "hand": q.hand, "self_drawn": "1",
                                   "option": "fan_57b_points=5"})
