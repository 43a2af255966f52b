"""Browser, issue 28: on a phone (390 px) the score sheet's player selects show the whole
name of the selected player ("4. Sergei Ivanov-Petrovsky"), not "4. Serg"; the page has a
Cancel back to the manage page.

With SCREENSHOT_DIR set, the sheet is saved at 1280 and 390 px in English and Russian."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from tests.browser import log_in
from tests.factories import UserFactory
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Sergei Ivanov-Petrovsky", "Jan de Vries", "Piet Bakker", "Wang Fang",
         "Olga Ivanova", "Li Wei", "Marie Dubois", "Sven Olsen", "Chen Jie", "Eva Novak",
         "Tom Berg", "Sara Kim", "Igor Petrov", "Lena Vos", "Zhou Min", "Paul Roux"]

# The selected option's text against the room the select gives it (its width without the
# padding and the arrow): measured with the select's own font.
FITS = """(select) => {
  const style = getComputedStyle(select);
  const canvas = document.createElement('canvas').getContext('2d');
  canvas.font = style.font;
  const text = select.options[select.selectedIndex].text;
  const room = select.clientWidth - parseFloat(style.paddingLeft)
               - parseFloat(style.paddingRight) - 20;
  const rect = select.getBoundingClientRect();
  return {text, need: canvas.measureText(text).width, room,
          right: rect.right, viewport: window.innerWidth};
}"""



@pytest.fixture
def sheet_tournament():
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    tournament = services.tournament_create(organizer=organizer, data={
        "name": "Kazan Open", "start_date": datetime.date(2026, 4, 11),
        "end_date": datetime.date(2026, 4, 12), "city": "Kazan", "country": "RU",
        "venue": "Hall", "ruleset": "mcr", "sessions": 6, "planned_players": 16,
    })
    services.players_register(tournament=tournament, user=organizer, entries=[
        services.PlayerEntry(name=n, country="RU") for n in NAMES])
    services.seating_draw(tournament=tournament, user=organizer, seed=3)
    tournament.state = tournament.State.ACCREDITED
    tournament.save(update_fields=["state"])
    return tournament


def test_player_selects_are_readable_at_390_px(browser, live_server, sheet_tournament):
    t = sheet_tournament
    folder = os.environ.get("SCREENSHOT_DIR")
    for language in ("en", "ru"):
        for width in (390, 1280):
            context = browser.new_context(base_url=live_server.url,
                                          viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(15_000)
            log_in(page, "org@example.org")
            page.goto(f"/{language}/tournaments/{t.pk}/sessions/1/sheet/")
            selects = page.locator(".t-sheet select[name$=_player]")
            assert selects.count() == 16
            for i in range(16):
                m = selects.nth(i).evaluate(FITS)
                assert m["text"] != "—"
                assert m["need"] <= m["room"], (width, m)
                assert m["right"] <= m["viewport"], (width, m)
            # the page does not scroll sideways
            assert page.evaluate(
                "document.documentElement.scrollWidth <= window.innerWidth")
            # the numbers stay in reach beside their labels
            assert page.locator("input[name=t1_E_game_points]").is_visible()
            if folder:
                Path(folder).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{folder}/sheet-{language}-{width}.png", full_page=True)
            if language == "en" and width == 390:
                page.get_by_role("link", name="Cancel").click()
                page.wait_for_load_state()
                assert page.url.endswith(f"/en/tournaments/{t.pk}/manage/#results")
            context.close()
