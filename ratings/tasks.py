"""The ratings' jobs for the task queue (decision 0907): the monthly publication of the
rating lists and a recompute, each the service its management command calls
(``manage.py ratings_publish``, ``manage.py ratings_recompute``).

The re-rate after a tournament's results are confirmed, corrected or imported is one of them
(``ratings.rerate``, decision 0822), with a time limit of its own."""

from __future__ import annotations

import logging
from datetime import date

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone

from ratings.models import RatingPeriod
from ratings.rankings import rankings_store
from ratings.rules.method import period_label, period_of
from ratings.selectors import RULESETS
from ratings.services import rating_period_publish, ratings_recompute, rerate_run

logger = logging.getLogger(__name__)


def previous_period(today: date) -> str:
    """The month before ``today``'s, as "YYYY-MM"."""
    return period_label(period_of(today) - 1)


@shared_task(name="ratings.publish_rating_lists")
def publish_rating_lists(period: str | None = None) -> list[str]:
    """Publish (freeze) the list of ``period`` (default: last month) of every ruleset that
    has that month and has not published it yet; a list the accreditation officer already
    published is left as it is. Returns the rulesets published."""
    period = period or previous_period(timezone.localdate())
    published = []
    waiting = RatingPeriod.objects.filter(period=period, published=False,
                                          ruleset__in=list(RULESETS))
    for ruleset in waiting.values_list("ruleset", flat=True).order_by("ruleset"):
        rating_period_publish(period=period, ruleset=ruleset)
        published.append(ruleset)
        logger.info("The %s rating list of %s is published", ruleset, period)
    return published


@shared_task(name="ratings.recompute")
def recompute(ruleset: str | None = None, from_period: str | None = None) -> int:
    """Recompute the ratings of ``ruleset`` (default: every ruleset, one after the other)
    from ``from_period`` on (default: from the start), waiting for a recompute that is
    running. Returns the history rows written."""
    rows = 0
    for one in [ruleset] if ruleset else list(RULESETS):
        rows += ratings_recompute(ruleset=one, from_period=from_period, wait=True).entries
    return rows


@shared_task(name="ratings.store_rankings")
def store_rankings(rulesets: list[str] | None = None, ema_ranking: bool = True,
                   club_ranking: bool = True) -> list[str]:
    """Store the EMA ranking (on today) and the club ranking of these rulesets (default:
    every one; decision 0821): queued when results, ratings, memberships or players change,
    and every night, when the EMA ranking's ages move on a day."""
    return rankings_store(rulesets=rulesets, ema_ranking=ema_ranking,
                          club_ranking=club_ranking)


#: the re-rate's process is killed this long after its soft time limit
RERATE_HARD_MARGIN = 60


@shared_task(name="ratings.rerate", soft_time_limit=settings.RATINGS_RERATE_TIME_LIMIT,
             time_limit=settings.RATINGS_RERATE_TIME_LIMIT + RERATE_HARD_MARGIN)
def rerate(ruleset: str, from_period: str) -> int:
    """The re-rate after a tournament's results were confirmed, corrected or imported
    (decision 0822): ``ruleset`` from ``from_period`` on. Returns the history rows written.

    Past RATINGS_RERATE_TIME_LIMIT the recompute rolls back whole: the ratings stay as they
    were, the tournaments stay marked ("The ratings are being updated"), and the error is
    logged and counted as a failed job; a full recompute repairs it."""
    try:
        return rerate_run(ruleset=ruleset, from_period=from_period)
    except SoftTimeLimitExceeded:
        logger.error("The %s re-rate from %s passed its time limit (%s s) and was rolled "
                     "back; run manage.py ratings_recompute --ruleset %s", ruleset,
                     from_period, settings.RATINGS_RERATE_TIME_LIMIT, ruleset)
        raise
