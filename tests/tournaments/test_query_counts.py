"""The tournament page and its standings answer with the same number of queries whatever
the number of other tournaments in the database."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import Player, TableResult, Tournament

pytestmark = pytest.mark.django_db


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


def _others(people, count: int, start: int) -> None:
    for i in range(start, start + count):
        confirmed_tournament(people, date(2020 + i // 12, i % 12 + 1, 10), sessions=4,
                             seed=100 + i, name=f"Other {i}")


@pytest.mark.parametrize("page", ["", "standings/"])
def test_tournament_pages_cost_the_same_with_ten_times_the_history(client: Client, page):
    people = players(8)
    target = confirmed_tournament(people, date(2026, 3, 10), sessions=4, seed=1)
    url = f"/en/tournaments/{target.pk}/{page}"
    _others(people, 2, 0)
    client.get(url)  # warm the caches a first request fills
    small = _queries(client, url)
    _others(people, 18, 2)
    large = _queries(client, url)
    assert large == small, (small, large)


@pytest.mark.parametrize("url", ["/en/tournaments/", "/en/tournaments/?page=2",
                                 "/api/v1/tournaments", "/api/v1/tournaments?page=2"])
def test_calendar_costs_the_same_with_ten_times_the_history(client: Client, url, monkeypatch):
    monkeypatch.setattr("tournaments.views.calendar.PAST_PAGE_SIZE", 2)
    monkeypatch.setattr("tournaments.api.lifecycle.CALENDAR_PAGE_SIZE", 2)
    people = players(8)
    _others(people, 4, 0)
    client.get(url)
    small = _queries(client, url)
    _others(people, 36, 4)
    large = _queries(client, url)
    assert large == small, (small, large)


def test_past_tournaments_come_in_pages_newest_first(client: Client, monkeypatch):
    monkeypatch.setattr("tournaments.views.calendar.PAST_PAGE_SIZE", 2)
    _others(players(8), 5, 0)  # "Other 0" (January 2020) ... "Other 4" (May 2020)
    first = client.get("/en/tournaments/").content.decode()
    assert "Other 4" in first and "Other 3" in first and "Other 2" not in first
    assert "Page 1 of 3" in first and '?page=2#past" rel="next"' in first
    last = client.get("/en/tournaments/?page=3").content.decode()
    assert "Other 0" in last and "Other 1" not in last and 'rel="prev"' in last


@pytest.mark.parametrize("state", [Tournament.State.RESULTS_CONFIRMED,
                                   Tournament.State.RESULTS_SUBMITTED])
def test_tournament_page_costs_the_same_for_a_tournament_ten_times_larger(client: Client,
                                                                          state):
    """8 players and 2 sessions, then 80 players and 20 sessions: the same queries."""
    small = confirmed_tournament(players(8, prefix="Small"), date(2026, 3, 10), sessions=2,
                                 seed=1, state=state)
    large = confirmed_tournament(players(80, prefix="Large"), date(2026, 4, 10), sessions=20,
                                 seed=2, state=state)
    counts = []
    for tournament in (small, large):
        url = f"/en/tournaments/{tournament.pk}/"
        client.get(url)  # the results by session are rendered once, then kept
        counts.append(_queries(client, url))
    assert counts[0] == counts[1], counts


def test_tournament_page_shows_the_stored_leaders_and_never_stale_results(client: Client):
    from tournaments.selectors import tournament_standings

    people = players(12)
    tournament = confirmed_tournament(people, date(2026, 3, 10), sessions=3, seed=5)
    url = f"/en/tournaments/{tournament.pk}/"
    html = client.get(url).content.decode()
    leaders = html.split('id="leaders"')[1].split("</table>")[0]
    computed = [row.name for row in tournament_standings(tournament)[:10]]
    assert re.findall(r'/en/ratings/players/\d+/">([^<]+)</a>', leaders) == computed
    # A renamed player and a corrected result show at once, though the rendering is kept
    first = TableResult.objects.filter(tournament=tournament).order_by("pk").first()
    Player.objects.filter(pk=first.player_id).update(name_latin="Renamed Player")
    TableResult.objects.filter(pk=first.pk).update(game_points=first.game_points + 777)
    html = client.get(url).content.decode()
    results = html.split('id="results"')[1]
    assert "Renamed Player" in results and f">{first.game_points + 777}<" in results
    assert client.get(f"/ru/tournaments/{tournament.pk}/").status_code == 200
