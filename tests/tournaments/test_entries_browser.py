"""Browser journey of issue 24: a member enters a tournament, pays online with the test
provider and sees "paid" on the public list; a second person lands on the waiting list and
moves up when the first withdraws.

With SCREENSHOT_DIR set, the entrants page and the organizer's entries page are saved at
1280 and 390 px width."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group

from federation import selectors as federation_selectors
from federation.models import Member, MembershipType
from tests.browser import log_in
from tests.factories import UserFactory
from tests.tournaments.test_tournament_browser import _shots
from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_member_enters_pays_online_second_waits_and_moves_up(
    browser, browser_page, live_server, settings
):
    settings.MEMBERSHIP_SITE_URL = live_server.url
    today = federation_selectors.today()
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    officer = UserFactory(email="acc@example.org")
    officer.groups.add(Group.objects.get(name=services.ROLE_OFFICER))
    member_user = UserFactory(email="anna@example.org")
    honorary, _ = MembershipType.objects.get_or_create(kind="honorary",
                                                       defaults={"is_free": True})
    Member.objects.create(user=member_user, name_native="Anna Lee", name_latin="Anna Lee",
                          country="NL", membership_type=honorary, membership_number=1,
                          application=Member.Application.APPROVED, joined_on=today)
    second = UserFactory(email="jan@example.org")
    t = services.tournament_create(organizer=organizer, data={
        "name": "Utrecht Entry Open", "start_date": today + timedelta(days=30),
        "end_date": today + timedelta(days=31), "city": "Utrecht", "country": "NL",
        "ruleset": "mcr", "sessions": 6, "planned_players": 16, "max_players": 1,
        "fee_member": Decimal("20.00"), "fee_other": Decimal("30.00"), "currency": "EUR",
    })
    t, _checks = services.tournament_submit(tournament=t, user=organizer)
    t = services.tournament_decide(tournament=t, user=officer, decision="accredit")

    page = browser_page
    log_in(page, "anna@example.org")
    page.goto(f"/en/tournaments/{t.pk}/")
    page.click("#enter-link")
    assert page.input_value("input[name=first_name]") == "Anna"  # filled from the record
    assert page.input_value("input[name=last_name]") == "Lee"
    page.click("#enter-button")
    page.wait_for_load_state()
    assert "not paid yet" in page.inner_text("#own-status")
    page.click("#pay-entry")
    page.click("#pay-online")
    page.wait_for_url(re.compile(r"/en/members/pay/"))
    page.select_option("select[name=status]", "confirmed")
    page.select_option("select[name=fraud_status]", "accept")
    page.select_option("select[name=gateway_response]", "3ds-disabled")
    page.click("#online-pay-submit")
    page.wait_for_url(re.compile(r"/en/members/invoices/"))
    assert page.inner_text("#invoice-state") == "Paid"
    page.goto(f"/en/tournaments/{t.pk}/entrants/")
    assert page.inner_text("#entrants-list .entry-state") == "paid"

    other = browser.new_context(base_url=live_server.url, locale="en-US")
    jan = other.new_page()
    log_in(jan, "jan@example.org")
    jan.goto(f"/en/tournaments/{t.pk}/entrants/")
    jan.fill("input[name=first_name]", "Jan")
    jan.fill("input[name=last_name]", "de Vries")
    jan.select_option("select[name=country]", "NL")
    jan.click("#enter-button")
    jan.wait_for_load_state()
    assert jan.inner_text("#own-status").startswith("Waiting")

    page.goto(f"/en/tournaments/{t.pk}/entrants/")
    assert not page.is_visible("#withdraw")  # one click opens the question, not the deed
    page.click("#withdraw-entry summary")
    page.click("#withdraw")
    page.wait_for_load_state()
    jan.reload()
    assert jan.inner_text("#own-status").startswith("Entered")
    assert Entry.objects.get(user=second).invoice is not None
    other.close()

    _shots(browser, live_server, "entrants", f"/en/tournaments/{t.pk}/entrants/")
    # the organizer's page needs the organizer's session: screenshots through a login
    import os
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        for width in (1280, 390):
            context = browser.new_context(base_url=live_server.url,
                                          viewport={"width": width, "height": 900})
            shot = context.new_page()
            log_in(shot, "org@example.org")
            shot.goto(f"/en/tournaments/{t.pk}/entries/")
            shot.screenshot(path=f"{folder}/entries-{width}.png", full_page=True)
            shot.goto(f"/en/tournaments/{t.pk}/entrants/")
            shot.screenshot(path=f"{folder}/entrants-organizer-{width}.png", full_page=True)
            context.close()
