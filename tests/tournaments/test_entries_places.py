"""Players the organizer adds by hand take places beside the entries: the places left, the
waiting list, entries registered once, the public list."""

from __future__ import annotations

import pytest

from tests.tournaments import test_entries as base
from tournaments import selectors, services

pytestmark = pytest.mark.django_db

# the entries' fixtures and helper (tests/tournaments/test_entries.py)
open_tournament = base.open_tournament
enter = base.enter


def test_players_added_by_hand_take_places(open_tournament, make_user, organizer, client):
    t = open_tournament(max_players=3)
    services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name="Hand One", country="NL"),
        services.PlayerEntry(name="Hand Two", country="NL"),
        services.PlayerEntry(name="Reserve", country="NL", substitute=True),
    ])
    assert selectors.places_taken(t) == 2 and selectors.places_left(t) == 1
    last = enter(t, make_user())
    waiting = enter(t, make_user())
    assert (last.status, waiting.status) == ("entered", "waiting")
    page = client.get(f"/en/tournaments/{t.pk}/entrants/").content.decode()
    assert '<dd id="places">0 places of 3 left</dd>' in page
    # a hand-added player removed before the start: the first waiting moves up
    services.registration_remove(registration=t.registrations.get(player__name_latin="Hand One"),
                                 user=organizer)
    waiting.refresh_from_db()
    assert waiting.status == "entered" and waiting.invoice is not None


def test_registered_entries_count_once(open_tournament, make_user, organizer):
    t = open_tournament(max_players=2)
    first = enter(t, make_user())
    services.entry_decide(entry=first, user=organizer, decision="confirm")
    assert services.entries_register(tournament=t, user=organizer) == 1
    first.refresh_from_db()
    assert first.registration.tournament == t
    assert selectors.places_taken(t) == 1
    assert enter(t, make_user(), first_name="Jan").status == "entered"
    assert enter(t, make_user(), first_name="Piet").status == "waiting"
    # registering again adds nobody and counts nobody twice
    assert services.entries_register(tournament=t, user=organizer) == 0
    assert selectors.places_taken(t) == 2


def test_an_entry_registered_by_hand_before_takes_that_registration(
        open_tournament, make_user, organizer):
    t = open_tournament(max_players=3)
    services.players_register(tournament=t, user=organizer,
                              entries=[services.PlayerEntry(name="Anna Kowalska",
                                                            country="PL")])
    entry = enter(t, make_user())
    assert selectors.places_taken(t) == 2  # the same person twice, until registered
    services.entry_decide(entry=entry, user=organizer, decision="confirm")
    assert services.entries_register(tournament=t, user=organizer) == 0
    entry.refresh_from_db()
    assert entry.registration is not None
    assert t.registrations.count() == 1 and selectors.places_taken(t) == 1


def test_api_public_list_counts_places_with_hand_added_players(open_tournament, make_user,
                                                                organizer, api):
    t = open_tournament(max_players=1)
    services.players_register(tournament=t, user=organizer,
                              entries=[services.PlayerEntry(name="Hand One", country="NL")])
    response = api["member"].post(f"/api/v1/tournaments/{t.pk}/entries", {
        "first_name": "Anna", "last_name": "Kowalska", "country": "PL"}, format="json")
    assert response.status_code == 201 and response.json()["status"] == "waiting"
