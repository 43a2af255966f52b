"""Browser: the organizer pages through their own tournaments on the calendar, at a
phone's and a desktop's width (decision 0823). With SCREENSHOT_DIR set, each width is
saved in English and Russian."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from tests.browser import log_in
from tests.factories import UserFactory
from tests.tournaments.test_my_tournaments import _own
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_organizer_pages_through_their_tournaments(browser, live_server, width):
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    _own(organizer, 35)  # 30 a page: two pages
    context = browser.new_context(base_url=live_server.url,
                                  viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, "org@example.org")
    folder = os.environ.get("SCREENSHOT_DIR")
    for lang in ("en", "ru"):
        page.goto(f"/{lang}/tournaments/")
        mine = page.locator("section[aria-labelledby=mine]")
        assert mine.locator(".t-card").count() == 30
        assert mine.get_by_text("Own 034").is_visible()
        mine.locator("a[rel=next]").click()
        page.wait_for_load_state()
        assert page.url.endswith("?mine=2#mine")
        mine = page.locator("section[aria-labelledby=mine]")
        assert mine.locator(".t-card").count() == 5
        assert mine.get_by_text("Own 000").is_visible()
        assert mine.locator("a[rel=prev]").is_visible()
        # nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{folder}/mine-{lang}-{width}.png", full_page=True)
    context.close()
