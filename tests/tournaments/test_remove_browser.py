"""Browser, issue 28: with 17 players the manage page says what to do (register 3
substitutes, or remove 1 player); the organizer removes the wrongly registered one through
the confirmation page (Cancel first, then Remove), at phone width.

With SCREENSHOT_DIR set, the manage page and the confirmation are saved at 1280 and 390 px
in English and Russian."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from tests.browser import log_in
from tests.factories import UserFactory
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def test_remove_a_wrongly_registered_player(browser, live_server):
    import datetime

    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    t = services.tournament_create(organizer=organizer, data={
        "name": "Kazan Open", "start_date": datetime.date(2026, 4, 11),
        "end_date": datetime.date(2026, 4, 12), "city": "Kazan", "country": "RU",
        "venue": "Hall", "ruleset": "mcr", "sessions": 6, "planned_players": 16,
    })
    services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name=f"Player {i:02d}", country="RU") for i in range(1, 18)])
    wrong = t.registrations.get(number=17).player_id
    folder = os.environ.get("SCREENSHOT_DIR")
    for language in ("en", "ru"):
        for width in (1280, 390):
            context = browser.new_context(base_url=live_server.url,
                                          viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(15_000)
            log_in(page, "org@example.org")
            page.goto(f"/{language}/tournaments/{t.pk}/manage/")
            advice = page.locator("#seating-advice")
            assert advice.is_visible()
            assert "17" in advice.inner_text() and "3" in advice.inner_text()
            if folder:
                Path(folder).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{folder}/manage-17-{language}-{width}.png",
                                full_page=True)
            page.get_by_test_id(f"remove-{wrong}").click()
            page.wait_for_load_state()
            if folder:
                page.screenshot(path=f"{folder}/remove-{language}-{width}.png", full_page=True)
            context.close()
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, "org@example.org")
    page.goto(f"/en/tournaments/{t.pk}/players/{wrong}/remove/")
    page.get_by_role("link", name="Cancel").click()
    page.wait_for_load_state()
    assert t.registrations.count() == 17
    page.get_by_test_id(f"remove-{wrong}").click()
    page.get_by_role("button", name="Remove").click()
    page.wait_for_load_state()
    assert "Player 17 is removed from the tournament." in page.content()
    assert page.locator("#seating-advice").count() == 0
    assert t.registrations.count() == 16
    context.close()
