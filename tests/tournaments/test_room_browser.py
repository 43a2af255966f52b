"""Browser (issue 38): a player finds their table and seat wind on "Where do I sit" at a
phone's width and at 1280 px; the room screen at both widths: its content follows new
results without reloading the page, a wide screen shows one slide at a time, a phone every
part below the other, and the clock warns the room in the last minutes.

With SCREENSHOT_DIR set, both pages are saved at 1280 and 390 px in English and Russian."""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser import log_in
from tests.tournaments.test_room import _post_session
from tournaments import services
from tournaments.models import SeatingAssignment, SessionClock, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
NAMES = ["Anna de Vries", "Natalia Kovaleva", "Jan Jansen", "Wei Zhang", "Marie Dubois",
         "Pieter Bakker", "Olga Smirnova", "Lucas Martin", "Sanne Visser", "Ivan Sokolov",
         "Chen Li", "Emma Leroy", "Daan Mulder", "Irina Volkova", "Tom Peeters",
         "Sophie Laurent"]


@pytest.fixture
def tournament(make_tournament, organizer):
    t = make_tournament("accredited", name="Dutch Open", hide_last_sessions=1)
    services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name=n, country="NL") for n in NAMES])
    services.seating_draw(tournament=t, user=organizer, seed=7)
    services.seating_publish(tournament=t, user=organizer, through=t.sessions)
    return t


def _shots(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    size, url = page.viewport_size, page.url
    for lang in ("en", "ru"):
        for width, height in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url.replace("/en/", f"/{lang}/"))
            page.wait_for_timeout(300)
            page.screenshot(path=f"{folder}/{name}-{lang}-{width}.png", full_page=True)
    page.set_viewport_size(size)
    page.goto(url)


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [390, 1280])
def test_a_player_finds_table_and_wind_without_logging_in(browser_page, tournament, width):
    page = browser_page
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"/en/tournaments/{tournament.pk}/")
    page.get_by_test_id("seats-link").click()
    page.wait_for_load_state()
    reg = tournament.registrations.get(player__name_latin="Natalia Kovaleva")
    page.get_by_label("Your name", exact=True).select_option(str(reg.player_id))
    page.get_by_role("button", name="Show my seats").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name=f"No. {reg.number} Natalia Kovaleva").is_visible()
    for session in (1, 6):
        seat = SeatingAssignment.objects.get(tournament=tournament, session=session,
                                             player_id=reg.player_id)
        card = page.get_by_test_id(f"session-{session}")
        text = card.inner_text()
        assert f"Table {seat.table}" in text and WIND_NAMES[seat.seat] in text
        assert card.locator(".t-seat-others li").count() == 3
    _no_sideways_scroll(page)
    # typed: part of a name, in any case
    page.get_by_label("Or type part of your name").fill("kovalev")
    page.get_by_role("button", name="Find").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("session-1").is_visible()
    _no_sideways_scroll(page)
    if width == 390:
        _shots(page, "seats")


