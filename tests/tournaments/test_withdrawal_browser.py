"""Browser, at a phone's width (390 px): after session 3 the organizer withdraws a player
(with a reason, from the manage page), redraws the seating from session 4 so that the
substitute fills the table, the last sessions are posted and confirmed, and the standings
page marks the substitute (no rank) and the withdrawn player (ranked below the players who
finished), as the rules stated on the page say.

With SCREENSHOT_DIR set, the manage page, the withdrawal form and the standings are saved
at 1280 and 390 px width."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import log_in
from tests.tournaments.test_withdrawals import _post
from tournaments import services
from tournaments.models import SeatingAssignment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def _shot(page, name: str) -> None:
    folder = os.environ.get("SCREENSHOT_DIR")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=f"{folder}/withdrawal-{name}-{width}.png", full_page=True)
    page.set_viewport_size(size)


def test_a_player_withdraws_after_session_3_and_a_substitute_fills_the_table(
        browser_page, make_tournament, organizer):
    t = make_tournament("accredited", players=12)
    (sub,) = services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name="Sam Stand-in", country="BE", substitute=True)])
    services.seating_draw(tournament=t, user=organizer, seed=5)
    _post(t, organizer, 1, 2, 3)
    gone = t.registrations.order_by("number").first()

    page = browser_page
    page.set_viewport_size({"width": 390, "height": 800})
    log_in(page, organizer.email)
    page.goto(f"/en/tournaments/{t.pk}/manage/")
    _shot(page, "manage")
    page.get_by_test_id(f"withdraw-{gone.player_id}").click()
    page.wait_for_load_state()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.select_option("select[name=from_session]", "4")
    page.fill("input[name=reason]", "Flight home")
    _shot(page, "form")
    page.get_by_role("button", name="Withdraw").click()
    page.wait_for_load_state()
    assert "withdrawn from session 4 on" in page.content()
    assert page.get_by_test_id(f"withdrawn-{gone.player_id}").inner_text() == "from session 4"

    page.fill("input[name=from_session]", "4")
    page.get_by_role("button", name="Draw the seating").click()
    page.wait_for_load_state()
    for session in (4, 5, 6):
        seated = set(SeatingAssignment.objects.filter(tournament=t, session=session)
                     .values_list("player_id", flat=True))
        assert sub.player_id in seated and gone.player_id not in seated
    page.goto(f"/en/tournaments/{t.pk}/sessions/4/tables/")
    assert "Sam Stand-in" in page.content()

    _post(t, organizer, 4, 5, 6)
    page.goto(f"/en/tournaments/{t.pk}/manage/")
    assert not page.get_by_test_id("confirm-results").is_visible()
    page.locator("#confirm-results summary").click()
    page.get_by_test_id("confirm-results").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("state").inner_text() == "Results confirmed"

    page.goto(f"/en/tournaments/{t.pk}/standings/")
    rules = page.get_by_test_id("standings-rules").inner_text()
    assert "ranked below every player who finished" in rules
    assert "neither ranked nor rated" in rules
    assert page.get_by_test_id(f"rank-{sub.player_id}").inner_text() == "—"
    assert page.get_by_test_id(f"rank-{gone.player_id}").inner_text() == "12"
    assert "withdrawn from session 4" in page.content()
    assert "Flight home" not in page.content()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    _shot(page, "standings")
