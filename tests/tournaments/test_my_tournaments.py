"""The organizer's own tournaments on the calendar come in pages (issue 43, decision 0823):
the same queries with ten times as many, the pages newest first, the other list's page kept,
and nobody else sees them."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _own(organizer, count: int, start: int = 0) -> None:
    Tournament.objects.bulk_create([
        Tournament(name=f"Own {i:03d}", organizer=organizer, city="Utrecht", country="NL",
                   ruleset="mcr", sessions=4, planned_players=16,
                   start_date=datetime.date(2020, 1, 1) + datetime.timedelta(days=7 * i),
                   end_date=datetime.date(2020, 1, 1) + datetime.timedelta(days=7 * i))
        for i in range(start, start + count)
    ])


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries), response.content.decode()


@pytest.mark.parametrize("url", ["/en/tournaments/", "/en/tournaments/?mine=2"])
def test_my_tournaments_cost_the_same_with_ten_times_as_many(organizer, url, monkeypatch):
    monkeypatch.setattr("tournaments.views.calendar.MINE_PAGE_SIZE", 3)
    client = _signed_in(organizer)
    _own(organizer, 7)
    client.get(url)
    small, page = _queries(client, url)
    assert page.count('class="t-card"') == 3
    _own(organizer, 63, start=7)
    large, page = _queries(client, url)
    assert page.count('class="t-card"') == 3
    assert large == small, (small, large)


def test_my_tournaments_come_in_pages_newest_first(organizer, monkeypatch):
    monkeypatch.setattr("tournaments.views.calendar.MINE_PAGE_SIZE", 2)
    _own(organizer, 5)  # Own 000 (oldest) ... Own 004 (newest), all drafts
    client = _signed_in(organizer)
    first = client.get("/en/tournaments/").content.decode()
    assert "Own 004" in first and "Own 003" in first and "Own 002" not in first
    assert "Page 1 of 3" in first and '?mine=2#mine" rel="next"' in first
    # the calendar's own past pages keep the organizer's page, and the reverse
    last = client.get("/en/tournaments/?mine=3&page=1").content.decode()
    assert "Own 000" in last and "Own 001" not in last
    assert '?mine=2&amp;page=1#mine" rel="prev"' in last
    # a page past the end shows the last one, a word shows the first
    assert "Own 000" in client.get("/en/tournaments/?mine=99").content.decode()
    assert "Own 004" in client.get("/en/tournaments/?mine=x").content.decode()


def test_only_the_organizer_sees_their_tournaments(organizer, other_organizer, member_user):
    _own(organizer, 2)
    assert "Own 001" in _signed_in(organizer).get("/en/tournaments/").content.decode()
    other = _signed_in(other_organizer).get("/en/tournaments/").content.decode()
    assert "My tournaments" in other and "Own 001" not in other
    for client in (Client(), _signed_in(member_user)):
        page = client.get("/en/tournaments/?mine=1").content.decode()
        assert "My tournaments" not in page and "Own 001" not in page
