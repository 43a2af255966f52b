"""The EMA ranking from stored standings: the selector, GET /api/v1/rankings/ema, the pages."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from ratings.rankings import ema_base_ranks_store
from ratings.selectors import ema_player, ema_ranking
from tests.factories import UserFactory
from tournaments.models import Player, Registration, Tournament, TournamentResult

pytestmark = pytest.mark.django_db

ON = date(2026, 6, 30)


def mers_tournament(places: list[Player], end: date, weight: str = "1", *, mers: bool = True,
                    substitutes: tuple[Player, ...] = (), ruleset: str = "mcr",
                    state: str = Tournament.State.RESULTS_CONFIRMED) -> Tournament:
    t = Tournament.objects.create(
        name=f"Open {end}", start_date=end, end_date=end, city="Utrecht", country="NL",
        organizer=UserFactory(), ruleset=ruleset, sessions=6, planned_players=len(places),
        state=state, mers=mers, mers_weight=Decimal(weight) if mers else None,
    )
    for rank, player in enumerate(places, start=1):
        Registration.objects.create(tournament=t, player=player, number=rank,
                                    substitute=player in substitutes)
        TournamentResult.objects.create(
            tournament=t, player=player, rank=rank, players=len(places),
            table_points_numerator=0, game_points=0, sessions=6,
        )
    ema_base_ranks_store(tournament_ids=[t.pk])  # what confirming the results does
    return t


@pytest.fixture
def people() -> list[Player]:
    return [Player.objects.create(name_latin=f"Player {c}", country="NL") for c in "ABCDE"]


def test_ranking_from_two_mers_tournaments(people):
    a, b, c, d, e = people
    mers_tournament([a, b, c, d, e], ON - timedelta(days=10), "2")  # 1000 750 500 250 0
    mers_tournament([b, a, c], ON - timedelta(days=400), "2")  # aged: weight 1; 1000 500 0
    mers_tournament([e, d], ON - timedelta(days=5), mers=False)  # not MERS: ignored
    mers_tournament([e, d], ON - timedelta(days=5), ruleset="hkos")  # another ruleset
    rows = ema_ranking("mcr", ON)
    assert [r.score.player for r in rows] == [a.pk, b.pk, c.pk]  # d, e: one result
    top = rows[0].score
    # A: (1000 x 2 + 500 x 1 + 0 x 3) / 6; B: (2000 + 500) / (2 + 1 + 1 + 1)
    assert top.part_a == Fraction(2500, 6)
    assert top.part_b == 500


def test_substitutes_are_not_ranked(people):
    a, b, c, _d, e = people
    mers_tournament([a, e, b, c], ON, substitutes=(e,))
    mers_tournament([a, e, b, c], ON, substitutes=(e,))
    calc = ema_player(b, "mcr", ON)
    assert [r.base_rank for r in calc.score.results if r.tournament] == [500, 500]
    assert ema_player(e, "mcr", ON).score.tournaments == 0


def test_api_ranking(people):
    a, b, *_ = people
    mers_tournament([a, b], ON - timedelta(days=1))
    mers_tournament([a, b], ON - timedelta(days=2))
    body = APIClient().get("/api/v1/rankings/ema", {"ruleset": "mcr",
                                                    "date": ON.isoformat()}).json()
    assert body["date"] == "2026-06-30"
    assert body["rankings"][0] == {
        "rank": 1, "player": a.pk, "name": "Player A", "country": "NL", "score": 450.0,
        "part_a": 400.0, "part_b": 500.0, "tournaments": 2,
    }
    assert body["rankings"][1]["score"] == 0.0


@pytest.mark.parametrize(("query", "field"), [({"date": "2026-13-01"}, "date"),
                                              ({"ruleset": "riichi"}, "ruleset")])
def test_api_errors_name_the_field(query, field):
    response = APIClient().get("/api/v1/rankings/ema", query)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field


def test_query_count_is_flat(people):
    a, b, c, d, e = people
    mers_tournament([a, b, c], ON)
    mers_tournament([a, b, c], ON)
    client = APIClient()
    with CaptureQueriesContext(connection) as small:
        client.get("/api/v1/rankings/ema", {"date": ON.isoformat()})
    for i in range(4):
        mers_tournament([e, d, c, b, a], ON - timedelta(days=30 * i))
    with CaptureQueriesContext(connection) as large:
        client.get("/api/v1/rankings/ema", {"date": ON.isoformat()})
    assert len(large) == len(small)


def test_list_page_and_csv_are_public(client, people):
    a, b, *_ = people
    mers_tournament([a, b], ON - timedelta(days=1))
    mers_tournament([a, b], ON - timedelta(days=2))
    page = client.get("/en/ratings/ema/", {"date": ON.isoformat()})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Player A" in html and "450.00" in html and "2 players listed" in html
    csv = client.get("/en/ratings/ema/csv/", {"date": ON.isoformat()}).content.decode()
    lines = csv.splitlines()
    assert lines[0] == "rank,player,name,country,score,part_a,part_b,tournaments"
    assert lines[1] == f"1,{a.pk},Player A,NL,450.00,400.00,500.00,2"
    only_be = client.get("/en/ratings/ema/", {"date": ON.isoformat(), "country": "BE"})
    assert "0 players listed" in only_be.content.decode()


@pytest.mark.parametrize("query", [{"ruleset": "riichi"}, {"date": "yesterday"}])
def test_list_page_unknown_ruleset_or_bad_date_is_404(client, query):
    assert client.get("/en/ratings/ema/", query).status_code == 404


def test_list_page_query_count_is_flat(client, people):
    a, b, c, d, e = people
    mers_tournament([a, b, c], ON)
    mers_tournament([a, b, c], ON)
    with CaptureQueriesContext(connection) as small:
        client.get("/en/ratings/ema/", {"date": ON.isoformat()})
    for i in range(4):
        mers_tournament([e, d, c, b, a], ON - timedelta(days=30 * i))
    with CaptureQueriesContext(connection) as large:
        client.get("/en/ratings/ema/", {"date": ON.isoformat()})
    assert len(large) == len(small)


def test_player_page_writes_the_calculation_out(client, people):
    a, b, *_ = people
    today = date.today()
    mers_tournament([a, b], today - timedelta(days=1), "2")
    html = client.get(f"/en/ratings/players/{a.pk}/").content.decode()
    assert "EMA ranking" in html and "missing result" in html
    assert "not listed: at least 2 results are needed" in html
    # A: 1000 x 2 / (2 + 4); B: 1000 x 2 / (2 + 3)
    assert "333.33" in html and "400.00" in html and "366.67" in html
    other = Player.objects.create(name_latin="Nobody")
    assert "ema-heading" not in client.get(f"/en/ratings/players/{other.pk}/").content.decode()


def test_player_page_counts_the_published_base_ranks(client):
    """Decision 0831: 3rd of 7 is 666.67, counted and shown as 666."""
    people = [Player.objects.create(name_latin=f"Seven {i}", country="NL") for i in range(7)]
    mers_tournament(people, date.today() - timedelta(days=1))
    html = client.get(f"/en/ratings/players/{people[2].pk}/").content.decode()
    assert '<td class="num">666</td>' in html
    # A: 666 / 5 = 133.20; B: 666 / 4 = 166.50; score (133.2 + 166.5) / 2 = 149.85
    assert "133.20" in html and "166.50" in html and "149.85" in html


def test_the_freeze_is_a_setting_on_for_mcr(settings):
    """Decision 0831: the EMA's freeze ages no MCR result from 2020-04-01 to 2022-04-01."""
    from ratings.rules.ema import Freeze
    from ratings.selectors.ema import ema_config

    assert ema_config("mcr").freeze == Freeze(date(2020, 4, 1), date(2022, 4, 1))
    assert ema_config("hkos").freeze is None
    people = [Player.objects.create(name_latin=f"Frozen {i}", country="NL") for i in range(3)]
    mers_tournament(people, date(2019, 10, 1))
    mers_tournament(people[::-1], date(2019, 11, 1))
    # on 2022-03-01 the results are 183 and 152 days old (the frozen days left out): full
    # weight, listed
    on = date(2022, 3, 1)
    rows = ema_ranking("mcr", on)
    assert len(rows) == 3
    assert all(c.age_factor == 1 for c in rows[0].score.results if c.tournament)
    settings.EMA_FREEZE_RULESETS = ()
    assert ema_ranking("mcr", on) == []  # without the freeze: over two years old
