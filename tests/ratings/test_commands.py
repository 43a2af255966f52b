"""manage.py ratings_recompute and ratings_publish."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from ratings.models import RatingEntry, RatingPeriod
from tests.tournaments.confirmed_results import confirmed_tournament, players

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_recompute_command_shows_progress_and_is_safe_to_rerun() -> None:
    people = players(12)
    confirmed_tournament(people, date(2025, 1, 10), seed=1)
    confirmed_tournament(people, date(2025, 4, 10), seed=2)
    out = io.StringIO()
    call_command("ratings_recompute", stdout=out)
    text = out.getvalue()
    assert "2/2 periods" in text and "[" in text
    assert "Ratings (mcr) recomputed from the start: 2 periods with results, 24 history rows" in text
    assert "Ratings (hkos) recomputed from the start: 0 periods" in text
    rows = list(RatingEntry.objects.order_by("pk").values_list("player_id", "period", "rating"))
    out = io.StringIO()
    call_command("ratings_recompute", "--from", "2025-04", stdout=out)
    assert "from 2025-04: 1 periods with results, 12 history rows" in out.getvalue()
    assert sorted(RatingEntry.objects.values_list("player_id", "period", "rating")) == sorted(rows)


def test_recompute_command_rejects_a_bad_period() -> None:
    with pytest.raises(CommandError, match="YYYY-MM"):
        call_command("ratings_recompute", "--from", "April")


def test_publish_command() -> None:
    confirmed_tournament(players(12), date(2025, 1, 10), seed=1)
    call_command("ratings_recompute", stdout=io.StringIO())
    out = io.StringIO()
    call_command("ratings_publish", "2025-01", stdout=out)
    assert "published (12 players)" in out.getvalue()
    assert RatingPeriod.objects.get(period="2025-01").published
    with pytest.raises(CommandError, match="already published"):
        call_command("ratings_publish", "2025-01")
