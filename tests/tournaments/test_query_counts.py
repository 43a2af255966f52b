"""The tournament page and its standings answer with the same number of queries whatever
the number of other tournaments in the database."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.tournaments.confirmed_results import confirmed_tournament, players

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
    monkeypatch.setattr("tournaments.views.PAST_PAGE_SIZE", 2)
    monkeypatch.setattr("tournaments.api.CALENDAR_PAGE_SIZE", 2)
    people = players(8)
    _others(people, 4, 0)
    client.get(url)
    small = _queries(client, url)
    _others(people, 36, 4)
    large = _queries(client, url)
    assert large == small, (small, large)


def test_past_tournaments_come_in_pages_newest_first(client: Client, monkeypatch):
    monkeypatch.setattr("tournaments.views.PAST_PAGE_SIZE", 2)
    _others(players(8), 5, 0)  # "Other 0" (January 2020) ... "Other 4" (May 2020)
    first = client.get("/en/tournaments/").content.decode()
    assert "Other 4" in first and "Other 3" in first and "Other 2" not in first
    assert "Page 1 of 3" in first and '?page=2#past" rel="next"' in first
    last = client.get("/en/tournaments/?page=3").content.decode()
    assert "Other 0" in last and "Other 1" not in last and 'rel="prev"' in last
