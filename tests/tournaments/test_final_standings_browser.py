"""Issue 35 in a real browser: the accreditation officer uploads a past tournament's final
standings with an error, sees it by line, uploads the fixed file, chooses who a namesake
is, and imports it; a member says "this is me" on a player's page."""

from __future__ import annotations

import pytest

from tests.factories import DEFAULT_PASSWORD
from tournaments.models import Player, Tournament, TournamentResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, email: str) -> None:
    page.goto("/en/accounts/login/")
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", DEFAULT_PASSWORD)
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()


def _fill(page) -> None:
    page.fill("input[name=name]", "Kazan Cup 2023")
    page.select_option("select[name=ruleset]", "mcr")
    page.fill("input[name=start_date]", "2023-10-07")
    page.fill("input[name=end_date]", "2023-10-08")
    page.fill("input[name=city]", "Kazan")
    page.select_option("select[name=country]", "RU")
    page.check("input[name=mers]")
    page.fill("input[name=mers_weight]", "1")


def test_officer_previews_fixes_chooses_and_imports(browser_page, officer, tmp_path):
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(officer)
    profile.preferred_language = "en"
    profile.save()
    known = Player.objects.create(name_latin="Li Wei", first_name="Li", last_name="Wei",
                                  country="CN")
    bad = tmp_path / "bad.csv"
    bad.write_text("Place,First name,Last name,Country,Score\n1,Li,Wei,CN,10\nx,Bo,Yang,CN,5\n")
    good = tmp_path / "kazan.csv"
    good.write_text("Place,First name,Last name,Country,Score\n1,Li,Wei,CN,10\n2,Bo,Yang,CN,5\n")
    page = browser_page
    log_in(page, officer.email)
    page.goto("/admin/tournaments/import/")
    _fill(page)
    page.set_input_files("input[name=file]", str(bad))
    page.click("button[name=preview]")
    assert "Line 3" in page.inner_text("#import-errors")
    assert not Tournament.objects.exists()
    page.set_input_files("input[name=file]", str(good))
    page.click("button[name=preview]")
    assert "Li Wei" in page.inner_text("#import-review")
    page.select_option("select[name=choice-2]", str(known.pk))
    page.click("button[name=preview]")  # the choice previewed: nothing left to decide
    assert page.locator("#import-review").count() == 0
    page.click("button[name=commit]")
    page.wait_for_load_state()
    assert "The tournament was imported." in page.content()
    t = Tournament.objects.get()
    assert TournamentResult.objects.get(tournament=t, rank=1).player == known
    page.goto(f"/en/tournaments/{t.pk}/standings/")
    assert "Final standings only" in page.inner_text("[data-testid=final-standings-only]")
