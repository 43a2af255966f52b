"""Player identity in a real browser (issue 35, item 5): a member says "this is me" on a
player's page and the membership officer confirms it in the admin; the membership
officer finds two players who are one person, keeps one, sees what moves, merges them
and undoes the merge. Screenshots at 1280 and 390 px, in English and Russian, go to
/tmp/shots/imports-finish/."""

from __future__ import annotations

from pathlib import Path

import pytest

from federation import services as federation_services
from federation.models import Member, MembershipType
from tests.browser import log_in
from tournaments.models import Player, PlayerClaim, PlayerMerge, TournamentResult
from tournaments.services.imports import tournament_import

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots/imports-finish")
FIELDS = {"ruleset": "mcr", "city": "Moscow", "country": "RU", "mers": "true",
          "mers_weight": "1"}


def shots(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def admin_language(user, language: str) -> None:
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(user)
    profile.preferred_language = language
    profile.save()


def _import(officer, name: str, start: str, rows: list[tuple[str, str, str]]) -> int:
    lines = ["Place,First name,Last name,EMA number,Country,Table points,Score"]
    lines += [f"{i},{first},{last},{ema},Russia,{10 - i},{100 - 10 * i}"
              for i, (first, last, ema) in enumerate(rows, start=1)]
    return tournament_import(user=officer, content="\n".join(lines).encode(),
                             data={**FIELDS, "name": name, "start_date": start,
                                   "end_date": start}).tournament


@pytest.fixture
def pair(officer):
    _import(officer, "Spring Cup", "2024-03-02", [
        ("Anna", "Smit", "04010001"), ("Bob", "Berg", ""), ("Cor", "Dam", ""),
        ("Dirk", "Eik", "")])
    second = _import(officer, "Autumn Cup", "2024-09-07", [
        ("Ann", "Smit", ""), ("Jan", "Kos", "04010002"), ("Eva", "Fok", ""),
        ("Gijs", "Hop", "")])
    return (Player.objects.get(ema_number="04010001"), Player.objects.get(name_latin="Ann Smit"),
            second)


@pytest.fixture
def membership_officer(make_user):
    return make_user(federation_services.ROLE_MEMBERSHIP_OFFICER,
                     email="membership@example.org")


def test_a_member_says_this_is_me_and_the_membership_officer_confirms(
        browser_page, make_user, membership_officer, pair):
    _anna, ann, _second = pair
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    user = make_user(email="ann@example.org")
    member = Member.objects.create(name_latin="Ann Smit", membership_number=501,
                                   country="RU", membership_type=regular, user=user)
    page = browser_page
    log_in(page, user.email)
    page.goto(f"/en/ratings/players/{ann.pk}/")
    page.locator("[data-testid=claim] button").click()
    page.wait_for_load_state()
    assert "the membership officer will confirm" in page.inner_text(".messages")
    claim = PlayerClaim.objects.get()
    assert claim.state == "pending" and claim.member == member
    page.context.clear_cookies()

    admin_language(membership_officer, "en")
    log_in(page, membership_officer.email)
    page.goto("/admin/")
    assert page.get_by_role("link", name="Players claimed by members").count() >= 1
    page.goto("/admin/players/claims/")
    row = page.locator("tr", has_text="Ann Smit")
    assert "Ann Smit" in row.inner_text()
    shots(page, "claims-en")
    row.get_by_role("button", name="Confirm").click()
    page.wait_for_load_state()
    assert "Confirmed." in page.content()
    assert "No claims are waiting." in page.content()
    claim.refresh_from_db()
    ann.refresh_from_db()
    assert claim.state == "confirmed" and ann.member == member
    # the player is the member's now: nobody is offered "this is me" any more
    page.context.clear_cookies()
    log_in(page, user.email)
    page.goto(f"/en/ratings/players/{ann.pk}/")
    assert page.locator("[data-testid=claim]").count() == 0


def test_the_membership_officer_merges_two_players_and_undoes_it(
        browser_page, membership_officer, pair):
    anna, ann, second = pair
    admin_language(membership_officer, "en")
    page = browser_page
    log_in(page, membership_officer.email)
    page.goto("/admin/")
    page.get_by_role("link", name="Merge players").first.click()
    page.wait_for_load_state()
    page.fill("#merge-q", "smit")
    page.get_by_role("button", name="Search").click()
    page.wait_for_load_state()
    assert page.locator("#merge-found tbody tr").count() == 2
    page.get_by_label("Merge Ann Smit").check()
    page.get_by_label("Keep Anna Smit").check()
    shots(page, "merge-search-en")
    page.get_by_role("button", name="See what moves").click()
    page.wait_for_load_state()
    moves = page.inner_text("#merge-moves")
    assert "tournaments entered: 1" in moves and "final standings: 1" in moves
    shots(page, "merge-preview-en")
    # the other one kept instead, then back
    page.locator("#merge-swap").click()
    page.wait_for_load_state()
    assert "Ann Smit" in page.inner_text("#merge-kept")
    page.locator("#merge-swap").click()
    page.wait_for_load_state()
    assert "Anna Smit" in page.inner_text("#merge-kept")
    page.locator("#merge-confirm").click()
    page.wait_for_load_state()
    assert "Ann Smit was merged into Anna Smit." in page.content()
    assert TournamentResult.objects.get(tournament=second, rank=1).player_id == anna.pk
    merge = PlayerMerge.objects.get()
    shots(page, "merges-en")
    admin_language(membership_officer, "ru")
    page.goto(f"/admin/players/merge/preview/?player={ann.pk}&into={anna.pk}")
    page.goto("/admin/players/merge/?q=smit")
    shots(page, "merges-ru")
    page.locator(f"[data-testid=undo-{merge.pk}]").click()
    page.wait_for_load_state()
    merge.refresh_from_db()
    assert merge.undone_at is not None
    assert TournamentResult.objects.get(tournament=second, rank=1).player_id == ann.pk
    page.goto(f"/admin/players/merge/preview/?player={ann.pk}&into={anna.pk}")
    shots(page, "merge-preview-ru")
