"""The MERS flag and weight of a tournament (decision 0806): set by the accreditation
officer only, shown on the tournament endpoints."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_officer_accredits_with_the_mers_weight(api, make_tournament):
    t = make_tournament("submitted")
    body = api["officer"].post(f"/api/v1/tournaments/{t.pk}/decision",
                               {"decision": "accredit", "mers": True, "mers_weight": 2.5},
                               format="json").json()
    assert body["state"] == "accredited"
    assert body["mers"] is True and body["mers_weight"] == 2.5
    t.refresh_from_db()
    assert t.mers and t.mers_weight == Decimal("2.50")
    public = api["anonymous"].get(f"/api/v1/tournaments/{t.pk}").json()
    assert public["mers"] is True and public["mers_weight"] == 2.5
    listed = api["anonymous"].get("/api/v1/tournaments").json()
    assert listed[0]["mers_weight"] == 2.5


def test_a_mers_tournament_needs_its_weight_the_error_names_the_field(api, make_tournament):
    t = make_tournament("submitted")
    response = api["officer"].post(f"/api/v1/tournaments/{t.pk}/decision",
                                   {"decision": "accredit", "mers": True}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "mers_weight"
    bad = api["officer"].post(f"/api/v1/tournaments/{t.pk}/mers",
                              {"mers": True, "mers_weight": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "mers_weight"
    t.refresh_from_db()
    assert t.state == "submitted" and not t.mers


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("organizer", 403), ("officer", 200)
])
def test_only_the_officer_sets_mers(api, make_tournament, role, code):
    t = make_tournament("accredited", players=16)
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/mers",
                              {"mers": True, "mers_weight": "2"}, format="json")
    assert response.status_code == code
    t.refresh_from_db()
    assert t.mers is (code == 200)


def test_the_organizer_cannot_set_mers_through_the_tournament_fields(api):
    response = api["organizer"].post("/api/v1/tournaments", {
        "name": "Open", "start_date": "2026-06-06", "end_date": "2026-06-07",
        "city": "Utrecht", "country": "nl", "ruleset": "mcr", "sessions": 7,
        "planned_players": 20, "mers": True, "mers_weight": 3,
    }, format="json")
    assert response.status_code == 201
    tournament = Tournament.objects.get(pk=response.json()["id"])
    assert not tournament.mers and tournament.mers_weight is None


def test_withdrawing_mers_clears_the_weight(api, make_tournament):
    t = make_tournament("accredited", players=16)
    api["officer"].post(f"/api/v1/tournaments/{t.pk}/mers", {"mers": True, "mers_weight": 2},
                        format="json")
    body = api["officer"].post(f"/api/v1/tournaments/{t.pk}/mers", {"mers": False},
                               format="json").json()
    assert body["mers"] is False and body["mers_weight"] is None


def test_the_officer_sets_mers_in_the_admin_decision_form(client, make_tournament, officer):
    t = make_tournament("submitted")
    client.force_login(officer)
    page = client.get(f"/admin/tournaments/{t.pk}/decide/").content.decode()
    assert 'name="mers"' in page and 'name="mers_weight"' in page
    missing = client.post(f"/admin/tournaments/{t.pk}/decide/",
                          {"decision": "accredit", "reason": "", "mers": "on"})
    assert missing.status_code == 200
    t.refresh_from_db()
    assert t.state == "submitted"
    client.post(f"/admin/tournaments/{t.pk}/decide/",
                {"decision": "accredit", "reason": "", "mers": "on", "mers_weight": "3.5"})
    t.refresh_from_db()
    assert t.state == "accredited" and t.mers and t.mers_weight == Decimal("3.5")
