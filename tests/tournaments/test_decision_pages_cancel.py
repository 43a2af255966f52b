"""The organizer's pages that ask for a decision: each has a Cancel back to where the
organizer came from (and only the organizer reaches them)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.fixtures import player_ids

pytestmark = pytest.mark.django_db


def _cancel(html: str) -> str | None:
    found = re.search(r'<a class="button button-secondary" href="([^"]+)">Cancel</a>', html)
    return found.group(1) if found else None


def test_decision_pages_have_a_cancel(make_tournament, organizer, other_organizer):
    t = make_tournament("accredited", players=16)
    client = Client()
    client.force_login(organizer)
    manage = f"/en/tournaments/{t.pk}/manage/"
    pages = {
        "/en/tournaments/new/": "/en/tournaments/",
        f"/en/tournaments/{t.pk}/edit/": manage,
        f"/en/tournaments/{t.pk}/sessions/1/sheet/": manage + "#results",
        f"/en/tournaments/{t.pk}/upload/": manage + "#results",
        f"/en/tournaments/{t.pk}/players/{player_ids(t)[0]}/withdraw/": manage + "#players",
    }
    for path, back in pages.items():
        response = client.get(path)
        if response.status_code == 302:  # an accredited tournament is no longer edited
            continue
        assert response.status_code == 200, path
        assert _cancel(response.content.decode()) == back, path
    # someone else's organizer gets none of the tournament's pages
    stranger = Client()
    stranger.force_login(other_organizer)
    for path in list(pages)[1:]:
        assert stranger.get(path).status_code in (403, 404), path


def test_edit_page_of_a_draft_has_a_cancel(make_tournament, organizer):
    t = make_tournament("draft")
    client = Client()
    client.force_login(organizer)
    html = client.get(f"/en/tournaments/{t.pk}/edit/").content.decode()
    assert _cancel(html) == f"/en/tournaments/{t.pk}/manage/"
