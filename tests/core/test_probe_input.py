"""The second probe's wrong answers, 500s and stalls from input (issue 37, items 7, 9, 11-17;
docs/reliability.md): each test failed before its fix."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ratings.services import ratings_recompute
from tournaments.models import Player

pytestmark = pytest.mark.django_db

SEMICOLON_FORMULA = "Anna;=cmd|' /C calc'!A0;x"


def _login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- 9. formulas after a separator other than ours ---------------------------------------------


def _formula_cells(content: bytes) -> list[str]:
    """The cells a spreadsheet that splits lines on `;` (or tab) would read as formulas."""
    found = []
    for line in content.decode().splitlines():
        for cell in re.split(r"[;\t]", line):
            cell = cell.strip().strip('"').strip()
            if cell[:1] in ("=", "+", "@", "|", "%") or re.match(r"-[^\d.]", cell):
                found.append(cell)
    return found


def test_no_export_hands_a_formula_to_a_semicolon_spreadsheet(organizer, make_tournament):
    t = make_tournament("results confirmed", players=16)
    player = Player.objects.get(pk=t.registrations.order_by("number")[0].player_id)
    player.name_latin = SEMICOLON_FORMULA
    player.save()
    ratings_recompute()
    client = _login(organizer)
    period = f"{t.end_date:%Y-%m}"
    answers = {
        "standings": client.get(f"/en/tournaments/{t.pk}/standings.csv"),
        "ema results": client.get(f"/en/tournaments/{t.pk}/ema-results.csv"),
        "ratings": client.get(f"/en/ratings/csv/?period={period}"),
        "history": client.get("/en/ratings/history.csv"),
    }
    for name, response in answers.items():
        assert response.status_code == 200, name
        content = (b"".join(response.streaming_content) if response.streaming
                   else response.content)
        assert b"Anna;" in content, name
        assert _formula_cells(content) == [], name
