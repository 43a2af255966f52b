"""The membership officer's merge page in the admin (issue 35, item 5; decisions 0811,
0814): find two players, choose the one kept, see what moves, confirm; undo while nothing
newer depends on it. Who may and who may not; the page's queries do not grow with the
merges it does not show."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation import services as federation_services
from tests.tournaments.test_player_identity import _import
from tournaments.models import Player, PlayerMerge, TournamentResult
from tournaments.services import identity

pytestmark = pytest.mark.django_db

PAGE = "/admin/players/merge/"
PREVIEW = "/admin/players/merge/preview/"


@pytest.fixture
def membership_officer(make_user):
    from wagtail.users.models import UserProfile

    user = make_user(federation_services.ROLE_MEMBERSHIP_OFFICER,
                     email="membership@example.org")
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "en"  # the admin's words below are English
    profile.save()
    return user


@pytest.fixture
def pair(officer):
    """Anna Smit with her EMA number in one tournament, "Ann Smit" without it in another."""
    _import(officer, "Spring Cup", "2024-03-02", [
        ("Anna", "Smit", "04010001"), ("Bob", "Berg", ""), ("Cor", "Dam", ""),
        ("Dirk", "Eik", "")])
    second = _import(officer, "Autumn Cup", "2024-09-07", [
        ("Ann", "Smit", ""), ("Jan", "Kos", "04010002"), ("Eva", "Fok", ""),
        ("Gijs", "Hop", "")])
    return (Player.objects.get(ema_number="04010001"), Player.objects.get(name_latin="Ann Smit"),
            second)


@pytest.mark.parametrize("who", ["anonymous", "member", "organizer", "officer"])
def test_only_the_membership_officer_may_merge(client, make_user, organizer, officer, pair,
                                               who):
    anna, ann, _second = pair
    users = {"member": make_user(email="m@example.org"), "organizer": organizer,
             "officer": officer}
    if who != "anonymous":
        client.force_login(users[who])
    merge = PlayerMerge.objects.create(kept=anna, merged=ann, moved={},
                                       merged_by=officer)  # a row to undo
    for answer in (client.get(PAGE, {"q": "smit"}),
                   client.get(PREVIEW, {"player": ann.pk, "into": anna.pk}),
                   client.post(PREVIEW, {"player": ann.pk, "into": anna.pk}),
                   client.post(f"/admin/players/merges/{merge.pk}/undo/")):
        if who == "anonymous":
            assert answer.status_code == 302 and "/login/" in answer["Location"]
        else:  # refused: 403, or the admin's own refusal (its home page, with a message)
            assert answer.status_code == 403 or (
                answer.status_code == 302 and answer["Location"] == "/admin/"), answer
    ann.refresh_from_db()
    merge.refresh_from_db()
    assert ann.merged_into is None and merge.undone_at is None


def test_find_choose_preview_merge_and_undo(client, membership_officer, pair):
    anna, ann, second = pair
    client.force_login(membership_officer)
    page = client.get(PAGE, {"q": "smit"}).content.decode()
    assert f'data-player="{anna.pk}"' in page and f'data-player="{ann.pk}"' in page
    assert f'data-player="{anna.pk}"' in client.get(PAGE, {"q": "4010001"}).content.decode()
    preview = client.get(PREVIEW, {"player": ann.pk, "into": anna.pk})
    text = preview.content.decode()
    assert preview.status_code == 200
    assert "tournaments entered: 1" in text and "final standings: 1" in text
    assert 'id="merge-confirm"' in text
    assert f"?player={anna.pk}&amp;into={ann.pk}" in text  # keep the other one instead
    assert not PlayerMerge.objects.exists()  # a preview writes nothing
    done = client.post(PREVIEW, {"player": ann.pk, "into": anna.pk})
    assert done.status_code == 302 and done["Location"].endswith(PAGE)
    assert TournamentResult.objects.get(tournament=second, rank=1).player_id == anna.pk
    merge = PlayerMerge.objects.get()
    listing = client.get(PAGE).content.decode()
    assert f'data-testid="undo-{merge.pk}"' in listing
    # a merged player is no longer offered
    assert f'data-player="{ann.pk}"' not in client.get(PAGE, {"q": "smit"}).content.decode()
    client.post(f"/admin/players/merges/{merge.pk}/undo/")
    merge.refresh_from_db()
    assert merge.undone_at is not None
    assert TournamentResult.objects.get(tournament=second, rank=1).player_id == ann.pk
    assert f'data-testid="undo-{merge.pk}"' not in client.get(PAGE).content.decode()


def test_a_refused_merge_says_why_and_offers_no_confirmation(client, membership_officer,
                                                            pair):
    anna, _ann, _second = pair
    bob = Player.objects.get(name_latin="Bob Berg")
    client.force_login(membership_officer)
    text = client.get(PREVIEW, {"player": bob.pk, "into": anna.pk}).content.decode()
    assert 'id="merge-problems"' in text and "Spring Cup" in text
    assert 'id="merge-confirm"' not in text
    answer = client.post(PREVIEW, {"player": bob.pk, "into": anna.pk}, follow=True)
    assert "Spring Cup" in answer.content.decode() and not PlayerMerge.objects.exists()
    missing = client.get(PREVIEW, {"player": bob.pk}, follow=True)
    assert "Choose the player to merge" in missing.content.decode()


def test_an_undo_blocked_by_a_newer_merge_is_not_offered(client, membership_officer, pair):
    anna, ann, _second = pair
    first = identity.player_merge(player=ann, into=anna, user=membership_officer)
    stray = Player.objects.create(name_latin="A. Smit", country="RU")
    identity.player_merge(player=stray, into=first, user=membership_officer)
    older, newer = PlayerMerge.objects.order_by("pk")
    client.force_login(membership_officer)
    listing = client.get(PAGE).content.decode()
    assert f'data-testid="undo-{newer.pk}"' in listing
    assert f'data-testid="undo-{older.pk}"' not in listing
    client.post(f"/admin/players/merges/{older.pk}/undo/")
    older.refresh_from_db()
    assert older.undone_at is None  # refused by the service as well


def test_the_merges_page_costs_the_same_with_ten_times_the_merges(client, membership_officer):
    client.force_login(membership_officer)

    def merges(count: int) -> None:
        for i in range(count):
            kept = Player.objects.create(name_latin=f"Kept {i}", country="NL")
            gone = Player.objects.create(name_latin=f"Gone {i}", country="NL")
            identity.player_merge(player=gone, into=kept, user=membership_officer)

    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            assert client.get(PAGE).status_code == 200
        return len(context.captured_queries)

    merges(3)
    client.get(PAGE)
    small = queries()
    merges(30)
    assert queries() == small
    assert client.get(PAGE).content.decode().count("data-merge=") == 20  # a page of them
