"""What would a place do (issue 39, decision 0840): GET /api/v1/tournaments/{id}/what-if,
its page, who may see it, and the proof: the row of the place the player then takes equals
the figures after the results are confirmed."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from ratings.models import RatingEntry
from ratings.rankings import ema_base_ranks_store
from ratings.rules import ema
from ratings.rules.method import period_label, period_of
from ratings.selectors import ema_player
from ratings.services import ratings_recompute
from tests.factories import UserFactory
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments import services
from tournaments.models import Entry, Registration, TableResult, Tournament

pytestmark = pytest.mark.django_db


def _history(people, months: int) -> None:
    """`months` past MERS tournaments of these players, confirmed, rated, their EMA base
    ranks stored."""
    today = timezone.localdate()
    for i in range(months):
        t = confirmed_tournament(people, today - timedelta(days=40 + 31 * i), sessions=1,
                                 seed=10 + i, name=f"Past {i}")
        Tournament.objects.filter(pk=t.pk).update(mers=True, mers_weight=Decimal("1"))
        ema_base_ranks_store(tournament_ids=[t.pk])
    ratings_recompute(ruleset="mcr")


def _entered(people, *, mers: bool = True, organizer=None) -> Tournament:
    today = timezone.localdate()
    t = Tournament.objects.create(
        name="Autumn Open", start_date=today, end_date=today, city="Utrecht", country="NL",
        organizer=organizer or UserFactory(), ruleset="mcr", sessions=1,
        planned_players=len(people), state=Tournament.State.ACCREDITED, mers=mers,
        mers_weight=Decimal("1.5") if mers else None)
    for number, p in enumerate(people, start=1):
        Registration.objects.create(tournament=t, player=p, number=number)
    return t


@pytest.fixture
def field():
    people = players(4, country="NL")
    _history(people, 2)
    return people


def _get(client: APIClient, t: Tournament, player) -> dict:
    response = client.get(f"/api/v1/tournaments/{t.pk}/what-if", {"player": player})
    return {"status": response.status_code, **response.json()}


def _staff() -> APIClient:
    client = APIClient()
    client.force_authenticate(UserFactory(is_staff=True))
    return client


def test_the_row_of_the_place_taken_equals_the_figures_after_confirmation(field, settings):
    """The proof (issue 39): what-if, then the results so that the player takes place 2,
    confirmed, ratings and EMA recomputed; the row for place 2 is what the figures are."""
    settings.TOURNAMENT_MIN_PLAYERS = 4
    me, *others = field
    t = _entered(field)
    body = _get(_staff(), t, me.pk)
    assert body["status"] == 200 and body["entrants"] == 4
    assert [p["place"] for p in body["places"]] == [1, 2, 3, 4]
    # better places are better figures
    scores = [p["ema_score"] for p in body["places"]]
    ratings = [p["rating"] for p in body["places"]]
    assert scores == sorted(scores, reverse=True) and ratings == sorted(ratings, reverse=True)
    row = body["places"][1]

    # the strongest other entrant first (the assumption of decision 0840), me second
    period = period_label(period_of(t.end_date))
    latest = {e.player_id: e.rating for e in RatingEntry.objects.filter(
        ruleset="mcr", period__lt=period).order_by("period")}
    strongest = max(others, key=lambda p: (latest[p.pk], -p.pk))
    rest = [p for p in others if p != strongest]
    points = {strongest.pk: 30, me.pk: 10, rest[0].pk: -15, rest[1].pk: -25}
    for seat, p in zip("ESWN", [strongest, me, *rest], strict=True):
        TableResult.objects.create(tournament=t, session=1, table=1, seat=seat, player=p,
                                   game_points=points[p.pk])
    Tournament.objects.filter(pk=t.pk).update(state=Tournament.State.RESULTS_SUBMITTED)
    services.tournament_confirm(tournament=Tournament.objects.get(pk=t.pk),
                                user=t.organizer)

    assert t.final_results.get(player=me).rank == 2
    after = RatingEntry.objects.get(ruleset="mcr", player=me, period=period)
    assert after.rating == row["rating"] and after.rd == row["rd"]
    on = timezone.localdate()
    assert float(ema.rounded(ema_player(me, "mcr", on).score.score)) == row["ema_score"]


def test_a_tournament_not_certified_for_the_ema_leaves_the_ema_score_null(field):
    t = _entered(field, mers=False)
    body = _get(_staff(), t, field[0].pk)
    assert body["status"] == 200
    assert {p["ema_score"] for p in body["places"]} == {None}
    assert body["ema_score_now"] is not None
    assert all(p["rating"] is not None for p in body["places"])


def test_a_tournament_not_rated_leaves_the_rating_null(field):
    t = _entered(field)
    Tournament.objects.filter(pk=t.pk).update(rated=False)
    body = _get(_staff(), Tournament.objects.get(pk=t.pk), field[0].pk)
    assert {p["rating"] for p in body["places"]} == {None}
    assert body["rating_now"] is not None


def test_bad_requests_say_which_field(field):
    t = _entered(field[:3])
    staff = _staff()
    missing = staff.get("/api/v1/tournaments/999999/what-if", {"player": field[0].pk})
    assert missing.status_code == 404
    assert missing.json()["errors"][0]["field"] == "tournament"
    for value in ("", "abc", "\u00b2", "1" * 30):
        bad = _get(staff, t, value)
        assert bad["status"] == 400 and bad["errors"][0]["code"] == "invalid"
    assert _get(staff, t, 999999)["status"] == 404
    outside = _get(staff, t, field[3].pk)
    assert outside["status"] == 400 and outside["errors"][0]["code"] == "not_entered"
    Registration.objects.filter(tournament=t, player=field[2]).update(substitute=True)
    sub = _get(staff, t, field[2].pk)
    assert sub["status"] == 400 and sub["errors"][0]["code"] == "substitute"
    Tournament.objects.filter(pk=t.pk).update(state=Tournament.State.RESULTS_CONFIRMED)
    done = _get(staff, t, field[0].pk)
    assert done["status"] == 400 and done["errors"][0]["code"] == "results_confirmed"


def test_who_may_see_it(field):
    services.roles_setup()
    organizer = UserFactory()
    t = _entered(field, organizer=organizer)
    me = field[0]
    mine = UserFactory()
    Entry.objects.create(tournament=t, user=mine, first_name="A", last_name="B", country="NL",
                         status=Entry.Status.ENTERED,
                         registration=Registration.objects.get(tournament=t, player=me))
    officer = UserFactory()
    officer.groups.add(Group.objects.get(name=services.ROLE_OFFICER))
    other_organizer = UserFactory()
    other_organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    allowed = {"player": mine, "organizer": organizer, "officer": officer,
               "staff": UserFactory(is_staff=True)}
    refused = {"another player": UserFactory(), "another organizer": other_organizer}
    for who, user in allowed.items():
        client = APIClient()
        client.force_authenticate(user)
        assert _get(client, t, me.pk)["status"] == 200, who
    for who, user in refused.items():
        client = APIClient()
        client.force_authenticate(user)
        body = _get(client, t, me.pk)
        assert body["status"] == 403 and body["errors"][0]["code"] == "forbidden", who
    # my own player only: another entrant's table is not mine to see
    client = APIClient()
    client.force_authenticate(mine)
    assert _get(client, t, field[1].pk)["status"] == 403
    assert _get(APIClient(), t, me.pk)["status"] == 403


def test_the_page_for_the_player_and_the_link_on_the_tournament_page(client, field):
    t = _entered(field)
    me = field[0]
    user = UserFactory()
    Entry.objects.create(tournament=t, user=user, first_name="A", last_name="B", country="NL",
                         status=Entry.Status.ENTERED,
                         registration=Registration.objects.get(tournament=t, player=me))
    url = f"/en/ratings/tournaments/{t.pk}/what-if/{me.pk}/"
    assert client.get(url).status_code == 302  # to the login
    client.force_login(user)
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "What would a place do" in text and text.count("<tr>") == 5
    assert url in client.get(f"/en/tournaments/{t.pk}/").content.decode()
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    assert url not in client.get(f"/en/tournaments/{t.pk}/").content.decode()


def _queries(t: Tournament, player) -> int:
    staff = _staff()
    with CaptureQueriesContext(connection) as ctx:
        assert _get(staff, t, player)["status"] == 200
    return len(ctx.captured_queries)


def test_queries_flat_in_the_history():
    people = players(8, country="NL")
    _history(people, 1)
    t = _entered(people)
    small = _queries(t, people[0].pk)
    _history(people, 10)
    assert _queries(t, people[0].pk) == small
