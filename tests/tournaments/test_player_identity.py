"""Player identity (issue 35, item 5; decision 0811): merging two players, its redirect,
audit entry and undo; a member's claim confirmed by the membership officer."""

from __future__ import annotations

import pytest
from wagtail.models import ModelLogEntry

from federation import services as federation_services
from federation.models import Member, MembershipType
from ratings.models import RatingEntry
from tests.tournaments.fixtures import token_client
from tournaments.errors import TournamentError
from tournaments.models import Player, PlayerClaim, PlayerMerge, TournamentResult
from tournaments.services import identity
from tournaments.services.imports import tournament_import

pytestmark = pytest.mark.django_db

FIELDS = {"ruleset": "mcr", "city": "Moscow", "country": "RU", "mers": "true",
          "mers_weight": "1"}


def _import(officer, name: str, start: str, rows: list[tuple[str, str, str]]) -> int:
    lines = ["Place,First name,Last name,EMA number,Country,Table points,Score"]
    lines += [f"{i},{first},{last},{ema},Russia,{10 - i},{100 - 10 * i}"
              for i, (first, last, ema) in enumerate(rows, start=1)]
    report = tournament_import(user=officer, content="\n".join(lines).encode(),
                               data={**FIELDS, "name": name, "start_date": start,
                                     "end_date": start})
    return report.tournament  # type: ignore[return-value]


@pytest.fixture
def membership_officer(make_user):
    return make_user(federation_services.ROLE_MEMBERSHIP_OFFICER,
                     email="membership@example.org")


@pytest.fixture
def duplicates(officer):
    """Anna Smit known by her EMA number in one tournament, written "Ann Smit" without it
    in another: two players."""
    first = _import(officer, "Spring Cup", "2024-03-02", [
        ("Anna", "Smit", "04010001"), ("Bob", "Berg", ""), ("Cor", "Dam", ""),
        ("Dirk", "Eik", "")])
    second = _import(officer, "Autumn Cup", "2024-09-07", [
        ("Ann", "Smit", ""), ("Jan", "Kos", "04010002"), ("Eva", "Fok", ""),
        ("Gijs", "Hop", "")])
    anna = Player.objects.get(ema_number="04010001")
    ann = Player.objects.get(name_latin="Ann Smit")
    return anna, ann, first, second


