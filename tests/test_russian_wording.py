"""Issue 38 (13): the Russian texts say "сессия" for a session (not "тур" beside it for the
same thing), and need no gender ("Согласен", "отсутствовал", "выбыл" read wrong for women)."""

from __future__ import annotations

import re
from pathlib import Path

import polib

RU = Path(__file__).resolve().parents[1] / "locale/ru/LC_MESSAGES/django.po"
TOUR = re.compile(r"\b[Тт]ур(а|ы|ов|е|ом|у|ам|ах)?\b")
GENDERED = re.compile(r"\b(Согласен|согласен|отсутствовал|выбыл|снят\(а\))\b")


def _texts(entry: polib.POEntry) -> list[str]:
    return [entry.msgstr, *entry.msgstr_plural.values()]


def test_a_session_is_a_session_in_russian() -> None:
    wrong = [entry.msgid for entry in polib.pofile(str(RU))
             if "session" in entry.msgid.lower() and not entry.obsolete
             and any(TOUR.search(text) for text in _texts(entry))]
    assert wrong == []


def test_the_russian_words_for_players_need_no_gender() -> None:
    wrong = [(entry.msgid, text) for entry in polib.pofile(str(RU)) if not entry.obsolete
             for text in _texts(entry) if GENDERED.search(text)]
    assert wrong == []
