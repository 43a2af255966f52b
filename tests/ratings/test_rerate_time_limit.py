"""Issue 43: the queued re-rate (decision 0822) has a time limit of its own, inside the
limits the queue sets; past it the recompute rolls back whole and the tournament stays
marked as being re-rated."""

from __future__ import annotations

import logging
import signal
from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection, connections
from django.utils import timezone

from config.celery import app as celery_app
from config.checks import task_time_limits_check
from ratings.models import RatingEntry
from ratings.services import ratings_recompute
from ratings.tasks import rerate
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import Tournament
from tournaments.services import tournament_confirm

TODAY = timezone.localdate()


def test_the_rerate_task_carries_the_settings_limit_below_the_visibility_timeout(settings):
    assert rerate.soft_time_limit == settings.RATINGS_RERATE_TIME_LIMIT
    assert rerate.time_limit == settings.RATINGS_RERATE_TIME_LIMIT + 60
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert rerate.time_limit < visibility
    assert settings.CELERY_TASK_SOFT_TIME_LIMIT < settings.CELERY_TASK_TIME_LIMIT < visibility
    assert task_time_limits_check() == []


def test_a_time_limit_past_the_visibility_timeout_is_refused_by_the_checks(settings):
    settings.CELERY_TASK_TIME_LIMIT = 4000
    errors = task_time_limits_check()
    assert [e.id for e in errors] == ["queue.E001"]
    assert "CELERY_TASK_TIME_LIMIT (4000 s)" in errors[0].msg
    assert "visibility timeout (3600 s)" in errors[0].msg
    settings.CELERY_TASK_TIME_LIMIT = 3300
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 3300
    assert "below CELERY_TASK_TIME_LIMIT" in task_time_limits_check()[0].msg
    with pytest.raises(SystemCheckError, match=r"queue\.E001"):
        call_command("check")


@pytest.fixture
def jobs_wait_on_the_broker():
    """The queued jobs go to the (in-memory) broker and wait there: the worker is the test."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = eager


@pytest.mark.skipif("connection.vendor != 'postgresql'",
                    reason="holds PostgreSQL's row lock from a second connection")
def test_a_rerate_past_its_soft_limit_rolls_back_and_the_tournament_stays_marked(
        transactional_db, settings, caplog, jobs_wait_on_the_broker):
    """The worker raises SoftTimeLimitExceeded in the job at its soft limit (an alarm here,
    as Celery's pool does with a signal); the job is waiting for a recompute that holds the
    lock, so it is still inside the recompute's transaction."""
    settings.TOURNAMENT_MIN_PLAYERS = 4
    settings.RATINGS_RERATE_ON_QUEUE = True
    people = players(8)
    confirmed_tournament(people, TODAY - timedelta(days=90), seed=1)
    ratings_recompute(ruleset="mcr")
    before = set(RatingEntry.objects.values_list("player_id", "period", "rating"))
    late = confirmed_tournament(people, TODAY - timedelta(days=20), seed=2,
                                state=Tournament.State.RESULTS_SUBMITTED)
    tournament_confirm(tournament=late, user=late.organizer)
    late.refresh_from_db()
    assert late.rerate_queued_at is not None

    other = connections.create_connection("default")  # a recompute running elsewhere
    other.set_autocommit(False)
    with other.cursor() as cursor:
        cursor.execute("SELECT id FROM ratings_ratingrecompute WHERE id = 1 FOR UPDATE")

    def soft_limit(signum, frame):
        raise SoftTimeLimitExceeded()

    previous = signal.signal(signal.SIGALRM, soft_limit)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with caplog.at_level(logging.ERROR, logger="ratings.tasks"), \
                pytest.raises(SoftTimeLimitExceeded):
            rerate.run("mcr", late.end_date.strftime("%Y-%m"))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        other.rollback()
        other.close()
    assert "passed its time limit" in caplog.text
    assert "ratings_recompute --ruleset mcr" in caplog.text
    connection.close()  # the interrupted connection is not reused
    late.refresh_from_db()
    assert late.rerate_queued_at is not None  # "The ratings are being updated"
    assert set(RatingEntry.objects.values_list("player_id", "period", "rating")) == before
    # the next re-rate (or a full recompute) does the work
    rerate.run("mcr", late.end_date.strftime("%Y-%m"))
    late.refresh_from_db()
    assert late.rerate_queued_at is None
    assert RatingEntry.objects.filter(period=late.end_date.strftime("%Y-%m")).count() == 8
