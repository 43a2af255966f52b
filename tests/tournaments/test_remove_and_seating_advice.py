"""Issue 28: a player registered by mistake is removed before the seating is drawn (page
with confirmation and Cancel, and DELETE on the API), only by the tournament's organizer; 17
players get advice (register 3 substitutes, or remove 1 player) on the manage page and when
drawing; the repeat pairs of a draw are shown beside the fewest possible."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tests.tournaments.fixtures import player_ids
from tournaments import services
from tournaments.problem_texts import error_message, seating_advice
from tournaments.rules.seating_draw import repeat_pairs_bound

pytestmark = pytest.mark.django_db


def test_seating_advice_and_bound():
    with translation.override("en"):
        assert seating_advice(17) == (
            "17 players cannot be seated at tables of four. Register 3 more substitutes to "
            "fill the last table. Or remove 1 player before the draw.")
        assert seating_advice(18, 1) == (
            "18 players cannot be seated at tables of four. Register 1 more substitute to "
            "fill the last table. Or remove 2 players before the draw.")
        assert seating_advice(16) == seating_advice(15, 1) == ""
        assert error_message("players_not_multiple_of_4", {"players": 17}) == seating_advice(17)
    with translation.override("ru"):
        assert "3" in seating_advice(17) and "17" in seating_advice(17)
    assert repeat_pairs_bound(16, 6) == 24
    assert repeat_pairs_bound(16, 5) == 0
    assert repeat_pairs_bound(20, 7) == 20


def test_remove_before_the_draw_page_and_permissions(make_tournament, organizer,
                                                     other_organizer):
    t = make_tournament("draft", players=17)
    manage = f"/en/tournaments/{t.pk}/manage/"
    client = Client()
    client.force_login(organizer)
    page = client.get(manage).content.decode()
    assert "17 players cannot be seated at tables of four" in page
    assert "Register 3 more substitutes" in page and "Or remove 1 player" in page
    # drawing says the same
    page = client.post(f"/en/tournaments/{t.pk}/seating/", {"seed": 1, "from_session": ""},
                       follow=True).content.decode()
    assert "Register 3 more substitutes" in page
    victim = player_ids(t)[-1]
    url = f"/en/tournaments/{t.pk}/players/{victim}/remove/"
    assert f'data-testid="remove-{victim}"' in client.get(manage).content.decode()
    # someone else cannot
    stranger = Client()
    stranger.force_login(other_organizer)
    assert stranger.get(url).status_code in (403, 404)
    assert stranger.post(url).status_code in (403, 404)
    assert Client().post(url).status_code == 302  # to the login
    assert t.registrations.count() == 17
    confirm = client.get(url).content.decode()
    assert "Player 17" in confirm and "Cancel" in confirm
    assert t.registrations.count() == 17  # asking changes nothing
    page = client.post(url, follow=True).content.decode()
    assert "Player 17 is removed from the tournament." in page
    assert t.registrations.count() == 16
    assert "cannot be seated" not in page


def test_no_removal_after_the_draw(make_tournament, organizer):
    t = make_tournament("draft", players=16)
    services.seating_draw(tournament=t, user=organizer, seed=1)
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/en/tournaments/{t.pk}/manage/").content.decode()
    assert 'data-testid="remove-' not in page
    assert "(the fewest possible: 24)" in page
    victim = player_ids(t)[0]
    response = client.post(f"/en/tournaments/{t.pk}/players/{victim}/remove/")
    assert response.status_code == 400
    assert "withdraw the player instead" in response.content.decode()
    assert t.registrations.count() == 16


def test_api_delete_player(make_tournament, api):
    t = make_tournament("draft", players=17)
    victim = player_ids(t)[-1]
    url = f"/api/v1/tournaments/{t.pk}/players/{victim}"
    for role in ("anonymous", "member", "other", "officer"):
        assert api[role].delete(url).status_code in (401, 403, 404), role
    assert t.registrations.count() == 17
    assert api["organizer"].delete(url).status_code == 204
    assert t.registrations.count() == 16
    assert api["organizer"].delete(url).status_code == 404
    services.seating_draw(tournament=t, user=t.organizer, seed=1)
    response = api["organizer"].delete(f"/api/v1/tournaments/{t.pk}/players/{player_ids(t)[0]}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "seating_drawn"
    assert t.registrations.count() == 16
