"""The reduced entry fee: claimed by the person at entry, checked by the organizer, invoiced
(and kept from a waiting entry until it moves up)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core import mail

from tests.tournaments import test_entries as base
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

# the entries' fixtures and helper (tests/tournaments/test_entries.py)
open_tournament = base.open_tournament
make_member_of = base.make_member_of
enter = base.enter


def test_reduced_fee_is_claimed_at_entry_and_invoiced(open_tournament, make_user,
                                                      make_member_of):
    t = open_tournament(max_players=5, fee_reduced=Decimal("10.00"),
                        reduced_for="Juniors under 18, students")
    guest = enter(t, make_user(), reduced=True)
    assert guest.reduced and guest.fee == Decimal("10.00")
    assert guest.invoice.amount == Decimal("10.00")
    full = enter(t, make_user())
    assert not full.reduced and full.fee == Decimal("30.00")
    # the lower price wins: a member's own price below the reduced one stays
    t2 = open_tournament(max_players=5, fee_member=Decimal("5.00"),
                         fee_reduced=Decimal("10.00"))
    member = make_user()
    make_member_of(member)
    assert enter(t2, member, reduced=True).fee == Decimal("5.00")


def test_no_reduced_fee_to_claim_is_refused_on_its_field(open_tournament, make_user, api):
    t = open_tournament()
    with pytest.raises(TournamentError) as err:
        enter(t, make_user(), reduced=True)
    assert err.value.code == "no_reduced_fee" and err.value.params["field"] == "reduced"
    response = api["member"].post(f"/api/v1/tournaments/{t.pk}/entries", {
        "first_name": "Anna", "last_name": "Kowalska", "country": "PL", "reduced": True,
    }, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "reduced"
    assert not Entry.objects.filter(tournament=t).exists()


def test_api_takes_the_reduced_fee(api, open_tournament):
    body = {
        "name": "Open", "start_date": "2027-06-06", "end_date": "2027-06-07", "city": "Utrecht",
        "country": "NL", "ruleset": "mcr", "sessions": 7, "planned_players": 20,
        "fee_member": "25.00", "fee_other": "35.00", "fee_reduced": "12.50",
        "reduced_for": "Students",
    }
    response = api["organizer"].post("/api/v1/tournaments", body, format="json")
    assert response.status_code == 201
    assert (response.json()["fee_reduced"], response.json()["reduced_for"]) == (
        "12.50", "Students")
    bad = api["organizer"].post("/api/v1/tournaments", {**body, "fee_reduced": "-1"},
                                format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "fee_reduced"
    t = open_tournament(fee_reduced=Decimal("10.00"))
    response = api["member"].post(f"/api/v1/tournaments/{t.pk}/entries", {
        "first_name": "Anna", "last_name": "Kowalska", "country": "PL", "reduced": True,
    }, format="json")
    assert response.status_code == 201
    assert (response.json()["fee"], response.json()["reduced"]) == ("10.00", True)


def test_entry_form_offers_the_reduced_fee_with_who_qualifies(open_tournament, make_user,
                                                               client):
    t = open_tournament(fee_reduced=Decimal("10.00"), reduced_for="Students with a card")
    person = make_user()
    client.force_login(person)
    page = client.get(f"/en/tournaments/{t.pk}/entrants/").content.decode()
    assert 'name="reduced"' in page and "Students with a card" in page
    assert 'id="fee-reduced">10.00 EUR (Students with a card)' in page
    response = client.post(f"/en/tournaments/{t.pk}/enter/", {
        "first_name": "Anna", "last_name": "Kowalska", "country": "PL", "reduced": "on"})
    assert response.status_code == 302
    assert Entry.objects.get(user=person).fee == Decimal("10.00")
    plain = open_tournament()
    assert 'name="reduced"' not in client.get(
        f"/en/tournaments/{plain.pk}/entrants/").content.decode()


def test_organizer_does_not_grant_the_reduction(open_tournament, make_user, organizer,
                                                other_organizer, client,
                                                django_capture_on_commit_callbacks):
    t = open_tournament(fee_reduced=Decimal("10.00"))
    person = make_user(email="student@example.org", language="fr")
    entry = enter(t, person, reduced=True)
    old_invoice = entry.invoice
    url = f"/en/tournaments/{t.pk}/entries/{entry.pk}/"
    for user in (person, other_organizer):
        client.force_login(user)
        assert client.post(url, {"action": "full_fee"}).status_code == 403
    client.force_login(organizer)
    assert "Full fee: does not qualify" in client.get(
        f"/en/tournaments/{t.pk}/entries/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"action": "full_fee"}).status_code == 302
    entry.refresh_from_db()
    old_invoice.refresh_from_db()
    assert not entry.reduced and entry.fee == Decimal("30.00")
    assert old_invoice.cancelled and entry.invoice.amount == Decimal("30.00")
    [message] = mail.outbox
    assert message.to == ["student@example.org"] and entry.invoice.number in message.body
    assert "tarif réduit" in message.body and "inscription" in message.subject  # French
    # twice: nothing to change
    with pytest.raises(TournamentError):
        services.entry_full_fee(entry=entry, user=organizer)


def test_full_fee_once_something_is_paid_is_refused(open_tournament, make_user, organizer):
    t = open_tournament(fee_reduced=Decimal("10.00"))
    entry = enter(t, make_user(), reduced=True)
    services.entry_cash_record(entry=entry, user=organizer, amount=Decimal("5.00"))
    with pytest.raises(TournamentError) as err:
        services.entry_full_fee(entry=entry, user=organizer)
    assert err.value.code == "reduced_fee_paid"
    entry.refresh_from_db()
    assert entry.reduced and entry.fee == Decimal("10.00") and not entry.invoice.cancelled


def test_waiting_entry_at_full_fee_gets_no_invoice_until_it_moves_up(
        open_tournament, make_user, organizer):
    t = open_tournament(max_players=1, fee_reduced=Decimal("10.00"))
    first = enter(t, make_user())
    waiting = enter(t, make_user(), reduced=True)
    services.entry_full_fee(entry=waiting, user=organizer)
    waiting.refresh_from_db()
    assert waiting.status == "waiting" and waiting.invoice is None
    services.entry_withdraw(entry=first, user=first.user)
    waiting.refresh_from_db()
    assert waiting.status == "entered" and waiting.invoice.amount == Decimal("30.00")
