"""Browser: the organizer submits, the officer accredits in the Wagtail admin, the organizer
enters one session on the score-sheet form, the public page shows the standings.

With SCREENSHOT_DIR set, the calendar, the tournament page, the standings and the score
sheet are also saved at 1280 and 390 px width (to look at them, not to assert on them).
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
from tournaments.models import TableResult, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna Lee", "Jan de Vries", "Piet Bakker", "Wang Fang", "Olga Ivanova", "Li Wei",
         "Marie Dubois", "Sven Olsen", "Chen Jie", "Eva Novak", "Tom Berg", "Sara Kim",
         "Igor Petrov", "Lena Vos", "Zhou Min", "Paul Roux"]



def _shots(browser, live_server, name: str, path: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        context = browser.new_context(base_url=live_server.url,
                                      viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(path)
        page.screenshot(path=f"{folder}/{name}-{width}.png", full_page=True)
        context.close()


def test_submit_accredit_enter_session_and_see_standings(browser, browser_page, live_server):
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    officer = UserFactory(email="acc@example.org")
    officer.groups.add(Group.objects.get(name=services.ROLE_OFFICER))
    tournament = services.tournament_create(organizer=organizer, data={
        "name": "Utrecht Spring Open", "start_date": datetime.date(2026, 4, 11),
        "end_date": datetime.date(2026, 4, 12), "city": "Utrecht", "country": "NL",
        "venue": "Stadhuis", "ruleset": "mcr", "sessions": 6, "planned_players": 16,
    })
    services.players_register(tournament=tournament, user=organizer, entries=[
        services.PlayerEntry(name=n, country="NL") for n in NAMES])
    services.seating_draw(tournament=tournament, user=organizer, seed=3)
    services.seating_publish(tournament=tournament, user=organizer, through=tournament.sessions)

    page = browser_page
    log_in(page, "org@example.org")
    page.goto(f"/en/tournaments/{tournament.pk}/manage/")
    page.get_by_role("button", name="Submit for accreditation").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("state").inner_text() == "Submitted"

    officer_context = browser.new_context(base_url=live_server.url, locale="en-US")
    admin = officer_context.new_page()
    log_in(admin, "acc@example.org")
    admin.goto("/admin/tournament_admin/")
    admin.get_by_role("link", name="Decide").click()
    admin.wait_for_load_state()
    assert "No organizing club is given." in admin.content()
    admin.get_by_role("button", name="Accredit").click()
    admin.wait_for_load_state()
    officer_context.close()
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.ACCREDITED

    page.goto(f"/en/tournaments/{tournament.pk}/sessions/1/sheet/")
    for table in range(1, 5):
        for wind, points in zip("ESWN", (40, 8, -16, -32), strict=True):
            page.fill(f"input[name=t{table}_{wind}_game_points]", str(points))
    page.fill("input[name=t1_E_game_points]", "20")
    page.fill("input[name=t1_S_game_points]", "20")
    page.fill("input[name=t1_N_game_points]", "-24")  # 20 + 20 - 16 - 24 = 0
    page.fill("input[name=t1_N_penalty]", "10")
    page.get_by_role("button", name="Save the session").click()
    page.wait_for_load_state()
    assert "Session 1 is saved." in page.content()
    assert TableResult.objects.filter(tournament=tournament, session=1).count() == 16

    public = browser.new_context(base_url=live_server.url, locale="en-US").new_page()
    public.goto(f"/en/tournaments/{tournament.pk}/standings/")
    rows = public.locator("table").first.locator("tbody tr")  # the standings
    assert rows.count() == 16
    first = rows.nth(0).inner_text()
    assert "4" in first and "40" in first
    shared = [rows.nth(i).inner_text() for i in range(16)]
    assert sum("\t3\t" in r for r in shared) == 2  # the two tied first at table 1 get 3 each
    penalised = TableResult.objects.get(tournament=tournament, session=1, table=1, seat="N")
    name = str(penalised.player)
    row = next(r for r in shared if name in r)
    assert "-34" in row and "10" in row  # -24 game points, 10 deducted

    _shots(browser, live_server, "calendar", "/en/tournaments/")
    _shots(browser, live_server, "tournament", f"/en/tournaments/{tournament.pk}/")
    _shots(browser, live_server, "standings", f"/ru/tournaments/{tournament.pk}/standings/")
    _shots(browser, live_server, "distribution",
           f"/zh-hans/tournaments/{tournament.pk}/sessions/1/tables/")
    if os.environ.get("SCREENSHOT_DIR"):
        for width in (1280, 390):
            context = browser.new_context(base_url=live_server.url,
                                          viewport={"width": width, "height": 900})
            sheet = context.new_page()
            log_in(sheet, "org@example.org")
            sheet.goto(f"/en/tournaments/{tournament.pk}/sessions/2/sheet/")
            sheet.locator("details.t-hands summary").first.click()
            sheet.screenshot(path=f"{os.environ['SCREENSHOT_DIR']}/sheet-{width}.png",
                             full_page=True)
            context.close()
