"""Browser, at a phone's width (390 px): the organizer records on the session view a late
arrival (7 minutes: 10 points), an absence and a penalty with its reason; the public
standings list the penalties without who gave them, state what an absent player gets, and
stop before the hidden last session until the organizer reveals it on the manage page.

With SCREENSHOT_DIR set, the session view and the standings are saved at 1280 and 390 px
width, in English and Russian."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import log_in
from tests.tournaments.test_withdrawals import _post
from tournaments import services
from tournaments.models import Absence, Penalty, SeatingAssignment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def _shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    url = page.url
    for lang in ("en", "ru"):
        page.goto(url.replace("/en/", f"/{lang}/"))
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"{folder}/penalties-{name}-{lang}-{width}.png",
                            full_page=True)
    page.goto(url)
    page.set_viewport_size(size)


def test_organizer_records_late_absent_and_a_penalty_and_the_standings_show_them(
        browser_page, make_tournament, organizer):
    t = make_tournament("accredited", players=12, hide_last_sessions=1)
    (sub,) = services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name="Sam Stand-in", country="BE", substitute=True)])
    services.seating_draw(tournament=t, user=organizer, seed=5)
    _post(t, organizer, 1, 2, 3)
    regs = list(t.registrations.order_by("number").select_related("player"))

    page = browser_page
    page.set_viewport_size({"width": 390, "height": 800})
    log_in(page, organizer.email)
    page.goto(f"/en/tournaments/{t.pk}/sessions/3/")
    form = page.get_by_test_id("penalty-form")
    form.locator("select[name=player]").select_option(str(regs[0].player_id))
    form.locator("input[name=points]").fill("30")
    form.locator("input[name=reason]").fill("Showed tiles")
    form.get_by_role("button", name="Give the penalty").click()
    page.wait_for_load_state()
    assert "The penalty is recorded." in page.content()
    page.goto(f"/en/tournaments/{t.pk}/sessions/4/")
    late = page.get_by_test_id("late-form")
    late.locator("select[name=player]").select_option(str(regs[1].player_id))
    late.locator("input[name=minutes]").fill("7")
    late.get_by_role("button", name="Record the late arrival").click()
    page.wait_for_load_state()
    assert "10 game points are deducted." in page.content()  # ngettext, the plural
    absent = page.get_by_test_id("absent-form")
    absent.locator("select[name=player]").select_option(str(regs[2].player_id))
    absent.locator("input[name=reason]").fill("Doctor")
    absent.get_by_role("button", name="Record the absence for this session").click()
    page.wait_for_load_state()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert "late 7 minutes" in page.get_by_test_id("session-penalties").inner_text()
    assert "misses this session" in page.get_by_test_id("session-absences").inner_text()
    _shot(page, "session")
    assert Penalty.objects.filter(tournament=t).count() == 2
    assert Absence.objects.filter(tournament=t, player=regs[2].player).exists()
    # the substitute took the absent player's seat in the drawn seating
    assert SeatingAssignment.objects.filter(tournament=t, session=4,
                                            player_id=sub.player_id).exists()

    # the public: penalties listed without who gave them, the last session hidden
    public = page.context.browser.new_context(base_url=page.url.split("/en/")[0],
                                              locale="en-US").new_page()
    public.set_viewport_size({"width": 390, "height": 800})
    public.goto(f"/en/tournaments/{t.pk}/standings/")
    table = public.get_by_test_id("penalties").inner_text()
    assert "Showed tiles" in table and organizer.email not in public.content()
    assert "gets nothing" in public.get_by_test_id("absent-rule").inner_text()
    assert "after session 5" in public.get_by_test_id("standings-hidden").inner_text()
    assert public.evaluate("document.scrollingElement.scrollWidth") <= 390
    _shot(public, "public-standings")
    public.close()

    page.goto(f"/en/tournaments/{t.pk}/manage/")
    page.get_by_test_id("reveal").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("revealed").is_visible()
    page.goto(f"/en/tournaments/{t.pk}/standings/")
    _shot(page, "standings")
