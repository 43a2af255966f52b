"""The hand archive as a reader uses it (issue 40), in Chromium at 390 and 1280 px: from the
player page to the game page, on to head-to-head; the tournament's hands page; nothing wider
than the screen."""

from __future__ import annotations

import pytest

from tests.tournaments.test_hand_stats import played  # noqa: F401  (fixture)
from tournaments.models import TableResult

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.mark.parametrize("width", [390, 1280])
def test_player_game_head_to_head_and_hands(live_server, browser_page, played, width):  # noqa: F811
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    seats = dict(TableResult.objects.filter(tournament=played, session=1, table=1)
                 .values_list("seat", "player_id"))
    page.goto(f"{live_server.url}/en/ratings/players/{seats['E']}/")
    with page.expect_navigation(wait_until="load"):  # style sheets too, before widths
        page.get_by_test_id("game-link").get_by_role("link").click()
    won = page.get_by_test_id("stat-cards").locator("li").nth(1)
    assert won.locator(".stat-value").inner_text() == "3"  # east won 3 of the 5 hands
    assert "60.0 %" in won.inner_text()
    assert page.get_by_test_id("hand").inner_text().startswith("10 points")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    with page.expect_navigation(wait_until="load"):
        page.get_by_test_id("opponents").get_by_role("link", name="Head-to-head").first.click()
    summary = page.get_by_test_id("h2h-summary").inner_text()
    assert "session" in summary
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto(f"{live_server.url}/ru/tournaments/{played.pk}/hands/")
    prizes = page.get_by_test_id("prizes").inner_text()
    assert "Лучшая рука" in prizes and "24" in prizes
    assert page.evaluate("document.documentElement.scrollWidth") <= width
