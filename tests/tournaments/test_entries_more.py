"""Issue 24, the rest: the reduced entry fee (claimed by the person, checked by the
organizer), players added by hand take places, the organizer's XLSX export for the venue,
the treasurer's view in the admin's menu (decision 0716)."""

from __future__ import annotations

import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from federation import selectors as federation_selectors
from tests.tournaments import test_entries as base
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

# the entries' fixtures and helper
open_tournament = base.open_tournament
make_member_of = base.make_member_of
enter = base.enter


def today():
    return federation_selectors.today()


# --- the reduced fee ---

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


# --- players added by hand take places ---

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


# --- exports for the venue ---

def test_xlsx_export_for_the_venue(open_tournament, make_user, organizer, other_organizer,
                                   client):
    t = open_tournament()
    person = make_user(email="hostile@example.org")
    enter(t, person, first_name="=HYPERLINK(\"http://evil\",\"x\")", last_name="+1",
          reduced=False)
    url = f"/en/tournaments/{t.pk}/entries.xlsx"
    assert client.get(url).status_code == 302  # anonymous: to the login
    for user in (person, other_organizer):
        client.force_login(user)
        assert client.get(url).status_code == 403
    client.force_login(organizer)
    assert 'id="entries-xlsx"' in client.get(f"/en/tournaments/{t.pk}/entries/").content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(response.content)).active
    header = [c.value for c in sheet[1]]
    assert header[:4] == ["id", "status", "first_name", "last_name"]
    row = {h: c for h, c in zip(header, sheet[2], strict=True)}
    assert row["first_name"].value == "=HYPERLINK(\"http://evil\",\"x\")"
    assert row["first_name"].data_type == "s" and row["last_name"].data_type == "s"
    assert row["email"].value == "hostile@example.org"
    assert row["fee"].value == 30.0 and row["paid"].value == "no"


def test_csv_export_has_the_reduced_column(open_tournament, make_user, organizer, client):
    t = open_tournament(fee_reduced=Decimal("10.00"))
    enter(t, make_user(), reduced=True)
    client.force_login(organizer)
    lines = client.get(f"/en/tournaments/{t.pk}/entries.csv").content.decode().splitlines()
    header, row = lines[0].split(","), lines[1].split(",")
    assert row[header.index("reduced")] == "yes" and row[header.index("fee")] == "10.00"


# --- the treasurer's view ---

def test_treasurer_finds_entry_fees_in_the_admin_menu(open_tournament, make_user, organizer,
                                                      client):
    treasurer = make_user()
    treasurer.groups.add(Group.objects.get(name="Treasurer"))
    client.force_login(treasurer)
    admin = client.get("/admin/").content.decode()
    assert "tournaments/entry-fees/" in admin  # the sidebar's menu (JSON in the page)
    officer = make_user(services.ROLE_OFFICER)
    client.force_login(officer)
    admin = client.get("/admin/")
    assert admin.status_code == 200 and "/tournaments/entry-fees/" not in admin.content.decode()


def test_treasurer_view_costs_the_same_with_ten_times_the_tournaments(
        open_tournament, make_user, organizer, client):
    treasurer = make_user()
    treasurer.groups.add(Group.objects.get(name="Treasurer"))
    client.force_login(treasurer)

    def tournaments(count):
        for _ in range(count):
            t = open_tournament()
            paid = enter(t, make_user())
            enter(t, make_user())
            services.entry_cash_record(entry=paid, user=organizer)

    def queries():
        with CaptureQueriesContext(connection) as context:
            response = client.get("/en/tournaments/entry-fees/")
        assert response.status_code == 200
        return len(context.captured_queries), response.content.decode()

    tournaments(1)
    client.get("/en/tournaments/entry-fees/")
    small, _ = queries()
    tournaments(9)
    large, content = queries()
    assert large == small, (small, large)
    assert content.count("30.00 EUR") == 20  # collected and open of each of the ten
    assert today() < open_tournament().start_date - timedelta(days=1)


@pytest.mark.parametrize("url", ["/en/tournaments/{pk}/entries/", "/en/tournaments/{pk}/entrants/",
                                 "/en/tournaments/{pk}/entries.xlsx"])
def test_entries_pages_cost_the_same_with_ten_times_the_entries(
        open_tournament, make_user, organizer, client, url):
    t = open_tournament(max_players=30, fee_reduced=Decimal("10.00"))
    services.players_register(tournament=t, user=organizer,
                              entries=[services.PlayerEntry(name="Hand One", country="NL")])
    url = url.format(pk=t.pk)
    client.force_login(organizer)

    def entries(count):
        for i in range(count):
            entry = enter(t, make_user(), reduced=i % 2 == 0)
            if i % 3 == 0:
                services.entry_cash_record(entry=entry, user=organizer)

    def queries():
        with CaptureQueriesContext(connection) as context:
            response = client.get(url)
        assert response.status_code == 200
        return len(context.captured_queries)

    entries(2)
    client.get(url)
    small = queries()
    entries(18)
    assert queries() == small
