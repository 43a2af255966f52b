"""Every error of the scoring core has words in every language of the site.

The core's reasons come from the core itself (``REASONS``) and from its source: every
``NotationError("reason", ...)`` and ``ScoreError.of("reason", ...)``, with the params
that call gives, is read with ``ast``, so a reason raised with a param its words do not
get, or words for a reason the core never gives, fail here.
"""

from __future__ import annotations

import ast
import string
from collections import defaultdict
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from rulebook.error_texts import CODE_TEXT, REASON_TEXT, error_text, reason_text
from rulebook.scoring import score
from rulebook.scoring.errors import REASONS, NotationError
from rulebook.scoring.hand import parse_hand
from rulebook.scoring.result import ScoreError

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "rulebook" / "scoring"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
# a value for each param of the core's errors
SAMPLE: dict[str, object] = {
    "tile": "5s", "name": "bogus", "letter": "m", "rank": 8, "char": "x", "melds": 2,
    "expected": 8, "found": 7, "points": 5, "minimum": 8, "doublings": 0, "players": 3,
    "seats": "E, S, W", "seat": "N", "direction": "left", "east": "left", "known": "a, b",
    "value": 7, "allowed": "5 or 6", "example": 5, "rules": "bogus",
}


def _raised() -> tuple[dict[str, list[set[str]]], set[str]]:
    """The reasons the core's source raises, with the params of each call; and every
    string constant of the source (a reason may be handed on before it is raised)."""
    calls: dict[str, list[set[str]]] = defaultdict(list)
    constants: set[str] = set()
    for path in CORE.rglob("*.py"):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                f"{func.value.id}.{func.attr}" if isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name) else "")
            first = node.args[0]
            if name in ("NotationError", "ScoreError.of") and isinstance(first, ast.Constant):
                calls[first.value].append({k.arg for k in node.keywords if k.arg})
    return calls, constants


CALLS, CONSTANTS = _raised()


def _params(reason: str) -> dict[str, object]:
    names = set().union(*CALLS.get(reason, [set()]))
    return {name: SAMPLE[name] for name in names}


def _msgids(words: object) -> list[tuple[str, str | None]]:
    """(msgid, msgid_plural) of a lazy translation (gettext_lazy, ngettext_lazy)."""
    args, kw = getattr(words, "_args", ()), getattr(words, "_kw", {})
    if "singular" in kw:
        return [(kw["singular"], kw["plural"])]
    assert args and isinstance(args[0], str), f"not a lazy translation: {words!r}"
    return [(args[0], None)]


def test_every_reason_is_raised_and_every_raise_has_its_reason() -> None:
    assert set(CALLS) <= set(REASONS), sorted(set(CALLS) - set(REASONS))
    never = sorted(r for r in REASONS if r not in CALLS and r not in CONSTANTS)
    assert not never, f"reasons the core never gives: {never}"
    assert set().union(*(p for sites in CALLS.values() for p in sites)) <= set(SAMPLE)


def test_the_english_message_is_made_of_the_params_of_each_call() -> None:
    for reason, sites in CALLS.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(REASONS[reason].message) if f}
        for params in sites:
            assert fields <= params, (reason, fields - params)
            NotationError(reason, None, **{k: SAMPLE[k] for k in params})


def test_an_error_carries_code_reason_and_params() -> None:
    result = score("123m456p789s5s5s5s5s5s")
    assert result.error is not None
    assert (result.error.code, result.error.reason) == ("too_many_copies", "fifth_copy")
    assert result.error.params == {"tile": "5s"}
    assert result.error.message == "a fifth 5s"
    assert result.error.to_dict() == {"code": "too_many_copies", "message": "a fifth 5s",
                                      "position": 20}
    with pytest.raises(NotationError) as raised:
        parse_hand("[555s,4]123m456p789s5m5m")
    assert (raised.value.code, raised.value.reason) == ("malformed_meld", "pung_marker")
    assert raised.value.position == 6 and raised.value.params == {}


def test_every_reason_has_words_in_every_language() -> None:
    assert set(REASON_TEXT) == set(REASONS)
    for reason in REASONS:
        error = ScoreError.of(reason, None, **_params(reason))
        with translation.override("en"):
            english = reason_text(error)
        assert english and "%(" not in english, reason
        for language in LANGUAGES:
            with translation.override(language):
                words = reason_text(error)
            assert words and "%(" not in words, (reason, language)
            if language != "en":
                assert words != english, (reason, language, words)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_translates_every_reason_and_its_plurals(language: str) -> None:
    po_path = ROOT / "locale" / language.replace("-hans", "_Hans") / "LC_MESSAGES" / "django.po"
    catalogue = polib.pofile(str(po_path))
    entries = {entry.msgid: entry for entry in catalogue if not entry.obsolete}
    plurals = int(catalogue.metadata["Plural-Forms"].split("nplurals=")[1].split(";")[0])
    for reason, words in REASON_TEXT.items():
        for msgid, msgid_plural in _msgids(words):
            entry = entries.get(msgid)
            assert entry is not None, (reason, msgid)
            assert entry.translated(), (reason, msgid)
            if msgid_plural is not None:
                assert entry.msgid_plural == msgid_plural, (reason, msgid)
                assert len(entry.msgstr_plural) == plurals, (reason, msgid)


def test_the_plural_follows_the_number() -> None:
    error = ScoreError.of("points_below_minimum", points=1, minimum=8)
    with translation.override("en"):
        assert reason_text(error) == "1 point without flowers; a win needs 8."
        many = ScoreError.of("points_below_minimum", points=5, minimum=8)
        assert reason_text(many) == "5 points without flowers; a win needs 8."
    with translation.override("ru"):
        forms = {reason_text(ScoreError.of("points_below_minimum", points=n, minimum=8))
                 for n in (1, 2, 5)}
    assert len(forms) == 3


def test_every_code_has_a_title_in_every_language() -> None:
    codes = {reason.code for reason in REASONS.values()} | {"bad_request"}
    assert codes <= set(CODE_TEXT)
    for code in codes:
        with translation.override("en"):
            english = str(CODE_TEXT[code])
        for language in LANGUAGES:
            with translation.override(language):
                title = str(CODE_TEXT[code])
            assert title, (code, language)
            if language != "en":
                assert title != english, (code, language)


def test_the_tile_of_a_reason_is_named_in_the_language() -> None:
    error = ScoreError.of("flower_given_twice", tile="f1")
    with translation.override("en"):
        text = error_text(error)
    assert text.title == "These win conditions do not go together."
    assert text.detail is not None and "f1" not in text.detail
    assert text.technical == "flower 'f1' given twice"
