"""Issue 35 in a real browser (Playwright + Debian's Chromium; decision 0815): the
accreditation officer uploads a past tournament's standings whose headers the import does
not know, maps them to the expected columns, previews and commits; the report is listed on
the page and downloads as CSV. Screenshots of the mapping step at 1280 and 390 px in
English and Russian go to /tmp/imports-last-mapping-*.png."""

from __future__ import annotations

import pytest

from federation.models import ImportRun
from tests.browser import log_in
from tournaments.models import Tournament, TournamentResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FILE = ("Pl.;Given;Family;Land;Result\n"
        "1;Anna;Smit;NL;25\n2;Bob;Berg;BE;-5\n3;Chen;Li;CN;-20\n")
MAPPING = ["place", "first_name", "last_name", "country", "score"]


def _language(user, language: str) -> None:
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(user)
    profile.preferred_language = language
    profile.save()


def _fill_and_upload(page, tmp_path) -> None:
    page.goto("/admin/tournaments/import/")
    page.fill("input[name=name]", "Utrecht Open 2023")
    page.select_option("select[name=ruleset]", "mcr")
    page.fill("input[name=start_date]", "2023-10-07")
    page.fill("input[name=end_date]", "2023-10-08")
    page.fill("input[name=city]", "Utrecht")
    page.select_option("select[name=country]", "NL")
    standings = tmp_path / "utrecht.csv"
    standings.write_text(FILE)
    page.set_input_files("input[name=file]", str(standings))
    page.click("button[name=preview]")
    page.wait_for_load_state()


def _map_and_preview(page) -> None:
    """Each column given its field, then the preview again."""
    for index, name in enumerate(MAPPING):
        page.select_option(f"#column-{index}", name)
    page.click("button[name=preview]")
    page.wait_for_load_state()


def _shots(page, name: str, part: str = "#import-mapping") -> None:
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator(part).scroll_into_view_if_needed()
        page.screenshot(path=f"/tmp/imports-last-mapping-{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_officer_maps_the_headers_previews_and_commits(browser_page, officer, tmp_path):
    _language(officer, "en")
    page = browser_page
    log_in(page, officer.email)
    _fill_and_upload(page, tmp_path)
    # the headers are not known: every column is offered, the errors say what is missing
    assert page.locator("#import-columns tbody tr").count() == 5
    assert page.locator("#column-1").input_value() == ""
    assert page.locator("#import-errors li").count() >= 2
    assert page.locator("button[name=commit]").count() == 0
    _shots(page, "en-unmapped")
    _map_and_preview(page)
    assert page.locator("#import-errors").count() == 0
    assert "Created: 3, updated: 0, unchanged: 0." in page.inner_text(
        "[data-testid=import-report]")
    assert page.locator("#column-4").input_value() == "score"  # the mapping is kept
    _shots(page, "en-mapped")
    assert not Tournament.objects.exists()
    page.click("button[name=commit]")
    page.wait_for_load_state()
    assert "The tournament was imported." in page.content()
    t = Tournament.objects.get()
    assert TournamentResult.objects.filter(tournament=t).count() == 3
    run = ImportRun.objects.get(kind="tournaments")
    assert run.mapping["Result"] == "score"
    listed = page.locator("#import-runs tbody tr")
    assert listed.count() == 1 and "Utrecht Open 2023" in listed.inner_text()
    _shots(page, "en-listed", "#import-runs")
    with page.expect_download() as download:
        listed.get_by_role("link", name="Report (CSV)").click()
    assert download.value.suggested_filename == f"import-{run.pk}-tournaments-report.csv"


def test_the_mapping_step_in_russian(browser_page, officer, tmp_path):
    _language(officer, "ru")
    page = browser_page
    log_in(page, officer.email)
    _fill_and_upload(page, tmp_path)
    assert page.locator("#import-columns tbody tr").count() == 5
    _shots(page, "ru-unmapped")
    _map_and_preview(page)
    assert page.locator("#import-errors").count() == 0, page.inner_text("#import-errors")
    _shots(page, "ru-mapped")
    assert not Tournament.objects.exists()
