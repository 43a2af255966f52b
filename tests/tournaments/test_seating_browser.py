"""Browser: the organizer draws the seating keeping compatriots apart (issue 23).

With SCREENSHOT_DIR set, the manage page's seating section is saved at 1280 and 390 px
width in English and Dutch (to look at, not to assert on).
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from tests.browser import log_in
from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COUNTRIES = ("NL", "FR", "DE", "BE")



def test_organizer_keeps_compatriots_apart(browser, browser_page, live_server):
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    tournament = services.tournament_create(organizer=organizer, data={
        "name": "Four Nations Cup", "start_date": datetime.date(2026, 5, 9),
        "end_date": datetime.date(2026, 5, 10), "city": "Breda", "country": "NL",
        "venue": "Chassé", "ruleset": "mcr", "sessions": 6, "planned_players": 32,
    })
    services.players_register(tournament=tournament, user=organizer, entries=[
        services.PlayerEntry(name=f"Player {i:02d}", country=COUNTRIES[i % 4])
        for i in range(32)])

    page = browser_page
    log_in(page, "org@example.org")
    page.goto(f"/en/tournaments/{tournament.pk}/manage/#seating")
    box = page.get_by_label("Keep compatriots apart")
    assert not box.is_checked()
    box.check()
    page.get_by_role("button", name="Draw the seating").click()
    page.wait_for_load_state()
    assert "Compatriots sit at one table 0 times" in page.content()
    assert page.get_by_label("Keep compatriots apart").is_checked()  # kept as the setting
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert tournament.seating_separate_countries and tournament.seating_country_pairs == 0

    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for lang in ("en", "nl"):
            for width in (1280, 390):
                context = browser.new_context(base_url=live_server.url,
                                              viewport={"width": width, "height": 900})
                shot = context.new_page()
                log_in(shot, "org@example.org")
                shot.goto(f"/{lang}/tournaments/{tournament.pk}/manage/")
                shot.locator("section:has(#seating)").screenshot(
                    path=f"{folder}/seating-{lang}-{width}.png")
                context.close()
