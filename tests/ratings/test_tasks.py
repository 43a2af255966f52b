"""The ratings' jobs for the task queue (decision 0907): the monthly publication and the
recompute call the services the commands call (run in the test process, CELERY eager)."""

from __future__ import annotations

from datetime import date

import pytest

from ratings import tasks
from ratings.models import RatingEntry, RatingPeriod
from ratings.services import rating_period_publish, ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players

pytestmark = pytest.mark.django_db


def test_last_months_lists_are_published_unless_the_officer_did_it_before() -> None:
    people = players(12)
    confirmed_tournament(people, date(2025, 1, 10), seed=1)
    confirmed_tournament(people, date(2025, 2, 10), seed=2)
    ratings_recompute()
    assert tasks.previous_period(date(2025, 3, 15)) == "2025-02"
    assert tasks.previous_period(date(2025, 1, 15)) == "2024-12"
    rating_period_publish(period="2025-01")  # the officer published January by hand
    assert tasks.publish_rating_lists.delay("2025-01").get() == []
    assert tasks.publish_rating_lists.delay("2025-02").get() == ["mcr"]
    assert RatingPeriod.objects.get(ruleset="mcr", period="2025-02").published
    assert tasks.publish_rating_lists.delay("2025-02").get() == []  # safe to run twice
    assert tasks.publish_rating_lists.delay("2031-05").get() == []  # no such month


def test_the_recompute_job_rebuilds_every_rulesets_history() -> None:
    confirmed_tournament(players(12), date(2025, 1, 10), seed=1)
    ratings_recompute()
    before = sorted(RatingEntry.objects.values_list("player_id", "period", "rating"))
    RatingEntry.objects.all().delete()
    assert tasks.recompute.delay().get() == 12
    assert sorted(RatingEntry.objects.values_list("player_id", "period", "rating")) == before
    assert tasks.recompute.delay(ruleset="mcr", from_period="2025-01").get() == 12
