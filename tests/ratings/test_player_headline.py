"""Issue 38 (10): the player page's headline rating was a month old while its chart showed
the current one (the list shows the months that have ended; the chart ran to this month's
games). The headline is the chart's last point."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta

import pytest

from ratings.selectors import latest_period_with_results
from ratings.services import ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players

pytestmark = pytest.mark.django_db


def test_the_headline_is_the_rating_of_the_chart_s_last_point(client) -> None:
    people = players(8, prefix="Season")
    today = date.today()
    last_month = today.replace(day=1) - timedelta(days=1)
    confirmed_tournament(people, last_month.replace(day=10), sessions=6, seed=1)
    confirmed_tournament(people, today.replace(day=1), sessions=6, seed=2)
    ratings_recompute()
    this_month = f"{today.year:04d}-{today.month:02d}"
    assert latest_period_with_results() < this_month  # the list: the months that have ended

    html = client.get(f"/en/ratings/players/{people[0].pk}/").content.decode()
    headline = re.search(r'<span class="now-rating">(-?\d+)</span>', html).group(1)
    data = json.loads(re.search(
        r'<script id="rating-chart-data" type="application/json">(.*?)</script>',
        html, re.S).group(1))
    last = data[-1]
    assert last["period"] == this_month
    assert int(headline) == round(last["rating"])
    assert data[-2]["period"] < this_month and round(data[-2]["rating"]) != int(headline)
