"""Issue 22, item 11 and issue 37, item 2 in a real browser (Playwright + Debian's
Chromium): an organizer enters a member by number on the manage page; the row waits for
the organizer's confirmation with the same words whatever the pairing; confirmed, a name
and date of birth that do not agree get the same answer as an unknown number and show
nothing of the member; the member's date of birth registers them. Screenshots at 1280 and
390 px, in English and Russian, go to /tmp/member-number-*.png."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group

from federation.models import Member, MembershipType
from tests.browser import log_in
from tests.factories import UserFactory
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def _shots(page, name: str) -> None:
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=f"/tmp/member-number-{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def _register(page, name: str, number: str, born: str) -> None:
    page.fill("input[name=name]", name)
    page.select_option("select[name=country]", "RU")
    page.fill("input[name=member_number]", number)
    page.fill("input[name=date_of_birth]", born)
    page.locator("form:has(input[name=member_number]) button[type=submit]").click()
    page.wait_for_load_state()


def test_an_organizer_registers_a_member_by_number_and_date_of_birth(browser_page):
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    member = Member.objects.create(
        name_native="Анна Ли", name_latin="Anna Lee", membership_number=13, country="RU",
        membership_type=regular, date_of_birth=datetime.date(1990, 5, 17))
    organizer = UserFactory(email="org@example.org")
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    tournament = services.tournament_create(organizer=organizer, data={
        "name": "Kazan Open", "start_date": datetime.date(2026, 4, 11),
        "end_date": datetime.date(2026, 4, 12), "city": "Kazan", "country": "RU",
        "venue": "Hall", "ruleset": "mcr", "sessions": 4, "planned_players": 16,
    })
    page = browser_page
    log_in(page, "org@example.org")
    page.goto(f"/en/tournaments/{tournament.pk}/manage/")
    _register(page, "Guess Who", "13", "1990-05-18")
    text = page.content()
    assert "The row with member number 13 waits for your confirmation below." in text
    assert "Anna" not in text and "Анна" not in text
    page.locator("[data-testid^=confirm-pending-]").click()
    page.wait_for_load_state()
    text = page.content()
    assert "No member with the number 13 has this name or date of birth" in text
    assert "Anna" not in text and "Анна" not in text
    assert not tournament.registrations.exists()
    _shots(page, "en")
    page.locator("[data-testid^=remove-pending-]").click()
    page.wait_for_load_state()

    page.goto(f"/ru/tournaments/{tournament.pk}/manage/")
    _register(page, "Guess Who", "14", "1990-05-18")
    assert "ожидает вашего подтверждения" in page.content()
    _register(page, "Ann Li", "13", "1990-05-17")
    _shots(page, "ru-waiting")
    page.locator("[data-testid=confirm-all-pending]").click()
    page.wait_for_load_state()
    assert "Нет члена с номером 14" in page.content()
    _shots(page, "ru")
    assert not tournament.registrations.exists()
    page.locator("[data-testid^=remove-pending-]").first.click()
    page.wait_for_load_state()
    page.locator("[data-testid^=confirm-pending-]").click()
    page.wait_for_load_state()
    assert tournament.registrations.get().player.member == member
    assert "Anna Lee" in page.content()
