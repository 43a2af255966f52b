"""Issue 35 in a real browser (Playwright + Debian's Chromium): the membership officer
uploads a members spreadsheet with errors, reads them by row and column in the preview,
uploads the corrected file, maps a column the import does not know, previews and commits;
the members exist with their paid dues and the report is downloadable. Screenshots at 1280
and 390 px go to /tmp/member-import-*.png."""

from __future__ import annotations

import pytest

from federation import selectors
from federation.models import ImportRun, Member
from federation.rules.dues import Status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-Secret-123"


def log_in(page, email):
    page.goto("/en/accounts/login/")
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()


def shots(page, name):
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=f"/tmp/member-import-{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def upload(page, text, name):
    page.goto("/admin/imports/members/")
    page.set_input_files("input[name=file]", files=[{
        "name": name, "mimeType": "text/csv", "buffer": text.encode("cp1251")}])
    page.get_by_role("button", name="Upload and preview").click()
    page.wait_for_load_state()


def test_the_membership_officer_corrects_the_errors_and_commits(browser_page,
                                                               membership_officer, live_year):
    year = live_year.year
    page = browser_page
    log_in(page, membership_officer.email)
    page.goto("/admin/")
    assert page.get_by_role("link", name="Import members").count() >= 1
    header = "ФИО;E-mail;Номер;Клуб;Паспорт;Оплачено\n"
    upload(page, header
           + f"Иван Петров;ivan@example;12;Восток;4500 123456;{year}\n"
           + f"Анна Смирнова;anna@example.org;13;Восток;4500 654321;{year - 40}\n", "members.csv")
    errors = page.locator("#import-errors tbody tr")
    assert errors.count() == 2
    assert "2" in errors.nth(0).inner_text() and "E-mail" in errors.nth(0).inner_text()
    assert "is not an e-mail address" in errors.nth(0).inner_text()
    assert "Оплачено" in errors.nth(1).inner_text()
    assert page.locator("#import-commit").count() == 0
    shots(page, "errors")
    assert Member.objects.count() == 0

    upload(page, header
           + f"Иван Петров;ivan@example.org;12;Восток;4500 123456;{year}\n"
           + "Анна Смирнова;anna@example.org;13;Восток;4500 654321;\n", "members-fixed.csv")
    # "Паспорт" is no field of the import: left out; the officer maps "Номер" explicitly
    assert page.locator("#column-4").input_value() == ""
    page.select_option("#column-2", "member_number")
    page.get_by_role("button", name="Preview again").click()
    page.wait_for_load_state()
    assert "2 to create, 0 to update" in page.locator("#import-counts").inner_text()
    assert "New club “Восток”." in page.locator("#import-rows").inner_text()
    shots(page, "preview")
    page.locator("#import-commit").click()
    page.wait_for_load_state()
    assert "2 created" in page.locator("#import-committed").inner_text()
    shots(page, "committed")
    ivan = Member.objects.get(membership_number=12)
    assert ivan.name_native == "Иван Петров" and ivan.club.name == "Восток"
    assert selectors.member_status(ivan) == Status.ACTIVE
    with page.expect_download() as download:
        page.locator("#import-report").click()
    assert download.value.suggested_filename.endswith("-members-report.csv")
    run = ImportRun.objects.get(committed_at__isnull=False)
    assert run.file_name == "members-fixed.csv" and run.created == 2