@pytest.mark.parametrize("today", [False, True])
def test_api_ranking_comes_in_pages(people, monkeypatch, today):
    """Decision 0823: ``?page=``, ``count``, ``next``, ``previous`` and the Link header, the
    same fields in each row; today's ranking from the stored one, another day's computed."""
    from django.utils import timezone

    monkeypatch.setattr("ratings.api.EMA_PAGE_SIZE", 2)
    a, b, c, *_ = people
    on = timezone.localdate() if today else ON
    mers_tournament([a, b, c], on - timedelta(days=1))
    mers_tournament([a, b, c], on - timedelta(days=2))
    query = {} if today else {"date": ON.isoformat()}
    client = APIClient()
    first = client.get("/api/v1/rankings/ema", query)
    body = first.json()
    assert body["count"] == 3 and body["previous"] is None
    assert [r["player"] for r in body["rankings"]] == [a.pk, b.pk]
    assert set(body["rankings"][0]) == {"rank", "player", "name", "country", "score",
                                        "part_a", "part_b", "tournaments"}
    assert "page=2" in body["next"] and first["X-Total-Count"] == "3"
    assert 'rel="next"' in first["Link"]
    second = client.get("/api/v1/rankings/ema", {**query, "page": 2}).json()
    assert [r["player"] for r in second["rankings"]] == [c.pk]
    assert second["rankings"][0]["rank"] == 3 and second["next"] is None
    assert "page=1" in second["previous"]
    past_end = client.get("/api/v1/rankings/ema", {**query, "page": 9}).json()
    assert past_end["rankings"] == [] and "page=2" in past_end["previous"]


@pytest.mark.parametrize("page", ["0", "x", "99999999"])
def test_api_ranking_page_errors_name_the_field(page):
    response = APIClient().get("/api/v1/rankings/ema", {"page": page})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "page"
