"""What the organizer and the treasurer read about the entries: the XLSX and CSV exports for
the venue, the treasurer's entry fees in the admin's menu (decision 0716), and what these
pages cost in queries."""

from __future__ import annotations

import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from federation import selectors as federation_selectors
from tests.tournaments import test_entries as base
from tournaments import services

pytestmark = pytest.mark.django_db

# the entries' fixtures and helper (tests/tournaments/test_entries.py)
open_tournament = base.open_tournament
enter = base.enter


def today():
    return federation_selectors.today()


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
