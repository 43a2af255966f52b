"""Browser journey of the reduced entry fee (decision 0716): a student claims it on the
entry form, the organizer does not grant it on the entries page, the student's own entry
then shows the full fee's invoice; the organizer's page offers the CSV and XLSX exports.
Screenshots (1280 and 390 px, English and French) in the system's temporary folder,
entries/."""

from __future__ import annotations

import re
import tempfile
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from federation import selectors as federation_selectors
from tests.browser import log_in
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(tempfile.gettempdir()) / "entries"


def test_reduced_fee_claimed_then_not_granted(browser, browser_page, live_server):
    today = federation_selectors.today()
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    officer = UserFactory(email="acc@example.org")
    officer.groups.add(Group.objects.get(name=services.ROLE_OFFICER))
    UserFactory(email="student@example.org")
    t = services.tournament_create(organizer=organizer, data={
        "name": "Leiden Student Open", "start_date": today + timedelta(days=30),
        "end_date": today + timedelta(days=31), "city": "Leiden", "country": "NL",
        "ruleset": "mcr", "sessions": 6, "planned_players": 16, "max_players": 8,
        "fee_member": Decimal("20.00"), "fee_other": Decimal("30.00"),
        "fee_reduced": Decimal("10.00"), "reduced_for": "Students with a valid card",
        "currency": "EUR",
    })
    t, _checks = services.tournament_submit(tournament=t, user=organizer)
    t = services.tournament_decide(tournament=t, user=officer, decision="accredit")

    page = browser_page
    log_in(page, "student@example.org")
    page.goto(f"/en/tournaments/{t.pk}/entrants/")
    assert "Students with a valid card" in page.inner_text("#fee-reduced")
    page.fill("input[name=first_name]", "Sara")
    page.fill("input[name=last_name]", "de Boer")
    page.select_option("select[name=country]", "NL")
    page.check("input[name=reduced]")
    page.click("#enter-button")
    page.wait_for_load_state()
    entry = Entry.objects.get(tournament=t)
    assert entry.reduced and entry.invoice.amount == Decimal("10.00")
    first_invoice = entry.invoice.number

    organizer_context = browser.new_context(base_url=live_server.url, locale="en-US")
    org = organizer_context.new_page()
    log_in(org, "org@example.org")
    org.goto(f"/en/tournaments/{t.pk}/entries/")
    assert org.locator(f"#entry-{entry.pk} .t-badge").inner_text() == "reduced"
    assert org.locator("#entries-xlsx").get_attribute("href").endswith("/entries.xlsx")
    with org.expect_download() as download:
        org.click("#entries-xlsx")
    assert download.value.suggested_filename == f"tournament-{t.pk}-entries.xlsx"
    org.click(f"#entry-{entry.pk} button[value=full_fee]")
    org.wait_for_load_state()
    assert "30.00 open" in org.inner_text(f"#entry-{entry.pk}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for language in ("en", "fr"):
        for width in (1280, 390):
            org.set_viewport_size({"width": width, "height": 900})
            org.goto(f"/{language}/tournaments/{t.pk}/entries/")
            org.screenshot(path=str(SHOTS / f"entries-{language}-{width}.png"), full_page=True)
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"/{language}/tournaments/{t.pk}/entrants/")
            page.screenshot(path=str(SHOTS / f"entrants-{language}-{width}.png"),
                            full_page=True)
    organizer_context.close()

    page.goto(f"/en/tournaments/{t.pk}/entrants/")
    page.click("#pay-entry")
    page.wait_for_url(re.compile(r"/en/members/invoices/"))
    entry.refresh_from_db()
    assert entry.invoice.number != first_invoice and entry.invoice.amount == Decimal("30.00")
    assert entry.invoice.number in page.url
