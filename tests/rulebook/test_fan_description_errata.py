"""Issue 41, item 1: the fan table's descriptions no longer repeat the source table's
errors; a description that changes what a rule says carries an erratum note in its
language."""

import json
from pathlib import Path

import pytest

from rulebook.book_data import fan_rows

DATA = Path(__file__).resolve().parents[2] / "rulebook" / "data"
FANS = {f["id"]: f for f in json.loads((DATA / "mcr_fans.json").read_text("utf-8"))["fans"]}

WRONG = [
    ("17", "en", "Concealed Kongs"),
    ("1", "en", "of of"),
    ("81", "en", "Winder"),
    ("15", "nl", "pungeb"),
    ("71", "nl", "TTwee"),
    ("19", "nl", "kong bijzitten"),
    ("34", "nl", "zie 45"),
    ("3", "fr", "entièrement verte."),
    ("25", "fr", "quelque soient"),
    ("34", "fr", "6 des 7 honneurs"),
]


@pytest.mark.parametrize(("fan", "language", "wrong"), WRONG)
def test_the_source_tables_error_is_not_shown(fan, language, wrong):
    assert wrong not in FANS[fan][language]["description"]


def test_fan_28_in_dutch_names_its_one_to_nine_condition():
    assert "1 tot 9" in FANS["28"]["nl"]["description"]


def test_fan_55_in_dutch_asks_terminals_or_honours():
    assert "hoekstenen of troefstenen" in FANS["55"]["definition_nl"]


@pytest.mark.parametrize(("fan", "language"), [("17", "en"), ("19", "nl"), ("28", "nl"),
                                               ("34", "nl"), ("34", "fr")])
def test_a_corrected_rule_carries_its_erratum_note_in_its_language_only(fan, language):
    rows = {r.language: r.fields for r in fan_rows("mcr", ["ru", "en", "fr", "nl"]) if r.code == fan}
    assert "FT-" in rows[language]["note"]
    assert rows["ru"]["note"] == ""
