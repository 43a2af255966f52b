"""EMA ids and the EMA results sheet (decision 0807): the pure rows, the API, the downloads."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from openpyxl import load_workbook

from federation.models import Member, MembershipType
from tournaments import services
from tournaments.ema_export import Standing, ema_rows, players_to_fix
from tournaments.models import Player, TournamentResult


def standing(player: int, rank: int, **kw) -> Standing:
    values = {"table_points": Fraction(4), "game_points": 10, "first_name": "A",
              "last_name": "B", "ema_number": "", "country": "Netherlands", "member": False}
    values.update(kw)
    return Standing(player=player, rank=rank, **values)


def test_rows_leave_substitutes_out_and_ties_share_places():
    rows = ema_rows([
        standing(1, 1, ema_number="04010001"), standing(2, 2, substitute=True),
        standing(3, 3, table_points=Fraction(7, 3)), standing(4, 3), standing(5, 5),
    ])
    assert [r.place for r in rows] == [1, 2, 2, 4]
    assert rows[0].values() == (1, "A", "B", "04010001", 4, 10, "yes", "Netherlands")
    assert str(rows[1].table_points) == "2.33" and rows[1].values()[6] == "no"


def test_members_without_ema_number_block_a_mers_tournament_only():
    field = [standing(1, 1, member=True), standing(2, 2, member=False),
             standing(3, 3, member=True, ema_number="04010001"),
             standing(4, 4, member=True, substitute=True)]
    assert players_to_fix(field, mers=True) == [1]
    assert players_to_fix(field, mers=False) == []


def test_latin_names_split_when_first_and_last_are_not_given():
    assert Player(name_latin="Anna van Dijk").latin_first_last == ("Anna van", "Dijk")
    assert Player(name_latin="X", first_name="Anna", last_name="van Dijk").latin_first_last == (
        "Anna", "van Dijk")


@pytest.mark.django_db
def test_ema_numbers_are_checked_and_unique(api, make_tournament):
    t = make_tournament("accredited", players=0)
    bad = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "Anna Smit", "country": "NL", "ema_number": "401000"}], format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "ema_number"
    ok = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "Anna Smit", "country": "NL", "ema_number": "04010001",
         "first_name": "Anna", "last_name": "Smit"}], format="json")
    assert ok.status_code in (200, 201)
    anna = Player.objects.get(ema_number="04010001")
    assert (anna.first_name, anna.last_name) == ("Anna", "Smit")
    from django.db import IntegrityError, transaction
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name_latin="Other", ema_number="04010001")
    Player.objects.create(name_latin="No number 1")
    Player.objects.create(name_latin="No number 2")  # empty numbers do not clash


@pytest.fixture
def confirmed(make_tournament):
    return make_tournament("results confirmed", players=16)


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("organizer", 200), ("officer", 200)
])
def test_ema_results_api_permissions(api, confirmed, role, code):
    assert api[role].get(f"/api/v1/tournaments/{confirmed.pk}/ema-results").status_code == code


@pytest.mark.django_db
def test_ema_results_api_rows_equal_the_stored_standings(api, confirmed):
    body = api["organizer"].get(f"/api/v1/tournaments/{confirmed.pk}/ema-results").json()
    stored = list(TournamentResult.objects.filter(tournament=confirmed)
                  .select_related("player").order_by("rank", "player_id"))
    assert len(body["rows"]) == 16
    for row, result in zip(body["rows"], stored, strict=True):
        first, last = result.player.latin_first_last
        assert row["place"] == result.rank
        assert (row["first_name"], row["last_name"]) == (first, last)
        assert row["table_points"] == pytest.approx(float(result.table_points), abs=0.005)
        assert row["score"] == result.game_points
        assert row["country"] == "Netherlands" and row["ema_member"] is False


@pytest.mark.django_db
def test_a_mers_tournament_refuses_while_a_member_lacks_an_ema_number(api, client, confirmed,
                                                                      organizer, officer):
    services.tournament_mers_set(tournament=confirmed, user=officer, mers=True,
                                 mers_weight=2, reason="as the EMA gave it")
    player = TournamentResult.objects.filter(tournament=confirmed).first().player
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    player.member = Member.objects.create(name_native="Анна Ли", name_latin="Anna Lee",
                                          membership_number=77, membership_type=regular)
    player.save()
    response = api["organizer"].get(f"/api/v1/tournaments/{confirmed.pk}/ema-results")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "ema_number"
    assert error["players"] == [{"id": player.pk, "name": str(player)}]
    client.force_login(organizer)
    page = client.get(f"/en/tournaments/{confirmed.pk}/ema-results.xlsx", follow=True)
    assert str(player) in page.content.decode()
    player.ema_number = "04010001"
    player.save()
    assert api["organizer"].get(
        f"/api/v1/tournaments/{confirmed.pk}/ema-results").status_code == 200


@pytest.mark.django_db
def test_downloads_csv_and_xlsx(client, confirmed, organizer, member_user):
    url = f"/en/tournaments/{confirmed.pk}/ema-results"
    client.force_login(member_user)
    assert client.get(f"{url}.csv").status_code == 403
    client.force_login(organizer)
    page = client.get(f"/en/tournaments/{confirmed.pk}/").content.decode()
    assert "ema-results.xlsx" in page
    csv = client.get(f"{url}.csv").content.decode().splitlines()
    assert csv[0] == ("Place,First name,Last name,EMA number,Table points,Score,EMA member,"
                      "Country")
    assert len(csv) == 17
    response = client.get(f"{url}.xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][0] == "Place" and len(rows) == 17
    assert rows[1][0] == int(csv[1].split(",")[0])
