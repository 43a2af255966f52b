"""Browser, at a phone's width (390 px): the organizer opens session 1's tables; four
players, each on their own phone, open their table's page from the QR code's address, enter
the hands (one as a winner and points, one as tiles built on the palette and scored while
they are built), see the running total and agree; the organizer's session view shows the table
arrive; the organizer starts the clock and gives a table extra minutes, and the venue's
screen shows them. A submit made while the phone is offline, or whose answer is lost,
is kept in the page, shown as not sent, sent again and applied once. With SCREENSHOT_DIR
set, the pages are saved at 1280 and 390 px (the table's page also in Russian)."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from tests.browser import log_in
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import HandRecord, Session, TableEntry, TableResult

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
    log_in(desk, "org@example.org")
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
    east.locator("tr[data-line]").first.wait_for()  # sent by the script, page loaded again
    # the second hand as tiles: West self-draws, built tile by tile on the palette
    form = east.locator("#add-win")
    form.locator("select[name=seat]").select_option("W")
    form.locator("select[name=from]").select_option("")
    form.locator("#t-tiles summary").click()
    for tile in ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "2s", "3s",
                 "5s", "5s"]:
        form.locator(f'#t-palette [data-add="{tile}"]').click()
    assert form.locator("#t-built .t-drawn").count() == 14
    score = form.locator("#t-score .t-scored")
    score.wait_for()
    assert score.inner_text().startswith("16 points: ")
    assert form.locator("input[name=points]").input_value() == "16"
    _shot(east, "table-entry-tiles")
    east.set_viewport_size(PHONE)
    form.get_by_role("button", name="Add the win").click()
    east.locator("tr[data-line]").nth(1).wait_for()
    assert east.locator('[data-total="E"]').inner_text() == "10"
    assert east.locator('[data-total="W"]').inner_text() == "64"
    entry = TableEntry.objects.get(tournament=tournament, session=1, table=1)
    assert entry.hands[1]["tiles"] == "123m456p789s12355s" and entry.hands[1]["points"] == 16
    assert east.locator("tr[data-line]").count() == 2
    assert desk.evaluate("document.documentElement.scrollWidth") <= 1280
    assert east.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    desk.reload()
    assert desk.locator('[data-table="1"]').get_attribute("data-state") == "entered"

    for index, (_context, page) in enumerate(phones):
        page.reload()
        buttons = page.locator(".t-agree button")
        buttons.nth(index).click()
        # the page's script sends the agreement and loads the page again
        if index < 3:
            expect(page.locator('.t-agree button[aria-pressed="true"]')).to_have_count(
                index + 1)
        else:
            page.get_by_text("All four players agreed").wait_for()
        if index == 0:
            _shot(page, "table-entry-phone")
            page.set_viewport_size(PHONE)
    last = phones[3][1]
    assert "the table is submitted" in last.content()
    assert TableResult.objects.filter(tournament=tournament, session=1, table=1).count() == 4
    assert Session.objects.get(tournament=tournament, number=1).source == "table"
    hand = HandRecord.objects.get(tournament=tournament, session=1, table=1, number=2)
    assert hand.tiles == "123m456p789s12355s" and hand.points == 16 and hand.fans

    desk.reload()
    assert desk.locator('[data-table="1"]').get_attribute("data-state") == "agreed"
    assert "entered at the table" in desk.locator('[data-table="1"]').inner_text()
    desk.get_by_role("button", name="Start the clock").click()
    desk.wait_for_load_state()
    desk.locator("input[name=table]").fill("2")
    desk.get_by_role("spinbutton", name="Extra minutes").fill("5")
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


def _accredited_with_tables(organizer_email: str = "org2@example.org"):
    organizer = UserFactory(email=organizer_email)
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    officer = UserFactory(email="acc2@example.org")
    officer.groups.add(Group.objects.get(name=services.ROLE_OFFICER))
    tournament = services.tournament_create(organizer=organizer, data={
        "name": "Leiden Autumn Cup", "start_date": datetime.date(2026, 10, 3),
        "end_date": datetime.date(2026, 10, 4), "city": "Leiden", "country": "NL",
        "ruleset": "mcr", "sessions": 6, "planned_players": 16,
    })
    services.players_register(tournament=tournament, user=organizer, entries=[
        services.PlayerEntry(name=n, country="NL") for n in NAMES])
    services.seating_draw(tournament=tournament, user=organizer, seed=5)
    services.tournament_submit(tournament=tournament, user=organizer)
    services.tournament_decide(tournament=tournament, user=officer, decision="accredit",
                               reason="checked")
    tournament.refresh_from_db()
    return services.table_entries_open(tournament=tournament, session=1, user=organizer)[0]


def _add_win(page, seat: str, discarder: str, points: str) -> None:
    form = page.locator("#add-win")
    form.locator("select[name=seat]").select_option(seat)
    form.locator("select[name=from]").select_option(discarder)
    form.locator("input[name=points]").fill(points)
    form.get_by_role("button", name="Add the win").click()


def test_a_submit_made_offline_is_kept_retried_and_applied_once(browser, live_server):
    entry = _accredited_with_tables()
    context = browser.new_context(base_url=live_server.url, locale="en-US", viewport=PHONE,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"/en/tournaments/table/{entry.token}/")

    context.set_offline(True)
    _add_win(page, "E", "S", "10")
    pending = page.locator("#t-pending")
    pending.get_by_text("Not sent yet").wait_for()
    assert "Add the win" in pending.inner_text()
    assert TableEntry.objects.get(pk=entry.pk).hands == []
    _shot(page, "table-entry-offline")
    page.set_viewport_size(PHONE)
    context.set_offline(False)
    page.locator("tr[data-line]").first.wait_for()
    assert page.locator("#t-pending").is_hidden()
    assert len(TableEntry.objects.get(pk=entry.pk).hands) == 1

    # the server applies a submit whose answer is lost; the page sends it again
    lost = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            route.fetch()  # it reaches the server
            lost.append(True)
            route.abort()  # and the phone never hears back
        else:
            route.continue_()

    page.route("**/tournaments/table/**", lose_the_answer)
    _add_win(page, "W", "", "8")
    page.locator("tr[data-line]").nth(1).wait_for()
    assert lost == [True]
    hands = TableEntry.objects.get(pk=entry.pk).hands
    assert [(h["seat"], h["points"]) for h in hands] == [("E", 10), ("W", 8)]
    assert page.locator("tr[data-line]").count() == 2
    assert page.evaluate("window.localStorage.length") == 0
    context.close()


def test_the_table_page_in_russian_at_a_phones_width(browser, live_server):
    entry = _accredited_with_tables("org3@example.org")
    services.table_entry_line_add(entry=entry, line={
        "kind": "win", "seat": "E", "from": "S", "tiles": "[123m,1]456p789s11sEEE",
        "context": {"seat": "E", "prevalent": "E"}, "id": "x1"})
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport=PHONE,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"/ru/tournaments/table/{entry.token}/")
    page.locator("#t-tiles summary").click()
    page.locator("#t-tiles-input").fill("123m456p789s123s5s5x")
    page.locator("#t-score .t-problems").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("html").get_attribute("lang") == "ru"
    _shot(page, "table-entry-ru")
    context.close()


def test_issue_38_a_hand_refused_comes_back_in_the_form_after_the_reload(browser,
                                                                         live_server):
    """Issue 38 (13): with the script on, a hand as tiles the server refused was gone once
    the page reloaded (the page without the script keeps it). It stays in the form, tiles,
    winner and discarder as typed, through reloads, until it is sent again or cleared."""
    entry = _accredited_with_tables("org4@example.org")
    context = browser.new_context(base_url=live_server.url, locale="en-US", viewport=PHONE,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"/en/tournaments/table/{entry.token}/")
    form = page.locator("#add-win")
    form.locator("select[name=seat]").select_option("S")
    form.locator("select[name=from]").select_option("W")
    page.locator("#t-tiles summary").click()
    typed = "123m456p789s123s5s5x"
    page.locator("#t-tiles-input").fill(typed)
    page.locator("#t-score .t-problems").wait_for()
    with page.expect_navigation():
        form.get_by_role("button", name="Add the win").click()
    page.wait_for_load_state()
    assert TableEntry.objects.get(pk=entry.pk).hands == []
    for _ in range(2):  # the reload after the answer, then one more
        expect(page.locator("#t-tiles-input")).to_have_value(typed)
        expect(form.locator("select[name=seat]")).to_have_value("S")
        expect(form.locator("select[name=from]")).to_have_value("W")
        assert page.locator("#t-tiles").get_attribute("open") is not None
        page.locator("#t-score .t-problems").wait_for()  # scored again: still refused
        _shot(page, "table-entry-refused-kept")
        page.set_viewport_size(PHONE)
        page.reload()
    # corrected and sent, the hand is added and the form is empty after the reload
    page.locator("#t-tiles-input").fill("123m456p789s123s55s")
    expect(form.locator("input[name=points]")).not_to_have_value("")
    with page.expect_navigation():
        form.get_by_role("button", name="Add the win").click()
    page.locator("tr[data-line]").first.wait_for()
    assert [h["seat"] for h in TableEntry.objects.get(pk=entry.pk).hands] == ["S"]
    expect(page.locator("#t-tiles-input")).to_have_value("")
    assert page.evaluate("window.localStorage.length") == 0
    context.close()
