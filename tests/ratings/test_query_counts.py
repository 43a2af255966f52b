"""A player's page and ``/api/v1/players/{id}`` answer with the same number of queries for
a player of N tournaments and of 10N (the player's tournaments are stored results)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings.services import ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players

pytestmark = pytest.mark.django_db


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


def _tournaments(people, count: int, start: int) -> None:
    for i in range(start, start + count):
        confirmed_tournament(people, date(2020 + i // 12, i % 12 + 1, 10), sessions=4,
                             seed=i, name=f"Open {i}")
    ratings_recompute()


@pytest.mark.parametrize("url", ["/en/ratings/players/{pk}/", "/api/v1/players/{pk}",
                                 "/en/ratings/players/{pk}/?page=2&periods=2",
                                 "/api/v1/players/{pk}?page=2"])
def test_player_page_and_api_cost_the_same_with_ten_times_the_tournaments(client, url,
                                                                         monkeypatch):
    monkeypatch.setattr("ratings.views.TOURNAMENTS_PAGE_SIZE", 1)
    monkeypatch.setattr("ratings.views.PERIODS_PAGE_SIZE", 1)
    monkeypatch.setattr("ratings.api.PLAYER_TOURNAMENTS_PAGE_SIZE", 1)
    people = players(8)
    url = url.format(pk=people[0].pk)
    _tournaments(people, 2, 0)
    # the first request after a recompute fills the caches (the months explained); both
    # the first and the next cost the same at both sizes
    small = _queries(client, url), _queries(client, url)
    _tournaments(people, 18, 2)
    large = _queries(client, url), _queries(client, url)
    assert large == small, (small, large)


def test_player_tournaments_come_in_pages_newest_first(client, monkeypatch):
    monkeypatch.setattr("ratings.views.TOURNAMENTS_PAGE_SIZE", 2)
    monkeypatch.setattr("ratings.api.PLAYER_TOURNAMENTS_PAGE_SIZE", 2)
    people = players(8)
    _tournaments(people, 3, 0)  # Open 0 (January 2020), Open 1, Open 2 (March 2020)
    page = f"/en/ratings/players/{people[0].pk}/"
    first = client.get(page).content.decode()
    assert "Open 2" in first and "Open 1" in first and "Open 0" not in first
    assert 'href="?page=2#tournaments-heading" rel="next"' in first
    second = client.get(page + "?page=2").content.decode()
    assert "Open 0" in second and "Open 2" not in second
    assert 'href="?page=1#tournaments-heading" rel="prev"' in second

    api = f"/api/v1/players/{people[0].pk}"
    response = client.get(api)
    data = response.json()
    assert [t["name"] for t in data["tournaments"]] == ["Open 2", "Open 1"]
    assert data["count"] == 3 and data["previous"] is None
    assert data["next"] == f"http://testserver{api}?page=2"
    assert response["X-Total-Count"] == "3" and 'rel="next"' in response["Link"]
    assert len(data["history"]) == 3  # every month, whatever the page
    last = client.get(data["next"]).json()
    assert [t["name"] for t in last["tournaments"]] == ["Open 0"] and last["next"] is None
    assert client.get(api + "?page=9").json()["tournaments"] == []
    bad = client.get(api + "?page=0")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "page"


def test_the_kept_history_table_follows_the_recompute(client):
    people = players(8)
    _tournaments(people, 2, 0)  # January and February 2020
    page = f"/en/ratings/players/{people[0].pk}/"
    table = client.get(page).content.decode().split('class="history-table"')[1]
    assert "February 2020" in table and "May 2020" not in table
    _tournaments(people, 1, 4)  # May 2020
    table = client.get(page).content.decode().split('class="history-table"')[1]
    assert "May 2020" in table and "April 2020" in table  # the idle month too


def _federation(count: int, start: int) -> None:
    """``count`` tournaments of eight new players each: the list grows with the history."""
    for i in range(start, start + count):
        confirmed_tournament(players(8, prefix=f"Member {i}"), date(2020 + i // 12, i % 12 + 1, 10),
                             sessions=4, seed=i, name=f"Cup {i}")
    ratings_recompute()


@pytest.mark.parametrize("url", ["/en/ratings/", "/en/ratings/?page=2", "/api/v1/ratings",
                                 "/api/v1/ratings?page=2"])
@pytest.mark.parametrize("signed_in", [False, True])
def test_rating_list_costs_the_same_with_ten_times_the_history(client, url, signed_in,
                                                              monkeypatch):
    from tests.factories import UserFactory

    monkeypatch.setattr("ratings.views.PAGE_SIZE", 4)
    monkeypatch.setattr("ratings.api.RATINGS_PAGE_SIZE", 4)
    if signed_in:
        client.force_login(UserFactory())
    _federation(2, 0)
    client.get(url)
    small = _queries(client, url)
    _federation(18, 2)
    client.get(url)  # the list's cache is keyed on the recompute
    large = _queries(client, url)
    assert large == small, (small, large)


def test_signed_in_readers_get_the_kept_list_with_their_own_header(monkeypatch):
    """Issue 43: the list does not depend on who reads it, so a signed-in visitor who cannot
    publish it gets the rendering kept for everyone (no list or player read) with their own account links; an officer who can publish gets it
    rendered for them, with the button."""
    from django.contrib.auth.models import Permission

    from tests.factories import UserFactory

    monkeypatch.setattr("ratings.views.PAGE_SIZE", 4)
    _federation(2, 0)
    anna, boris = Client(), Client()
    anna.force_login(UserFactory(email="anna@example.org"))
    boris.force_login(UserFactory(email="boris@example.org"))
    first = anna.get("/en/ratings/")
    assert first["Cache-Control"] == "private"
    assert "anna@example.org" in first.content.decode()
    with CaptureQueriesContext(connection) as captured:
        second = boris.get("/en/ratings/").content.decode()
    sql = [q["sql"] for q in captured.captured_queries]
    # the session, the user, their permissions, the stamp, the header's club link
    assert len(sql) <= 6, sql
    assert not [q for q in sql if "tournaments_player" in q or "ratings_ratingentry" in q], sql
    assert "boris@example.org" in second and "anna@example.org" not in second
    anonymous = Client().get("/en/ratings/").content.decode()
    assert "Sign up" in anonymous and "@example.org" not in anonymous
    main = '<main id="main"'
    assert second[second.index(main):] == anonymous[anonymous.index(main):]

    officer = UserFactory(email="officer@example.org")
    officer.user_permissions.add(Permission.objects.get(codename="publish_ratingperiod"))
    client = Client()
    client.force_login(officer)
    page = client.get("/en/ratings/").content.decode()
    assert "officer@example.org" in page and page[page.index(main):] != anonymous[
        anonymous.index(main):]
