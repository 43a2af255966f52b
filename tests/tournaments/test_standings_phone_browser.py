"""Issue 38 (7) in a real browser: on a phone (390 px) the standings show each player's rank,
name and points without scrolling sideways, the sessions scrolling under the name; at 1280 px
in English the last session's column is not cut off. Screenshots go to
/tmp/shots/standings-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournaments.fixtures import session_payload
from tournaments import services
from tournaments.models import Player
from tournaments.rules.results_files import parse_results_json

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots")


@pytest.fixture
def season(make_tournament, organizer):
    tournament = make_tournament("accredited", players=16, sessions=10,
                                 name="Utrecht Spring Open")
    payload = {"sessions": [session_payload(tournament, s, points=(123, 12, -35, -100))
                            for s in range(1, 11)]}
    parsed, problems = parse_results_json(payload)
    assert not problems
    services.results_record(tournament=tournament, user=organizer, sessions=parsed)
    longest = Player.objects.filter(registrations__tournament=tournament).order_by("pk").first()
    longest.name_latin = "Alexandra-Margarethe van der Westhuizen-Kovalevskaya"
    longest.save()
    return tournament


def _box(page, selector):
    return page.locator(selector).first.bounding_box()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_on_a_phone_rank_name_and_points_are_seen_without_scrolling(browser_page, season,
                                                                   language) -> None:
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/{language}/tournaments/{season.pk}/standings/")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"standings-{language}-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    table = page.locator("table.t-standings")
    for row in (table.locator("tbody tr").first, table.locator("tbody tr").nth(7)):
        for cell in ("td.rank", "td.name", "td.tp", "td.gp"):
            box = row.locator(cell).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (cell, box)
    # the sessions scroll in their own box, the rank and the name staying in view
    page.locator(".t-scroll").first.evaluate("box => box.scrollLeft = box.scrollWidth")
    page.screenshot(path=str(SHOTS / f"standings-{language}-390-scrolled.png"), full_page=True)
    first = table.locator("tbody tr").first
    assert first.locator("td.name").bounding_box()["x"] >= 0
    last_session = first.locator("td.session").last.bounding_box()
    assert last_session["x"] + last_session["width"] <= 390


def test_at_1280_in_english_the_last_session_is_not_cut_off(browser_page, season) -> None:
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/en/tournaments/{season.pk}/standings/")
    page.screenshot(path=str(SHOTS / "standings-en-1280.png"), full_page=True)
    box = page.locator(".t-scroll").first
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth")
    last = page.locator("table.t-standings thead th").last
    assert last.inner_text() == "S10"
    right = last.bounding_box()
    assert right["x"] + right["width"] <= box.bounding_box()["x"] + box.bounding_box()["width"]
