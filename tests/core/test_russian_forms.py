"""Issue 41, item 10: the Russian interface says «сессия» (never «тур»), does not assume the
reader is a man, and names one's own waiting-list status as such."""

from __future__ import annotations

import re
from pathlib import Path

import polib
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
MASCULINE_ONLY = re.compile(r"\b(Согласен|отсутствовал|выбыл|снят\(а\))\b|\bтур(а|е|ов|ы|ом|у)?\b")


def test_no_tour_and_no_wording_that_assumes_a_man() -> None:
    catalogue = polib.pofile(str(ROOT / "locale/ru/LC_MESSAGES/django.po"))
    wrong = [
        (entry.msgid, text) for entry in catalogue
        for text in [entry.msgstr, *entry.msgstr_plural.values()] if MASCULINE_ONLY.search(text)
    ]
    assert not wrong, wrong[:10]


def test_ones_own_waiting_list_status() -> None:
    from tournaments.models import Entry

    with translation.override("ru"):
        assert str(Entry.Status.WAITING.label) == "В листе ожидания"
        assert translation.gettext("Waiting") == "Ожидают"  # the mail and task counters
    with translation.override("en"):
        assert str(Entry.Status.WAITING.label) == "Waiting"
