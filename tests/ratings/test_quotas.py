"""The EMA's championship quotas from the stored EMA ranking (decision 0841): the API, the
page; results abroad count where the EMA counts them (issue 39)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from ratings.models import StoredRanking
from tests.ratings.test_ema_ranking import mers_tournament
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked():
    a, b = (Player.objects.create(name_latin=f"NL {c}", country="NL") for c in "AB")
    c, d = (Player.objects.create(name_latin=f"FR {c}", country="FR") for c in "CD")
    today = timezone.localdate()
    # base ranks 1000 666 333 0 (whole numbers rounded down, decision 0831), twice:
    # scores 450 299.70 149.85 0
    for days in (1, 2):
        mers_tournament([a, c, b, d], today - timedelta(days=days))
    return a, b, c, d


def _api(**params) -> dict:
    response = APIClient().get("/api/v1/rankings/ema/quotas", params)
    return {"status": response.status_code, **response.json()}


def test_quotas_by_hand(ranked):
    body = _api(ruleset="mcr", seats=5)
    assert body["status"] == 200 and body["seats"] == 5
    assert body["average"] == 224.89  # (450 + 299.70 + 149.85 + 0) / 4 = 224.8875
    # NL first (mean of its best three 200 against 100); A2 1 + 1, A1 1 + 1, B: one seat,
    # a tie of equal shares: the better country; limits 1 and 1 (one player above 225)
    nl, fr = body["countries"]
    assert (nl["country"], nl["part_a"], nl["part_b"], nl["cap"], nl["seats"]) == (
        "NL", 2, 1, 1, 1)
    assert (fr["country"], fr["part_a"], fr["part_b"], fr["cap"], fr["seats"]) == (
        "FR", 2, 0, 1, 1)
    assert nl["players"] == 2 and nl["over_threshold"] == 0
    assert body["unallocated"] == 3


def test_member_countries_setting(ranked, settings):
    settings.EMA_MEMBER_COUNTRIES = ["fr"]
    body = _api(seats=3)
    assert [c["country"] for c in body["countries"]] == ["FR"]


def test_bad_input_names_the_field(ranked):
    for seats in ("0", "x", "-3", "99999", "\u00b2", "\u0663"):
        body = _api(seats=seats)
        assert body["status"] == 400 and body["errors"][0]["field"] == "seats"
    body = _api(ruleset="go")
    assert body["status"] == 400 and body["errors"][0]["field"] == "ruleset"


def test_results_abroad_count_in_the_ranking_and_the_quota(ranked):
    """A player whose only results are abroad (imported, not in our rating list) is in the
    EMA ranking and counts for their country's quota, as the EMA counts them."""
    _a, _b, c, _d = ranked
    e = Player.objects.create(name_latin="FR E", country="FR")
    today = timezone.localdate()
    for days in (3, 4):
        t = mers_tournament([e, c], today - timedelta(days=days), "2")
        Tournament.objects.filter(pk=t.pk).update(abroad=True, rated=False, country="DE")
    body = _api(seats=5)
    fr = next(x for x in body["countries"] if x["country"] == "FR")
    assert fr["players"] == 3
    ranking = APIClient().get("/api/v1/rankings/ema").json()["rankings"]
    assert e.pk in [r["player"] for r in ranking]


def test_the_page(client, ranked):
    page = client.get("/en/ratings/ema/quotas/?seats=5")
    assert page.status_code == 200
    text = page.content.decode()
    assert "EMA quotas" in text and "Netherlands" in text
    assert client.get("/en/ratings/ema/quotas/?seats=x").status_code == 400


def _count(url: str) -> int:
    APIClient().get(url)  # the ranking stored once
    with CaptureQueriesContext(connection) as ctx:
        assert APIClient().get(url).status_code == 200
    return len(ctx.captured_queries)


def test_queries_flat_in_the_history(ranked):
    small_api = _count("/api/v1/rankings/ema/quotas?seats=20")
    small_page = _count("/en/ratings/ema/quotas/?seats=20")
    people = list(ranked) + [Player.objects.create(name_latin=f"P{i}", country="BE")
                             for i in range(36)]
    today = timezone.localdate()
    for days in range(3, 12):
        mers_tournament(people, today - timedelta(days=days))
    StoredRanking.objects.all().delete()  # what a confirmation does: stored again
    assert _count("/api/v1/rankings/ema/quotas?seats=20") == small_api
    assert _count("/en/ratings/ema/quotas/?seats=20") == small_page
