"""Issue 41, item 4: French writes the first day of a month as an ordinal, « 1er août 2026 »,
wherever the site writes a date in words: the ``date`` template filter (pages and mails),
``core.dates.date_display`` (PDFs, messages built in Python). Decision 0549."""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path

import pytest
from django.template import engines
from django.utils import translation

from core.dates import date_display
from core.rules.typography import first_of_month_format

ROOT = Path(__file__).resolve().parents[2]


def test_the_french_format_of_a_first_day() -> None:
    assert first_of_month_format("j F Y", "fr") == r"j\e\r F Y"
    assert first_of_month_format("j F Y H:i", "fr") == r"j\e\r F Y H:i"
    assert first_of_month_format("d/m/Y", "fr") == "d/m/Y"  # numeric: 01/08/2026
    assert first_of_month_format("F Y", "fr") == "F Y"
    assert first_of_month_format(r"\j j F", "fr") == r"\j j\e\r F"  # an escaped j is a letter
    assert first_of_month_format("j F Y", "en") == "j F Y"
    assert first_of_month_format("j F Y", "nl") == "j F Y"


def test_date_display_in_french_and_other_languages() -> None:
    with translation.override("fr"):
        assert date_display(date(2026, 8, 1)) == "1er août 2026"
        assert date_display(date(2026, 8, 2)) == "2 août 2026"
        assert date_display(date(2026, 1, 1), "YEAR_MONTH_FORMAT") == "janvier 2026"
        assert date_display(date(2026, 8, 1), "SHORT_DATE_FORMAT") == "01/08/2026"
        assert date_display(datetime(2026, 8, 1, 9, 30), "DATETIME_FORMAT") == "1er août 2026 09:30"
    with translation.override("nl"):
        assert date_display(date(2026, 8, 1)) == "1 augustus 2026"
    with translation.override("en"):
        assert "1er" not in date_display(date(2026, 8, 1))


@pytest.mark.parametrize("language, expected", [("fr", "1er août 2026"), ("nl", "1 augustus 2026"),
                                                ("ru", "1 августа 2026")])
def test_the_date_filter_of_every_template(language, expected) -> None:  # type: ignore[no-untyped-def]
    """No {% load %}: the filter is a builtin, as Django's was."""
    template = engines["django"].from_string('{{ day|date:"DATE_FORMAT" }}|{{ none|date }}')
    with translation.override(language):
        assert template.render({"day": date(2026, 8, 1), "none": None}).startswith(expected)


def test_a_french_tournament_page_and_its_announcement(make_tournament, client) -> None:  # type: ignore[no-untyped-def]
    from tournaments.announcements import announcement_texts

    tournament = make_tournament("accredited", start_date=date(2026, 8, 1),
                                 end_date=date(2026, 8, 2))
    html = client.get(f"/fr/tournaments/{tournament.pk}/").content.decode()
    assert "1er août 2026" in html and "2 août 2026" in html
    assert not re.search(r"(?<!\d)1 août", html)
    texts = announcement_texts(tournament)
    assert "1er août 2026" in texts["fr"][1]
    assert "1er" not in texts["en"][1] and "1er" not in texts["nl"][1]


def test_no_date_written_past_date_display() -> None:
    """One way to write a date: Python code calls core.dates.date_display, not Django's
    date_format (which would write « 1 août »)."""
    calls = []
    packages = [p for p in ROOT.iterdir() if (p / "__init__.py").exists() and p.name != "tests"]
    for path in (f for package in packages for f in package.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative == "core/dates.py":
            continue
        text = path.read_text("utf-8")
        if re.search(r"\bdate_format\(|import date_format", text):
            calls.append(relative)
    assert not calls, calls
