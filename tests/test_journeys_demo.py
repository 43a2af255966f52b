"""Journeys through the demo federation in a real browser (Playwright, Debian's Chromium):
a visitor follows the home page to a player, their tournament and its standings; the
accreditation officer finds a submitted tournament on the dashboard and accredits it."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import transaction

from config import demo
from ratings.selectors import list_leaders
from tests.db_snapshot import loaded_or_restored
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_site(site_content, _load_snapshots):
    """The demo federation, committed: loaded once per process, its rows restored after."""
    with transaction.atomic():
        report = loaded_or_restored(_load_snapshots, "demo", demo.demo_federation_load)
    cache.clear()
    return report


def test_a_visitor_goes_from_the_home_page_to_a_player_and_their_tournament(
        browser_page, demo_site) -> None:
    page = browser_page
    page.goto("/en/")
    ratings = page.get_by_role("region", name=re.compile("Rating list"))
    best_entry, best = list_leaders(limit=1).rows[0]  # type: ignore[union-attr]
    ratings.get_by_role("link", name=str(best)).click()
    page.wait_for_url(f"**/en/ratings/players/{best.pk}/")
    assert page.locator("h1").inner_text() == str(best)
    assert page.locator(".now-rating").inner_text().strip() == str(round(best_entry.rating))

    # the player's latest tournament, then its standings, then a rival from them
    played = page.locator(".tournament-table tbody tr").first.get_by_role("link")
    name = played.inner_text()
    played.click()
    page.wait_for_url(re.compile(r"/en/tournaments/\d+/standings/$"))
    assert page.locator("h1").inner_text() == name
    assert page.get_by_role("cell", name=str(best)).count() == 1
    rival = page.locator("td.name a").filter(has_not_text=str(best)).first
    rival_name = rival.inner_text()
    rival.click()
    page.wait_for_url(re.compile(r"/en/ratings/players/\d+/$"))
    assert page.locator("h1").inner_text() == rival_name


def test_the_officer_accredits_the_waiting_tournament_from_the_dashboard(
        browser_page, demo_site) -> None:
    page = browser_page
    page.goto("/en/accounts/login/")
    page.get_by_label("Email").fill("officer@example.org")
    page.get_by_label("Password").fill(demo.DEMO_PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.goto("/admin/")
    waiting = page.locator("tr.dashboard-task", has_text="Tournaments awaiting accreditation")
    assert waiting.locator(".dashboard-task-count").inner_text() == "1"
    waiting.get_by_role("link").click()
    page.get_by_role("link", name="Decide").first.click()
    page.get_by_role("button", name="Accredit").click()
    page.wait_for_load_state()
    assert Tournament.objects.get(name="Amsterdam Spring Open").state == "accredited"
    page.goto("/admin/")
    waiting = page.locator("tr.dashboard-task", has_text="Tournaments awaiting accreditation")
    assert waiting.locator(".dashboard-task-count").inner_text() == "0"
    # and the tournament is now on the public calendar
    page.goto("/en/tournaments/")
    assert page.get_by_role("link", name="Amsterdam Spring Open").is_visible()
