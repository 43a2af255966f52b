"""Writes of ratings: recompute (one transaction, never two at once) and publication, each
for one ruleset: a ruleset's list reads only its own tournaments (decision 0805)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.db import DatabaseError, connection, transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import DomainError
from core.rules.date_windows import window
from ratings.models import (
    DEFAULT_RULESET,
    PublishedRating,
    RatingEntry,
    RatingPeriod,
    RatingRecompute,
)
from ratings.rankings import rankings_refresh_later, rankings_store
from ratings.rules.method import (
    PlayerState,
    Rating,
    parse_period,
    period_first_day,
    period_label,
    period_of,
    run,
)
from ratings.selectors import RULESETS, method_config, period_list
from tournaments.models import Tournament
from tournaments.selectors import confirmed_table_results

RECOMPUTE_RUNNING = _("A ratings recompute is already running; try again when it has finished.")
PERIOD_INVALID = _("The period must be given as YYYY-MM.")
PERIOD_UNKNOWN = _("There is no rating period %(period)s.")
PERIOD_ALREADY_PUBLISHED = _("The list of %(period)s is already published.")
RULESET_UNKNOWN = _("The rules must be one of: mcr, hkos, red.")
DATE_INVALID = _("The date must be given as YYYY-MM-DD.")


class RecomputeRunning(Exception):
    pass


class RatingError(DomainError):
    """A ratings service refused: ``code`` and its ``params``, said with the texts above."""

    TEXTS = {
        "ruleset_unknown": RULESET_UNKNOWN,
        "period_invalid": PERIOD_INVALID,
        "period_unknown": PERIOD_UNKNOWN,
        "period_already_published": PERIOD_ALREADY_PUBLISHED,
    }

    @property
    def message(self) -> str:
        return str(self.TEXTS[self.code]) % self.params if self.params else str(
            self.TEXTS[self.code])

    def __str__(self) -> str:
        return self.message


def _check_ruleset(ruleset: str) -> None:
    if ruleset not in RULESETS:
        raise RatingError("ruleset_unknown")


@dataclass(frozen=True, slots=True)
class RecomputeResult:
    ruleset: str
    from_period: str | None
    periods: int
    entries: int


def _lock(*, wait: bool) -> RatingRecompute:
    """Take the recompute lock for the current transaction or raise RecomputeRunning.

    PostgreSQL: a row lock on the single RatingRecompute row, NOWAIT. SQLite has no row locks:
    the UPDATE below takes the database's write lock, which a second recompute cannot get
    while the first transaction is open (it fails with "database is locked"). `wait`: block
    until a running recompute has finished instead of failing."""
    RatingRecompute.objects.get_or_create(pk=1)
    try:
        if connection.features.has_select_for_update_nowait:
            row = RatingRecompute.objects.select_for_update(nowait=not wait).get(pk=1)
        else:
            RatingRecompute.objects.filter(pk=1).update(started_at=timezone.now())
            row = RatingRecompute.objects.get(pk=1)
    except DatabaseError as error:
        raise RecomputeRunning(str(RECOMPUTE_RUNNING)) from error
    return row


def _states_before(
    ruleset: str, period: str, players: set[int] | None = None
) -> tuple[dict[int, PlayerState], dict[int, int]]:
    """The standing in `ruleset` of `players` (default: everyone) at the start of `period`
    (the state the history stores after each player's last period before it), and their
    games to date. A re-rate from a period reads one row a player who plays from then on
    (decision 0822), not the whole history: the latest row before `period` (PostgreSQL:
    DISTINCT ON over the (ruleset, player, period) index) and the player's first period."""
    states: dict[int, PlayerState] = {}
    totals: dict[int, int] = {}
    before = RatingEntry.objects.filter(ruleset=ruleset, period__lt=period)
    chunks: list[list[int] | None] = [None]
    if players is not None:
        ids = sorted(players)
        chunks = [ids[i:i + 5000] for i in range(0, len(ids), 5000)]
    for chunk in chunks:
        rows = before if chunk is None else before.filter(player_id__in=chunk)
        first = dict(rows.values("player_id").annotate(first=Min("period")).order_by()
                     .values_list("player_id", "first"))
        fields = ("player_id", "period", "rating", "rd", "vol", "total_games")
        if connection.features.can_distinct_on_fields:
            latest = (rows.order_by("player_id", "-period").distinct("player_id")
                      .values_list(*fields))
        else:  # SQLite: every row of these players, the last one kept
            latest = rows.order_by("player_id", "period").values_list(*fields)
        for player_id, label, rating, rd, vol, total in latest.iterator(chunk_size=5000):
            states[player_id] = PlayerState(Rating(rating, rd, vol), parse_period(label),
                                            parse_period(first[player_id]))
            totals[player_id] = total
    return states, totals


def ratings_recompute(
    *,
    ruleset: str = DEFAULT_RULESET,
    from_period: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    wait: bool = False,
) -> RecomputeResult:
    """Recompute the rating history of `ruleset` from `from_period` ("YYYY-MM") on, or from
    the start, from that ruleset's confirmed tournaments only.

    One transaction: readers see the old history or the new one, never a mixture. Safe to
    re-run (the same results give the same rows). Published lists and the other rulesets'
    rows are not touched."""
    _check_ruleset(ruleset)
    start: int | None = None
    if from_period:
        try:
            start = parse_period(from_period)
        except ValueError as error:
            raise RatingError("period_invalid") from error
    config = method_config()
    with transaction.atomic():
        lock = _lock(wait=wait)
        lock.started_at = timezone.now()
        if start is not None:
            label = period_label(start)
            outcomes = confirmed_table_results(ruleset=ruleset, since=period_first_day(start))
            seated = {pid for outcome in outcomes for pid, _points in outcome.seats}
            states, totals = _states_before(ruleset, label, seated)
            RatingEntry.objects.filter(ruleset=ruleset, period__gte=label).delete()
        else:
            states, totals = {}, {}
            RatingEntry.objects.filter(ruleset=ruleset).delete()
            outcomes = confirmed_table_results(ruleset=ruleset)
        result = run(outcomes, config=config, states=states, from_period=start, progress=progress)
        rows = []
        for change in result.changes:
            totals[change.player] = totals.get(change.player, 0) + change.games
            rows.append(
                RatingEntry(
                    ruleset=ruleset,
                    player_id=change.player,
                    period=period_label(change.period),
                    rating_before=change.before.rating,
                    rd_before=change.before.rd,
                    vol_before=change.before.vol,
                    rating=change.after.rating,
                    rd=change.after.rd,
                    vol=change.after.vol,
                    games=change.games,
                    total_games=totals[change.player],
                    score=change.score,
                    expected=change.expected,
                    is_new=change.is_new,
                    tournaments=list(change.tournaments),
                )
            )
        RatingEntry.objects.bulk_create(rows, batch_size=2000)
        _sync_periods(ruleset, period_label(start) if start is not None else None,
                      {row.period for row in rows})
        lock.finished_at = timezone.now()
        lock.ruleset = ruleset
        lock.from_period = period_label(start) if start is not None else ""
        lock.periods = len(result.periods)
        lock.entries = len(rows)
        lock.stamp = uuid.uuid4().hex
        lock.save()
        rankings_refresh_later(rulesets=[ruleset], ema_ranking=False)  # the club ranking
    return RecomputeResult(
        ruleset=ruleset,
        from_period=lock.from_period or None, periods=len(result.periods), entries=len(rows)
    )


def _sync_periods(ruleset: str, since: str | None, written: set[str]) -> None:
    """A RatingPeriod of `ruleset` for every month from the first with results to the last
    (and any published one); `has_results` marks the months with games. `written`: the
    months of the rows a recompute from `since` (None: from the start) has just written;
    the months before `since` keep their flags, so no row of the history is read
    (issue 43)."""
    existing = {p.period: p for p in RatingPeriod.objects.filter(ruleset=ruleset)}
    kept = {label for label, row in existing.items()
            if since is not None and label < since and row.has_results}
    with_results = kept | written
    wanted: set[str] = set()
    if with_results:
        # never a period in the future, nor before the earliest plausible tournament
        # (docs/reliability.md, item 2): a mistyped year cannot create thousands of them
        first = max(parse_period(min(with_results)), period_of(window("tournament")[0]))
        last = min(parse_period(max(with_results)), period_of(date.today()))
        wanted = {period_label(p) for p in range(first, last + 1)}
    for label, row in existing.items():
        flag = label in with_results
        if label not in wanted and not row.published:
            row.delete()
        elif row.has_results != flag:
            row.has_results = flag
            row.save(update_fields=["has_results"])
    RatingPeriod.objects.bulk_create(
        [
            RatingPeriod(ruleset=ruleset, period=p, has_results=p in with_results)
            for p in wanted - set(existing)
        ]
    )


def rating_period_publish(
    *, period: str, ruleset: str = DEFAULT_RULESET, user: object | None = None
) -> RatingPeriod:
    """Freeze the list of `ruleset` for `period`: its rows are stored and shown from then on,
    whatever later corrections do to the history."""
    _check_ruleset(ruleset)
    try:
        parse_period(period)
    except ValueError as error:
        raise RatingError("period_invalid") from error
    with transaction.atomic():
        row = (
            RatingPeriod.objects.select_for_update()
            .filter(ruleset=ruleset, period=period)
            .first()
        )
        if row is None:
            raise RatingError("period_unknown", period=period)
        if row.published:
            raise RatingError("period_already_published", period=period)
        entries = period_list(period, ruleset)
        PublishedRating.objects.bulk_create(
            [
                PublishedRating(
                    period=row,
                    player_id=e.player_id,
                    rank=e.rank,
                    rating=e.rating,
                    rd=e.rd,
                    vol=e.vol,
                    games=e.games,
                    provisional=e.provisional,
                    change=e.change,
                    last_period=e.last_period,
                )
                for e in entries
            ],
            batch_size=2000,
        )
        row.published = True
        row.published_at = timezone.now()
        row.published_by = user if getattr(user, "pk", None) else None  # type: ignore[assignment]
        row.save()
        RatingRecompute.objects.update_or_create(pk=1, defaults={"stamp": uuid.uuid4().hex})
        rankings_refresh_later(rulesets=[ruleset], ema_ranking=False)
    return row


def ratings_recompute_after_tournament(*, ruleset: str, end_date: date) -> RecomputeResult:
    """What confirming or correcting a tournament calls (inside its transaction): recompute
    the tournament's ruleset from the tournament's period on, waiting for a recompute that
    is running. The other rulesets' lists do not move."""
    return ratings_recompute(
        ruleset=ruleset, from_period=period_label(period_of(end_date)), wait=True
    )


def rerate_run(*, ruleset: str, from_period: str) -> int:
    """The queued re-rate: recompute `ruleset` from `from_period` on (waiting for a running
    recompute), clear the marks of the tournaments it covered, store the EMA ranking again
    (the recompute has queued the club ranking's job: a job of its own, not stored twice).
    Returns the history rows written."""
    started = timezone.now()
    result = ratings_recompute(ruleset=ruleset, from_period=from_period, wait=True)
    Tournament.objects.filter(ruleset=ruleset, rerate_queued_at__lte=started).update(
        rerate_queued_at=None)
    rankings_store(rulesets=[ruleset], club_ranking=False)
    return result.entries
