"""The hand archive's pages and API (issue 40): who sees what, the contract's fields, the
numbers as the stored hands say, the query counts flat with history."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.test_hand_stats import played  # noqa: F401  (fixture)
from tournaments.models import HandStats, TableResult

pytestmark = pytest.mark.django_db


def _east(tournament):
    return dict(TableResult.objects.filter(tournament=tournament, session=1, table=1)
                .values_list("seat", "player_id"))


def test_player_stats_api_contract(client, played):  # noqa: F811
    seats = _east(played)
    body = client.get(f"/api/v1/players/{seats['E']}/stats?ruleset=mcr"
                      f"&year={played.end_date.year}").json()
    assert (body["hands_won"], body["self_drawn"], body["dealt_in"]) == (3, 1, 0)
    assert body["average_points"] == 9.0
    assert body["largest_hand"]["points"] == 10 and body["largest_hand"]["hand"] == 3
    assert body["fans"][0]["fan"] == "49" and body["fans"][0]["count"] == 2
    assert body["field"]["hands_won"] == 1.0 and body["field"]["players"] == 4
    south = client.get(f"/api/v1/players/{seats['S']}/stats").json()
    assert south["dealt_in"] == 2 and south["largest_hand"] is None
    bad = client.get(f"/api/v1/players/{seats['E']}/stats?year=99999")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "year"
    assert client.get(f"/api/v1/players/{seats['E']}/stats?ruleset=xx").status_code == 400


def test_head_to_head_api(client, played):  # noqa: F811
    seats = _east(played)
    body = client.get(f"/api/v1/players/{seats['E']}/head-to-head/{seats['N']}").json()
    summary = body["summary"]
    assert summary["together"] >= 1 and summary["together"] == body["count"]
    assert set(summary) >= {"together", "ahead", "behind", "table_points", "game_points"}
    first = body["sessions"][-1]
    assert first["session"] == 1 and first["table"] == 1
    assert client.get(f"/api/v1/players/{seats['E']}/head-to-head/999999").status_code == 404


def test_top_hands_and_almanac_api(client, played, make_tournament):  # noqa: F811
    body = client.get(f"/api/v1/tournaments/{played.pk}/hands/top").json()
    assert [h["points"] for h in body["hands"]] == [24, 10, 9, 8]
    assert body["hands"][1]["self_drawn"] is False and body["hands"][2]["self_drawn"] is True
    assert {p["prize"] for p in body["prizes"]} >= {"best_hand", "most_wins"}
    open_one = make_tournament("accredited", players=8)
    assert client.get(f"/api/v1/tournaments/{open_one.pk}/hands/top").json()["hands"] == []
    draft = make_tournament("draft")
    assert client.get(f"/api/v1/tournaments/{draft.pk}/hands/top").status_code == 404
    almanac = client.get("/api/v1/fans/mcr/almanac").json()
    year = almanac["years"][0]
    assert year["winning_hands"] == 4
    assert {f["fan"]: f["count"] for f in year["fans"]}["49"] == 2
    assert {r["record"]: r["value"] for r in almanac["records"]}["largest_hand"] == 24
    assert client.get("/api/v1/fans/nope/almanac").status_code == 404


def test_pages_in_two_languages(client, played):  # noqa: F811
    seats = _east(played)
    page = client.get(f"/en/ratings/players/{seats['E']}/game/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Hands won" in text and 'data-testid="fan-bars"' in text
    assert f"/en/ratings/players/{seats['E']}/vs/" in text  # frequent opponents link
    ru = client.get(f"/ru/ratings/players/{seats['E']}/vs/{seats['N']}/").content.decode()
    assert 'data-testid="h2h-summary"' in ru
    hands = client.get(f"/fr/tournaments/{played.pk}/hands/").content.decode()
    assert 'data-testid="prizes"' in hands
    csv_text = client.get(f"/en/tournaments/{played.pk}/hands.csv").content.decode()
    assert csv_text.startswith("prize,prize_name,player_id") and "best_hand" in csv_text
    almanac = client.get("/nl/ratings/fans/mcr/").content.decode()
    assert 'data-testid="records"' in almanac
    assert client.get("/en/ratings/fans/xx/").status_code == 404
    assert client.get(f"/en/ratings/players/{seats['E']}/game/?year=abc").status_code == 404


def test_the_command_writes_the_same_rows_again(played):  # noqa: F811
    before = list(HandStats.objects.order_by("player_id").values_list(
        "player_id", "hands_won", "self_drawn", "dealt_in", "fans"))
    HandStats.objects.all().delete()
    call_command("hand_stats_refresh", stdout=io.StringIO())
    after = list(HandStats.objects.order_by("player_id").values_list(
        "player_id", "hands_won", "self_drawn", "dealt_in", "fans"))
    assert after == before


def test_page_queries_do_not_grow_with_history(client):
    from datetime import date

    from tests.tournaments.confirmed_results import confirmed_tournament, players

    people = players(8)

    def add(first: int, count: int) -> None:
        for i in range(first, first + count):
            t = confirmed_tournament(people, date(2020 + i % 5, 1 + i % 12, 1), seed=i,
                                     sessions=2)
            HandStats.objects.bulk_create(
                HandStats(tournament=t, player=p, ruleset="mcr", year=t.end_date.year,
                          hands_played=10, hands_won=2, points_won=20, fans={"49": 1})
                for p in people)

    def counts() -> list[int]:
        out = []
        for url in (f"/en/ratings/players/{people[0].pk}/game/",
                    f"/en/ratings/players/{people[0].pk}/vs/{people[1].pk}/",
                    "/en/ratings/fans/mcr/",
                    f"/api/v1/players/{people[0].pk}/stats",
                    "/api/v1/fans/mcr/almanac"):
            client.get(url)  # the fan names are kept for a minute: warm them first
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            out.append(len(ctx.captured_queries))
        return out

    add(0, 1)
    small = counts()
    add(1, 9)
    assert counts() == small
