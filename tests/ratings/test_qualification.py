"""The federation's qualification lists (issue 39, decision 0842): the rule, the pages, the
exports, who may edit and see them."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from openpyxl import load_workbook

from ratings.models import QualificationList, StoredRanking
from ratings.rules.qualification import (
    PointsInvalid,
    parse_points,
    qualification,
    series_scores,
)
from ratings.services import ratings_recompute
from tests.factories import UserFactory
from tests.ratings.test_ema_ranking import mers_tournament
from tests.tournaments.confirmed_results import confirmed_tournament
from tournaments import services
from tournaments.models import Player

# --- the pure rule ---------------------------------------------------------------------------


def test_points_per_place_are_parsed() -> None:
    assert parse_points("10, 8,6") == (10, 8, 6)
    assert parse_points("10，8、6") == (10, 8, 6)  # as a Chinese keyboard types them
    assert parse_points("") == ()
    for bad in ("10, x", "1;2", "-1", "3,,1", "\u00b2"):
        with pytest.raises(PointsInvalid):
            parse_points(bad)


def test_series_points_and_their_ties() -> None:
    points = (10, 6, 3)
    places = {1: [(1, 1), (2, 2), (3, 3), (4, 4)],   # 10 6 3 0
              2: [(2, 1), (1, 3), (4, 2), (3, 4)]}    # 10 3 6 0
    scores = series_scores(places, points)
    # 1: 13, best 1st; 2: 16; 3: 3; 4: 6
    assert [(s.player, s.points) for s in scores] == [(2, 16), (1, 13), (4, 6), (3, 3)]
    # equal points: the better best place first, then more tournaments
    tied = series_scores({1: [(5, 1), (6, 2)], 2: [(6, 2)], 3: [(7, 2), (8, 2)]}, (6, 3))
    assert [(s.player, s.points) for s in tied] == [(5, 6), (6, 6), (7, 3), (8, 3)]


def test_seats_then_reserves_then_nobody() -> None:
    lines = qualification([9, 8, 7, 6, 5], seats=2, reserves=2)
    assert [(line.player, line.status) for line in lines] == [
        (9, "qualified"), (8, "qualified"), (7, "reserve"), (6, "reserve")]


# --- the pages ---------------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytest.fixture
def people(db):
    names = ["Anna", "=HYPERLINK(\"http://x\")", "Boris", "Chen", "Dora"]
    out = [Player.objects.create(name_latin=n, country="NL") for n in names]
    out.append(Player.objects.create(name_latin="Elsewhere", country="FR"))
    return out


def _officer():
    services.roles_setup()
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name=services.ROLE_OFFICER))
    return user


@pytest.mark.django_db
def test_by_ema_rank_with_reserves_and_a_country(client, people):
    today = timezone.localdate()
    foreigner = people[5]
    order = [foreigner, *people[:5]]  # the foreigner first: not ours, left out
    mers_tournament(order, today - timedelta(days=1))
    mers_tournament(order, today - timedelta(days=2))
    ql = QualificationList.objects.create(name="OEMC 2027", rule="ema", seats=2, reserves=1,
                                          country="NL", published=True)
    page = client.get(f"/en/ratings/qualification/{ql.pk}/")
    assert page.status_code == 200
    rows = page.context["rows"]
    assert [(r.player.pk, r.status) for r, _s in rows] == [
        (people[0].pk, "qualified"), (people[1].pk, "qualified"), (people[2].pk, "reserve")]
    assert "Elsewhere" not in page.content.decode()


@pytest.mark.django_db
def test_by_national_rating(client, people):
    today = timezone.localdate()
    confirmed_tournament(people[:4], today - timedelta(days=40), sessions=2, seed=3)
    ratings_recompute(ruleset="mcr")
    ql = QualificationList.objects.create(name="Nationals", rule="rating", seats=3,
                                          published=True)
    rows = client.get(f"/en/ratings/qualification/{ql.pk}/").context["rows"]
    ratings = [float(r.figure) for r, _s in rows]
    assert len(rows) == 3 and ratings == sorted(ratings, reverse=True)


@pytest.mark.django_db
def test_by_a_series_and_the_exports_are_formula_safe(client, people):
    today = timezone.localdate()
    a, formula, b, c, d, _e = people
    t1 = mers_tournament([a, formula, b, c], today - timedelta(days=10), mers=False)
    t2 = mers_tournament([formula, b, a, d], today - timedelta(days=5), mers=False)
    mers_tournament([d, c, b, a], today - timedelta(days=3), mers=False)  # not in the series
    ql = QualificationList.objects.create(name="Cup series", rule="series", seats=2, reserves=1,
                                          points="10, 6, 3", published=True)
    ql.tournaments.set([t1, t2])
    rows = client.get(f"/en/ratings/qualification/{ql.pk}/").context["rows"]
    # formula 6 + 10 = 16; a 10 + 3 = 13; b 3 + 6 = 9
    assert [(r.player.pk, r.figure, r.status) for r, _s in rows] == [
        (formula.pk, "16", "qualified"), (a.pk, "13", "qualified"), (b.pk, "9", "reserve")]
    text = client.get(f"/en/ratings/qualification/{ql.pk}/csv/").content.decode()
    assert "'=HYPERLINK" in text and "\n1,qualified," in text.replace("\r\n", "\n")
    book = load_workbook(io.BytesIO(client.get(f"/en/ratings/qualification/{ql.pk}/xlsx/")
                                    .content))
    cell = book.active["D2"]
    assert cell.value.startswith("=HYPERLINK") and cell.data_type == "s"


@pytest.mark.django_db
def test_who_sees_an_unpublished_list_and_who_edits(client, people):
    ql = QualificationList.objects.create(name="Draft", rule="ema", seats=2)
    officer = _officer()
    organizer = UserFactory(is_staff=True)
    organizer.groups.add(Group.objects.get(name=services.ROLE_ORGANIZER))
    url = f"/en/ratings/qualification/{ql.pk}/"
    assert client.get(url).status_code == 404
    assert client.get(url + "csv/").status_code == 404
    assert "Draft" not in client.get("/en/ratings/qualification/").content.decode()
    client.force_login(organizer)
    assert client.get(url).status_code == 404
    assert client.get("/admin/qualification_lists/").status_code in (302, 403)
    add = client.post("/admin/qualification_lists/new/", {
        "name": "Sneaky", "ruleset": "mcr", "rule": "ema", "seats": 1, "reserves": 0,
        "points": ""})
    assert add.status_code in (302, 403) and not QualificationList.objects.filter(
        name="Sneaky").exists()
    client.force_login(officer)
    assert client.get(url).status_code == 200
    assert client.get("/admin/qualification_lists/").status_code == 200
    client.post("/admin/qualification_lists/new/", {
        "name": "Team cup", "ruleset": "mcr", "rule": "series", "seats": 4, "reserves": 2,
        "country": "NL", "points": "10, x"})
    assert not QualificationList.objects.filter(name="Team cup").exists()  # points refused
    client.post("/admin/qualification_lists/new/", {
        "name": "Team cup", "ruleset": "mcr", "rule": "series", "seats": 4, "reserves": 2,
        "country": "NL", "points": "10, 8, 6"})
    assert QualificationList.objects.get(name="Team cup").seats == 4
    ql.published = True
    ql.save()
    client.logout()
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_queries_flat_in_the_history(client, people):
    ql = QualificationList.objects.create(name="OEMC", rule="ema", seats=3, reserves=2,
                                          published=True)
    today = timezone.localdate()

    def count() -> int:
        StoredRanking.objects.all().delete()
        client.get(f"/en/ratings/qualification/{ql.pk}/")  # stores the ranking
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/en/ratings/qualification/{ql.pk}/").status_code == 200
        return len(ctx.captured_queries)

    mers_tournament(people, today - timedelta(days=1))
    mers_tournament(people, today - timedelta(days=2))
    small = count()
    more = people + [Player.objects.create(name_latin=f"P{i}", country="NL") for i in range(50)]
    for days in range(3, 23):
        mers_tournament(more, today - timedelta(days=days))
    assert count() == small