def test_room_screen_follows_results_and_warns_before_time_is_up(
        browser, live_server, tournament, organizer, monkeypatch):
    monkeypatch.setattr("tournaments.views.room.ROOM_REFRESH_SECONDS", 1)
    monkeypatch.setattr("tournaments.views.room.ROOM_SLIDE_SECONDS", 2)
    monkeypatch.setattr("tournaments.views.room.ROOM_STANDINGS_ROWS", 8)
    clock = services.session_clock_start(tournament=tournament, session=1, user=organizer)
    SessionClock.objects.filter(pk=clock.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=150 - 12))
    context = browser.new_context(base_url=live_server.url, locale="en-US",
                                  viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"/en/tournaments/{tournament.pk}/room/")
        assert page.get_by_role("heading", name="Session 1", exact=True).is_visible()
        assert "Seating, session 1" in page.inner_text("#room")
        assert not page.get_by_test_id("clock-warning").is_visible()
        page.evaluate("window.roomMarker = 42")
        # 12 minutes left: two minutes later (the clock moved on) the room is warned
        SessionClock.objects.filter(pk=clock.pk).update(
            started_at=timezone.now() - datetime.timedelta(minutes=150 - 9))
        page.get_by_test_id("clock-warning").wait_for(state="visible")
        assert "At most 10 minutes to play." in page.get_by_test_id("clock-warning").inner_text()
        shown = page.locator(".room-time").inner_text()
        page.wait_for_timeout(1500)
        assert page.locator(".room-time").inner_text() != shown  # counting down
        # session 1's results come in: the standings appear without a reload
        SessionClock.objects.filter(pk=clock.pk).update(started_at=None, elapsed=150 * 60)
        _post_session(tournament, 1, organizer)
        page.locator("[data-testid=room-standings]").first.wait_for(state="attached")
        assert page.evaluate("window.roomMarker") == 42  # the same page: fetched, not reloaded
        page.locator(".room-live[data-session='2']").wait_for(state="attached")
        slides = page.locator(".room-slide")
        assert slides.count() == 3  # session 2's 4 tables, 16 standings rows on two pages
        visible = [slides.nth(i).is_visible() for i in range(slides.count())]
        assert visible.count(True) == 1  # one slide at a time on the projector
        first = visible.index(True)
        expect(slides.nth(first)).not_to_have_class(re.compile("is-current"), timeout=10_000)
        _no_sideways_scroll(page)
        # a phone: every part below the other
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        assert all(slides.nth(i).is_visible() for i in range(slides.count()))
        _no_sideways_scroll(page)
        folder = os.environ.get("SCREENSHOT_DIR")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            for lang in ("en", "ru"):
                for width, height in ((1280, 800), (390, 844)):
                    page.set_viewport_size({"width": width, "height": height})
                    page.goto(f"/{lang}/tournaments/{tournament.pk}/room/?session=1")
                    page.wait_for_timeout(300)
                    page.screenshot(path=f"{folder}/room-{lang}-{width}.png", full_page=True)
            SessionClock.objects.filter(pk=clock.pk).update(
                started_at=timezone.now() - datetime.timedelta(minutes=150 - 5), elapsed=0)
            page.set_viewport_size({"width": 1280, "height": 800})
            page.goto(f"/en/tournaments/{tournament.pk}/room/?session=1")
            page.wait_for_timeout(300)
            page.screenshot(path=f"{folder}/room-warning-en-1280.png")
            page.set_viewport_size({"width": 390, "height": 844})
            page.goto(f"/ru/tournaments/{tournament.pk}/room/?session=1")
            page.wait_for_timeout(300)
            page.screenshot(path=f"{folder}/room-warning-ru-390.png")
            page.set_viewport_size({"width": 1280, "height": 800})
            page.goto(f"/en/tournaments/{tournament.pk}/room/?session=2")
            expect(page.locator(".room-standings").first).to_have_class(
                re.compile("is-current"), timeout=10_000)
            assert "Standings after session 1" in page.inner_text("#room")
            page.screenshot(path=f"{folder}/room-standings-en-1280.png")
    finally:  # the page stops polling before the test's database goes
        for open_page in context.pages:
            open_page.goto("about:blank")
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_organizer_publishes_part_of_the_seating_and_players_see_only_that(
        browser, live_server, tournament, organizer, width):
    context = browser.new_context(base_url=live_server.url, locale="en-US",
                                  viewport={"width": width, "height": 900})
    page = context.new_page()
    log_in(page, organizer.email)
    page.goto(f"/en/tournaments/{tournament.pk}/manage/#seating")
    page.get_by_label("Published").select_option(label="sessions 1 to 3")
    page.get_by_role("button", name="Publish the seating").click()
    page.wait_for_load_state()
    assert "The seating of sessions 1 to 3 is published." in page.content()
    assert "sessions 1 to 3" in page.get_by_test_id("published").inner_text()
    assert Tournament.objects.get(pk=tournament.pk).seating_published == 3
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.locator("section:has(#seating)").screenshot(
            path=f"{folder}/manage-seating-en-{width}.png")
    context.close()
    public = browser.new_context(base_url=live_server.url, locale="en-US",
                                 viewport={"width": width, "height": 900}).new_page()
    reg = tournament.registrations.order_by("number")[0]
    public.goto(f"/en/tournaments/{tournament.pk}/seats/?player={reg.player_id}")
    for session in (1, 2, 3):
        assert "Table " in public.get_by_test_id(f"session-{session}").inner_text()
    for session in (4, 5, 6):
        assert public.get_by_test_id(f"session-{session}").inner_text().endswith(
            "Not published yet")
    _no_sideways_scroll(public)
    public.context.close()
