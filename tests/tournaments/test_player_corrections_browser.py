"""Browser, issue 38 item 2, at 1280 and 390 px: the organizer of a confirmed MERS
tournament opens the EMA results sheet, is told which member has no EMA number with a link
to the fix, gives it, corrects a name the sheet split wrongly ("Jan de | Vries"), and the
sheet then reads "Jan | de Vries" on the page and in the downloaded CSV.

With SCREENSHOT_DIR set, the sheet's page and the correction form are saved in English and
Russian at both widths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from federation.models import Member, MembershipType
from tests.browser import log_in
from tournaments import services
from tournaments.models import TournamentResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _confirmed_mers(make_tournament, officer, number: int):
    t = make_tournament("results confirmed", players=16)
    services.tournament_mers_set(tournament=t, user=officer, mers=True, mers_weight=1,
                                 reason="as the EMA gave it")
    ranked = [r.player for r in TournamentResult.objects.filter(tournament=t)
              .select_related("player").order_by("rank", "player_id")]
    member_player, wrong = ranked[0], ranked[1]
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    member_player.member = Member.objects.create(
        name_native="Анна Ли", name_latin="Anna Lee", membership_number=number,
        membership_type=regular)
    member_player.save()
    wrong.name_latin = "Jan de Vries"  # no split given: the sheet guesses "Jan de | Vries"
    wrong.save()
    return t, member_player, wrong


@pytest.mark.parametrize("width", [1280, 390])
def test_the_organizer_fixes_the_players_and_the_sheet_reads_right(
        browser, live_server, make_tournament, organizer, officer, width):
    t, member_player, wrong = _confirmed_mers(make_tournament, officer, 700 + width)
    folder = os.environ.get("SCREENSHOT_DIR")
    context = browser.new_context(base_url=live_server.url,
                                  viewport={"width": width, "height": 900},
                                  accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    log_in(page, organizer.email)
    page.goto(f"/en/tournaments/{t.pk}/")
    page.get_by_test_id("ema-sheet").click()
    page.wait_for_load_state()
    fix_list = page.get_by_test_id("ema-fix")
    assert "1 player has none yet" in fix_list.inner_text()
    assert str(member_player) in fix_list.inner_text()
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{folder}/ema-refused-en-{width}.png", full_page=True)
    # the sheet as it would read: the guessed split of "Jan de Vries"
    row = page.get_by_test_id("ema-rows").locator("tr", has_text="Vries")
    assert row.locator("td").nth(1).inner_text() == "Jan de"
    page.get_by_test_id(f"fix-{member_player.pk}").click()
    page.wait_for_load_state()
    page.fill("input[name=ema_number]", "4010077")  # a dropped leading zero put back
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/en/tournaments/{t.pk}/ema-results/")
    assert page.get_by_test_id("ema-fix").count() == 0
    page.get_by_test_id(f"correct-{wrong.pk}").click()
    page.wait_for_load_state()
    assert page.input_value("input[name=first_name]") == "Jan de"
    page.fill("input[name=first_name]", "Jan")
    page.fill("input[name=last_name]", "de Vries")
    if folder:
        page.screenshot(path=f"{folder}/player-correct-en-{width}.png", full_page=True)
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    cells = page.get_by_test_id("ema-rows").locator("tr", has_text="Vries").locator("td")
    assert [cells.nth(i).inner_text() for i in (1, 2)] == ["Jan", "de Vries"]
    lee = page.get_by_test_id("ema-rows").locator("tr", has_text="04010077").locator("td")
    assert lee.nth(3).inner_text() == "04010077" and lee.nth(6).inner_text() == "yes"
    table = page.get_by_test_id("ema-rows")
    if width == 390:  # the sheet scrolls inside its box, the page itself does not
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    else:
        box = table.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1280
    if folder:
        page.screenshot(path=f"{folder}/ema-sheet-en-{width}.png", full_page=True)
        page.goto(f"/ru/tournaments/{t.pk}/ema-results/")
        page.screenshot(path=f"{folder}/ema-sheet-ru-{width}.png", full_page=True)
        page.goto(f"/ru/tournaments/{t.pk}/players/{wrong.pk}/correct/?next=sheet")
        page.screenshot(path=f"{folder}/player-correct-ru-{width}.png", full_page=True)
        page.goto(f"/en/tournaments/{t.pk}/ema-results/")
    with page.expect_download() as download:
        page.get_by_test_id("ema-csv").click()
    csv = Path(download.value.path()).read_text(encoding="utf-8")
    assert ",Jan,de Vries," in csv
    assert ",04010077," in csv
    context.close()
