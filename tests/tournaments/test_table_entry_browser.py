"""Browser, at a phone's width (390 px): the organizer opens session 1's tables; four
players, each on their own phone, open their table's page from the QR code's address, enter
the hands, see the running total and agree; the organizer's session view shows the table
arrive; the organizer starts the clock and gives a table extra minutes, and the venue's
screen shows them. With SCREENSHOT_DIR set, the pages are saved at 1280 and 390 px."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournaments import services
from tournaments.models import Session, TableEntry, TableResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna Lee", "Jan de Vries", "Piet Bakker", "Wang Fang", "Olga Ivanova", "Li Wei",
         "Marie Dubois", "Sven Olsen", "Chen Jie", "Eva Novak", "Tom Berg", "Sara Kim",
         "Igor Petrov", "Lena Vos", "Zhou Min", "Paul Roux"]
PHONE = {"width": 390, "height": 844}


def _shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=f"{folder}/{name}-{width}.png", full_page=True)


def test_four_players_enter_and_agree_and_the_organizer_sees_the_table(browser, live_server):
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    officer = UserFactory(email="acc@example.org")
    officer.groups.add(Group.objects.get(name=services.ROLE_OFFICER))
    tournament = services.tournament_create(organizer=organizer, data={
        "name": "Utrecht Spring Open", "start_date": datetime.date(2026, 4, 11),
        "end_date": datetime.date(2026, 4, 12), "city": "Utrecht", "country": "NL",
        "ruleset": "mcr", "sessions": 6, "planned_players": 16,
    })
    services.players_register(tournament=tournament, user=organizer, entries=[
        services.PlayerEntry(name=n, country="NL") for n in NAMES])
    services.seating_draw(tournament=tournament, user=organizer, seed=3)
    services.tournament_submit(tournament=tournament, user=organizer)
    services.tournament_decide(tournament=tournament, user=officer, decision="accredit",
                               reason="checked")

    desk_context = browser.new_context(base_url=live_server.url, locale="en-US")
    desk = desk_context.new_page()
    desk.set_default_timeout(15_000)
    desk.goto("/en/accounts/login/")
    desk.fill("input[name=login]", "org@example.org")
    desk.fill("input[name=password]", DEFAULT_PASSWORD)
    desk.locator("form:has(input[name=password]) [type=submit]").click()
    desk.wait_for_load_state()
    desk.goto(f"/en/tournaments/{tournament.pk}/sessions/1/")
    desk.get_by_role("button", name="Open the tables for entry at the table").click()
    desk.wait_for_load_state()
    assert desk.locator(".t-qr svg").count() == 4
    assert desk.locator('[data-table="1"]').get_attribute("data-state") == "missing"
    _shot(desk, "table-entry-session")
    token = TableEntry.objects.get(tournament=tournament, session=1, table=1).token
    href = desk.locator('[data-table="1"] .t-qr a').get_attribute("href")
    assert href.endswith(f"/en/tournaments/table/{token}/")
    path = f"/en/tournaments/table/{token}/"

    phones = []
    for _seat in range(4):
        context = browser.new_context(base_url=live_server.url, locale="en-US",
                                      viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(path)
        phones.append((context, page))
    east = phones[0][1]
    form = east.locator("#add-win")
    form.locator("select[name=seat]").select_option("E")
    form.locator("select[name=from]").select_option("S")
    form.locator("input[name=points]").fill("10")
    form.get_by_role("button", name="Add the win").click()
    east.wait_for_load_state()
    form = east.locator("#add-win")
    form.locator("select[name=seat]").select_option("W")
    form.locator("select[name=from]").select_option("")
    form.locator("input[name=points]").fill("8")
    form.get_by_role("button", name="Add the win").click()
    east.wait_for_load_state()
    assert east.locator('[data-total="E"]').inner_text() == "18"
    assert east.locator('[data-total="W"]').inner_text() == "40"
    assert east.locator("tr[data-line]").count() == 2
    assert desk.evaluate("document.documentElement.scrollWidth") <= 1280
    assert east.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    desk.reload()
    assert desk.locator('[data-table="1"]').get_attribute("data-state") == "entered"

    for index, (_context, page) in enumerate(phones):
        page.reload()
        buttons = page.locator(".t-agree button")
        buttons.nth(index).click()
        page.wait_for_load_state()
        if index == 0:
            _shot(page, "table-entry-phone")
            page.set_viewport_size(PHONE)
    last = phones[3][1]
    assert "the table is submitted" in last.content()
    assert TableResult.objects.filter(tournament=tournament, session=1, table=1).count() == 4
    assert Session.objects.get(tournament=tournament, number=1).source == "table"

    desk.reload()
    assert desk.locator('[data-table="1"]').get_attribute("data-state") == "agreed"
    assert "entered at the table" in desk.locator('[data-table="1"]').inner_text()
    desk.get_by_role("button", name="Start the clock").click()
    desk.wait_for_load_state()
    desk.locator("input[name=table]").fill("2")
    desk.locator("input[name=minutes]").fill("5")
    desk.get_by_role("button", name="Give extra minutes").click()
    desk.wait_for_load_state()
    _shot(desk, "table-entry-session-after")
    desk.set_viewport_size({"width": 1280, "height": 900})
    desk.goto(f"/en/tournaments/{tournament.pk}/sessions/1/clock/")
    assert "Playing" in desk.content() and "Table 2 (+5 min)" in desk.content()
    _shot(desk, "session-clock")
    for context, _page in phones:
        context.close()
    desk_context.close()