def test_merge_moves_results_recomputes_and_redirects(api, membership_officer, duplicates):
    anna, ann, _first, second = duplicates
    assert RatingEntry.objects.filter(player=ann).exists()
    client = token_client(membership_officer)
    assert api["organizer"].post(f"/api/v1/players/{ann.pk}/merge", {"into": anna.pk},
                                 format="json").status_code == 403
    answer = client.post(f"/api/v1/players/{ann.pk}/merge", {"into": anna.pk}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["id"] == anna.pk
    assert TournamentResult.objects.get(tournament=second, rank=1).player_id == anna.pk
    assert not RatingEntry.objects.filter(player=ann).exists()
    assert set(RatingEntry.objects.filter(player=anna).values_list("period", flat=True)) == {
        "2024-03", "2024-09"}
    redirect = api["anonymous"].get(f"/api/v1/players/{ann.pk}")
    assert redirect.status_code == 301 and redirect["Location"].endswith(
        f"/api/v1/players/{anna.pk}")
    page = api["anonymous"].get(f"/en/ratings/players/{ann.pk}/")
    assert page.status_code == 301 and page["Location"].endswith(f"/players/{anna.pk}/")
    assert ModelLogEntry.objects.filter(action="tournaments.player.merge").exists()
    # undo: back as before
    merge = PlayerMerge.objects.get()
    undone = client.post(f"/api/v1/players/merges/{merge.pk}/undo")
    assert undone.status_code == 200
    assert TournamentResult.objects.get(tournament=second, rank=1).player_id == ann.pk
    assert api["anonymous"].get(f"/api/v1/players/{ann.pk}").status_code == 200
    assert RatingEntry.objects.filter(player=ann).exists()
    again = client.post(f"/api/v1/players/merges/{merge.pk}/undo")
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "merge_undone"


def test_two_players_of_one_tournament_are_two_people(membership_officer, duplicates):
    anna, _ann, _first, _second = duplicates
    bob = Player.objects.get(name_latin="Bob Berg")
    with pytest.raises(TournamentError) as refused:
        identity.player_merge(player=bob, into=anna, user=membership_officer)
    assert refused.value.code == "merge_same_tournament"
    with pytest.raises(TournamentError):
        identity.player_merge(player=anna, into=anna, user=membership_officer)


def test_an_undo_waits_for_newer_merges(membership_officer, duplicates):
    anna, ann, _first, _second = duplicates
    identity.player_merge(player=ann, into=anna, user=membership_officer)
    first = PlayerMerge.objects.get(merged=ann)
    # a newer merge of other players does not depend on it
    eva, cor = Player.objects.get(name_latin="Eva Fok"), Player.objects.get(name_latin="Cor Dam")
    identity.player_merge(player=eva, into=cor, user=membership_officer)
    # one into the kept player does
    stray = Player.objects.create(name_latin="A. Smit", country="RU")
    newer = identity.player_merge(player=stray, into=anna, user=membership_officer)
    with pytest.raises(TournamentError) as blocked:
        identity.player_merge_undo(merge=first, user=membership_officer)
    assert blocked.value.code == "merge_undo_blocked"
    identity.player_merge_undo(merge=PlayerMerge.objects.get(merged=stray),
                               user=membership_officer)
    identity.player_merge_undo(merge=first, user=membership_officer)
    assert newer.pk == anna.pk and Player.objects.get(pk=ann.pk).merged_into is None


def test_a_member_claims_a_player_and_the_membership_officer_confirms(
        api, make_user, membership_officer, duplicates):
    _anna, ann, _first, _second = duplicates
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    user = make_user(email="ann@example.org")
    member = Member.objects.create(name_latin="Ann Smit", membership_number=501,
                                   country="RU", membership_type=regular, user=user)
    assert api["anonymous"].post(f"/api/v1/players/{ann.pk}/claim").status_code == 401
    assert api["member"].post(f"/api/v1/players/{ann.pk}/claim").status_code == 400
    claimed = token_client(user).post(f"/api/v1/players/{ann.pk}/claim")
    assert claimed.status_code == 201
    claim = PlayerClaim.objects.get()
    assert token_client(user).get("/api/v1/players/claims").status_code == 403
    officer = token_client(membership_officer)
    assert [c["id"] for c in officer.get("/api/v1/players/claims").json()] == [claim.pk]
    decided = officer.post(f"/api/v1/players/claims/{claim.pk}/decision", {"confirm": True},
                           format="json")
    assert decided.status_code == 200 and decided.json()["state"] == "confirmed"
    ann.refresh_from_db()
    assert ann.member == member


def test_this_is_me_on_the_player_page_and_the_admin_decision(
        client, make_user, membership_officer, duplicates):
    _anna, ann, _first, _second = duplicates
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    user = make_user(email="ann2@example.org")
    Member.objects.create(name_latin="Ann Smit", membership_number=502, country="RU",
                          membership_type=regular, user=user)
    client.force_login(user)
    assert 'data-testid="claim"' in client.get(f"/en/ratings/players/{ann.pk}/").content.decode()
    client.post(f"/en/ratings/players/{ann.pk}/claim/")
    claim = PlayerClaim.objects.get()
    assert client.get("/admin/players/claims/").status_code in (302, 403)
    client.force_login(membership_officer)
    assert str(ann) in client.get("/admin/players/claims/").content.decode()
    client.post(f"/admin/players/claims/{claim.pk}/decide/", {"decision": "refuse"})
    claim.refresh_from_db()
    assert claim.state == "refused"


def test_a_merged_players_name_names_the_kept_player(officer, membership_officer, duplicates):
    """Regression: after a merge, the merged row's name was still a candidate of a
    name-only match, so a later import could give results to the merged player again."""
    anna, ann, _first, _second = duplicates
    identity.player_merge(player=ann, into=anna, user=membership_officer)
    content = (b"Place,First name,Last name,Country,Score\n1,Ann,Smit,Russia,10\n"
               b"2,Zed,Zon,Russia,5\n")
    report = tournament_import(user=officer, content=content, dry_run=True,
                               data={**FIELDS, "name": "Winter Cup", "start_date": "2024-12-07",
                                     "end_date": "2024-12-07"})
    assert [c["id"] for c in report.review[0]["candidates"]] == [anna.pk]
