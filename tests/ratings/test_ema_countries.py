"""The EMA country ranking (decision 0832): GET /api/v1/rankings/ema/countries and its page,
from the stored EMA ranking; query counts flat in the history's size."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from tests.ratings.test_ema_ranking import mers_tournament
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def field(countries: dict[str, int]) -> list[Player]:
    """Players of these countries, in this order of places."""
    return [Player.objects.create(name_latin=f"{code} {i}", country=code)
            for code, n in countries.items() for i in range(1, n + 1)]


@pytest.fixture
def played():
    today = timezone.localdate()
    people = field({"NL": 4, "FR": 2, "DE": 2})  # places 1..8
    mers_tournament(people, today - timedelta(days=10))
    mers_tournament(people, today - timedelta(days=20))
    return today, people


def test_the_api_ranks_countries_by_their_best_three(played):
    today, people = played
    body = APIClient().get("/api/v1/rankings/ema/countries?ruleset=mcr").json()
    assert body["date"] == today.isoformat()
    # 8 players, two identical tournaments: base ranks 1000, 857, 714, 571, 428, 285, 142, 0
    # (whole numbers rounded down); each score = (A + B) / 2 with A = 2b/5, B = 2b/4
    # = 0.45 b: NL 450, 385.65, 321.3 (the 4th not counted) -> 385.65;
    # FR 192.6, 128.25 and a missing 0 -> 106.95; DE 63.9, 0, 0 -> 21.3
    assert [(c["rank"], c["country"], c["score"]) for c in body["countries"]] == [
        (1, "NL", 385.65), (2, "FR", 106.95), (3, "DE", 21.3)]
    nl = body["countries"][0]
    assert [p["player"] for p in nl["players"]] == [p.pk for p in people[:3]]
    assert nl["players"][0] == {"player": people[0].pk, "name": "NL 1", "score": 450.0}
    assert nl["name"] == "Netherlands"


def test_country_names_follow_the_language(played):
    body = APIClient().get("/api/v1/rankings/ema/countries?ruleset=mcr",
                           HTTP_ACCEPT_LANGUAGE="ru").json()
    assert body["countries"][0]["name"] == "Нидерланды"
    page = APIClient().get("/ru/ratings/ema/countries/?ruleset=mcr").content.decode()
    assert "Нидерланды" in page and "Франция" in page


def test_another_date_is_computed(played):
    today, _people = played
    day = today - timedelta(days=15)  # only the older tournament: 1 result each, none listed
    body = APIClient().get(f"/api/v1/rankings/ema/countries?ruleset=mcr&date={day}").json()
    assert body == {"date": day.isoformat(), "ruleset": "mcr", "countries": []}


@pytest.mark.parametrize(("query", "bad"), [
    ("ruleset=chess", "ruleset"), ("ruleset=mcr&date=2026-13-01", "date"),
    ("ruleset=mcr&date=yesterday", "date"), ("ruleset=mcr&date=0002-01-01", "date")])
def test_bad_parameters_are_named(query, bad):
    response = APIClient().get(f"/api/v1/rankings/ema/countries?{query}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == bad


def test_the_page_lists_the_countries_and_the_ema_page_links_to_it(client, played):
    page = client.get("/en/ratings/ema/countries/?ruleset=mcr").content.decode()
    assert 'data-testid="ema-countries"' in page
    assert page.index("Netherlands") < page.index("France") < page.index("Germany")
    assert "385.65" in page
    ema = client.get("/en/ratings/ema/?ruleset=mcr").content.decode()
    assert 'data-testid="ema-countries-link"' in ema and "/en/ratings/ema/countries/" in ema
    assert client.get("/en/ratings/ema/countries/?ruleset=chess").status_code == 404


def _queries(client, url: str) -> int:
    client.get(url)  # the ranking stored once
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx)


def test_query_counts_are_flat_in_the_history(client):
    today = timezone.localdate()
    urls = ("/api/v1/rankings/ema/countries?ruleset=mcr", "/en/ratings/ema/countries/?ruleset=mcr")

    def history(players: int, tournaments: int) -> None:
        people = field({"NL": players // 4, "FR": players // 4, "DE": players // 4,
                        "IT": players // 4})
        for i in range(tournaments):
            mers_tournament(people[i % 4:] + people[:i % 4], today - timedelta(days=5 + i))

    history(8, 2)
    small = [_queries(client, url) for url in urls]
    history(80, 20)
    large = [_queries(client, url) for url in urls]
    assert small == large
