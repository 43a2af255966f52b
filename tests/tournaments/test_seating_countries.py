"""Compatriots kept apart in the seating draw (issue 23): the tournament setting, the API's
``separate_countries`` option and ``country_pairs`` answer, the organizer's form."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import SeatingAssignment, Tournament

pytestmark = pytest.mark.django_db

COUNTRIES = ("NL", "FR", "DE", "RU")


@pytest.fixture
def clients(organizer, other_organizer, officer, member_user):
    out = {"anonymous": Client()}
    for role, user in (("member", member_user), ("other", other_organizer),
                       ("organizer", organizer), ("officer", officer)):
        out[role] = Client()
        out[role].force_login(user)
    return out


@pytest.fixture
def four_countries(make_tournament, organizer):
    """An accredited tournament of 32 players, eight from each of four countries, six
    sessions."""
    t = make_tournament("accredited")
    services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name=f"Player {i:02d}", country=COUNTRIES[i % 4])
        for i in range(32)
    ])
    return t


def compatriots_together(body: dict, t: Tournament) -> int:
    country = dict(t.registrations.values_list("player_id", "player__country"))
    return sum(
        1
        for session in body["sessions"]
        for table in session["tables"]
        for a, b in itertools.combinations(table["seats"].values(), 2)
        if country[a] == country[b]
    )


def test_api_separates_compatriots_and_counts_them(api, four_countries):
    t = four_countries
    url = f"/api/v1/tournaments/{t.pk}/seating"
    apart = api["organizer"].post(url, {"seed": 3, "separate_countries": True}, format="json")
    assert apart.status_code == 200
    body = apart.json()
    assert body["separate_countries"] is True
    assert body["country_pairs"] == 0 == compatriots_together(body, t)
    assert body["repeat_pairs"] == 0 and len(body["sessions"]) == 6
    assert api["anonymous"].get(url).json()["country_pairs"] == 0
    # the option is kept as the tournament's setting: a draw without it keeps them apart
    again = api["organizer"].post(url, {"seed": 4}, format="json").json()
    assert again["separate_countries"] is True and again["country_pairs"] == 0
    mixed = api["organizer"].post(url, {"seed": 4, "separate_countries": False},
                                  format="json").json()
    assert mixed["separate_countries"] is False
    assert mixed["country_pairs"] == compatriots_together(mixed, t) > 0
    t.refresh_from_db()
    assert not t.seating_separate_countries and t.seating_country_pairs == mixed["country_pairs"]


def test_api_refuses_a_bad_option_and_changes_nothing(api, four_countries):
    t = four_countries
    url = f"/api/v1/tournaments/{t.pk}/seating"
    response = api["organizer"].post(url, {"seed": 3, "separate_countries": "perhaps"},
                                     format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "separate_countries"
    t.refresh_from_db()
    assert not t.seating_separate_countries and t.seating_seed is None
    assert not SeatingAssignment.objects.filter(tournament=t).exists()


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("officer", 403), ("organizer", 200)
])
def test_api_option_permission(api, four_countries, role, code):
    t = four_countries
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/seating",
                              {"seed": 3, "separate_countries": True}, format="json")
    assert response.status_code == code
    t.refresh_from_db()
    assert t.seating_separate_countries is (code == 200)


def test_redraw_from_a_session_keeps_the_earlier_ones_and_counts_all(api, four_countries,
                                                                     organizer):
    t = four_countries
    url = f"/api/v1/tournaments/{t.pk}/seating"
    first = api["organizer"].post(url, {"seed": 5}, format="json").json()
    redrawn = api["organizer"].post(
        url, {"seed": 6, "from_session": 4, "separate_countries": True}, format="json").json()
    assert redrawn["sessions"][:3] == first["sessions"][:3]
    assert redrawn["sessions"][3:] != first["sessions"][3:]
    # counted over every session of the seating, the kept ones included
    assert redrawn["country_pairs"] == compatriots_together(redrawn, t)
    later = {"sessions": redrawn["sessions"][3:]}
    assert compatriots_together(later, t) < compatriots_together(
        {"sessions": first["sessions"][3:]}, t)


def test_organizer_form_has_the_checkbox_and_keeps_the_setting(clients, four_countries):
    t = four_countries
    page = clients["organizer"].get(f"/en/tournaments/{t.pk}/manage/").content.decode()
    assert 'name="separate_countries"' in page and "Keep compatriots apart" in page
    assert "Houd landgenoten uit elkaar" in clients["organizer"].get(
        f"/nl/tournaments/{t.pk}/manage/").content.decode()
    response = clients["organizer"].post(f"/en/tournaments/{t.pk}/seating/",
                                         {"seed": "2", "separate_countries": "on"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.seating_separate_countries and t.seating_country_pairs == 0
    page = clients["organizer"].get(f"/en/tournaments/{t.pk}/manage/").content.decode()
    assert "Compatriots sit at one table 0 times" in page
    assert 'name="separate_countries" checked' in page or (
        'checked' in page.split('name="separate_countries"')[1].split(">")[0])


@pytest.mark.parametrize("role", ["anonymous", "member", "other", "officer"])
def test_only_the_organizer_changes_the_setting_through_the_page(clients, four_countries, role):
    t = four_countries
    response = clients[role].post(f"/en/tournaments/{t.pk}/seating/",
                                  {"seed": "2", "separate_countries": "on"})
    assert response.status_code in (302, 403, 404)
    if role == "anonymous":
        assert "/login" in response["Location"] or "login" in response["Location"]
    t.refresh_from_db()
    assert not t.seating_separate_countries and t.seating_seed is None
