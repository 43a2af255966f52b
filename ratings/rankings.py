"""Writes of the stored rankings (decision 0821): the EMA base ranks of each tournament's
final standings, and the EMA ranking and club ranking of each ruleset, computed by the one
implementation of each (``ratings.rules.ema``, ``ratings.rules.method.club_ranking``) and
stored like the rating lists, so that no page computes them."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Min, QuerySet
from django.utils import timezone

from ratings.models import (
    ClubMemberRating,
    ClubRankingRow,
    EmaBaseRank,
    EmaRankingRow,
    StoredRanking,
)
from ratings.rules import ema
from ratings.rules.method import period_label, period_of
from ratings.selectors import RULESETS
from ratings.selectors.clubs import (
    club_config_key,
    club_list_rows,
    club_ranking_of,
    club_ranking_stored,
    club_ranking_stored_one,
    club_rankings_stored,
)
from ratings.selectors.ema import ema_config_key, ema_ranking_computed, ema_ranking_stored
from tournaments.models import Player, Registration, Tournament, TournamentResult

logger = logging.getLogger(__name__)


#: set by ``rerating_in_place``: re-rate inside the transaction even with the queue on
_IN_PLACE: ContextVar[bool] = ContextVar("ratings_rerate_in_place", default=False)


@contextmanager
def rerating_in_place() -> Iterator[None]:
    """Re-rate inside the confirmation's transaction whatever RATINGS_RERATE_ON_QUEUE says
    (the demo federation, which publishes lists in the same transaction)."""
    token = _IN_PLACE.set(True)
    try:
        yield
    finally:
        _IN_PLACE.reset(token)


def rerate_on_queue() -> bool:
    return bool(settings.RATINGS_RERATE_ON_QUEUE) and not _IN_PLACE.get()


def queue(task: str, **kwargs: Any) -> None:
    """Put one of ratings.tasks on the task queue, found by its name (the tasks call these
    services: importing them here would make a cycle). A broker that cannot be reached
    does not lose the job: it runs here, after the commit, and the log says so."""
    job = current_app.tasks[task]
    try:
        job.delay(**kwargs)
    except Exception:  # kombu's OperationalError and the like: no broker
        logger.warning("The task queue cannot be reached: %s runs in the request", task,
                       exc_info=True)
        job.apply(kwargs=kwargs)


def ema_base_ranks_store(*, tournament_ids: Iterable[int]) -> int:
    """The base ranks of these tournaments' final standings, stored again (after a
    confirmation, a correction, an import, a merge). Returns the rows written."""
    ids = sorted(set(tournament_ids))
    if not ids:
        return 0
    EmaBaseRank.objects.filter(tournament_id__in=ids).delete()
    substitutes = set(Registration.objects.filter(tournament_id__in=ids, substitute=True)
                      .values_list("tournament_id", "player_id"))
    placings: dict[int, list[ema.Placing]] = {}
    for tid, pid, rank in TournamentResult.objects.filter(tournament_id__in=ids).values_list(
            "tournament_id", "player_id", "rank"):
        placings.setdefault(tid, []).append(ema.Placing(pid, rank, (tid, pid) in substitutes))
    rows = []
    for tid, field in placings.items():
        ranked = ema.base_ranks(field)
        place = {p.player: p.rank for p in field}
        rows += [EmaBaseRank(tournament_id=tid, player_id=pid, numerator=base.numerator,
                             denominator=base.denominator, place=place[pid], field=len(ranked))
                 for pid, base in ranked.items()]
    EmaBaseRank.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def ema_base_ranks_store_for_players(*, player_ids: Iterable[int]) -> int:
    """After a merge (or its undo): every tournament either player has results or stored
    base ranks in."""
    ids = list(player_ids)
    tournaments = set(TournamentResult.objects.filter(player_id__in=ids)
                      .values_list("tournament_id", flat=True))
    tournaments |= set(EmaBaseRank.objects.filter(player_id__in=ids)
                       .values_list("tournament_id", flat=True))
    return ema_base_ranks_store(tournament_ids=tournaments)


def _stored(kind: str, ruleset: str) -> StoredRanking:
    stored, _created = StoredRanking.objects.get_or_create(kind=kind, ruleset=ruleset)
    return StoredRanking.objects.select_for_update().get(pk=stored.pk)


def _stored_done(stored: StoredRanking, started: datetime) -> None:
    """Save a ranking just stored: no longer "being updated", unless the data changed again
    after this computation began (that change's job is still to come)."""
    if stored.updating_since is not None and stored.updating_since <= started:
        stored.updating_since = None
    stored.save()


def rankings_outdated(rankings: QuerySet[StoredRanking]) -> None:
    """What a change of the data does to the stored rankings it moves, inside its
    transaction, before queueing the job that stores them again: marks them "being
    updated" (readers keep the rows until the job has run, decision 0828), or drops them
    with RANKINGS_KEPT_WHILE_UPDATING off (the next reader computes them)."""
    if settings.RANKINGS_KEPT_WHILE_UPDATING:
        rankings.update(updating_since=timezone.now())
    else:
        rankings.delete()


@transaction.atomic
def ema_ranking_store(*, ruleset: str, on: date | None = None) -> StoredRanking:
    """The EMA ranking of ``ruleset`` on ``on`` (default: today), stored whole in place of
    the one stored before."""
    on = on or timezone.localdate()
    started = timezone.now()
    rows = ema_ranking_computed(ruleset, on)
    stored = _stored(StoredRanking.Kind.EMA, ruleset)
    stored.ema_rows.all().delete()
    EmaRankingRow.objects.bulk_create([
        EmaRankingRow(ranking=stored, rank=r.rank, player_id=r.score.player,
                      score=ema.rounded(r.score.score), part_a=ema.rounded(r.score.part_a),
                      part_b=ema.rounded(r.score.part_b), tournaments=r.score.tournaments)
        for r in rows], batch_size=2000)
    countries = Player.objects.filter(pk__in=[r.score.player for r in rows]).exclude(
        country="").values_list("country", flat=True).distinct()
    stored.on, stored.countries = on, sorted(set(countries))
    stored.config = ema_config_key(ruleset)
    _stored_done(stored, started)
    return stored


@transaction.atomic
def club_ranking_store(*, ruleset: str) -> StoredRanking:
    """The club ranking of ``ruleset`` on its latest list, stored whole, with the listed
    club members' rows of that list."""
    started = timezone.now()
    period, listed = club_list_rows(ruleset)
    _period, scores = club_ranking_of(period, listed)
    stored = _stored(StoredRanking.Kind.CLUB, ruleset)
    stored.club_rows.all().delete()
    stored.member_rows.all().delete()
    ClubMemberRating.objects.bulk_create([  # what each club's page shows (decision 0824)
        ClubMemberRating(ranking=stored, club_id=club, player_id=e.player_id, rank=e.rank,
                         rating=e.rating, rd=e.rd, vol=e.vol, games=e.games,
                         provisional=e.provisional, change=e.change, last_period=e.last_period)
        for club, e in listed], batch_size=2000)
    ClubRankingRow.objects.bulk_create([
        ClubRankingRow(ranking=stored, position=i, club_id=s.club, rank=s.rank, mean=s.mean,
                       counted=[[p, r] for p, r in s.counted], players=s.players)
        for i, s in enumerate(scores)])
    stored.period = period or ""
    stored.config = club_config_key()
    _stored_done(stored, started)
    return stored


def rankings_store(*, rulesets: Iterable[str] | None = None, ema_ranking: bool = True,
                   club_ranking: bool = True) -> list[str]:
    """Store the rankings of these rulesets (default: every one); returns what was stored."""
    done = []
    for ruleset in rulesets or RULESETS:
        if ema_ranking:
            ema_ranking_store(ruleset=ruleset)
            done.append(f"ema:{ruleset}")
        if club_ranking:
            club_ranking_store(ruleset=ruleset)
            done.append(f"club:{ruleset}")
    return done


def rankings_refresh_later(*, rulesets: Iterable[str], ema_ranking: bool = True,
                           club_ranking: bool = True) -> None:
    """What changes a ranking calls inside its transaction: the stored rankings concerned
    are marked "being updated" (``rankings_outdated``), and the task queue stores them anew
    once the transaction has committed."""
    rulesets = sorted(set(rulesets))
    kinds = ([StoredRanking.Kind.EMA] if ema_ranking else []) + (
        [StoredRanking.Kind.CLUB] if club_ranking else [])
    if not rulesets or not kinds:
        return
    rankings_outdated(StoredRanking.objects.filter(kind__in=kinds, ruleset__in=rulesets))

    transaction.on_commit(lambda: queue("ratings.store_rankings", rulesets=rulesets,
                                        ema_ranking=ema_ranking, club_ranking=club_ranking))


def rerate_later(*, tournament: Any) -> None:
    """Queue the re-rate of the tournament's ruleset from its month on for after the commit
    (decision 0822); the tournament is marked until it has run. The stored rankings of the
    ruleset are marked "being updated" now (``rankings_outdated``)."""
    Tournament.objects.filter(pk=tournament.pk).update(rerate_queued_at=timezone.now())
    rankings_outdated(StoredRanking.objects.filter(ruleset=tournament.ruleset))
    ruleset, from_period = tournament.ruleset, period_label(period_of(tournament.end_date))

    transaction.on_commit(lambda: queue("ratings.rerate", ruleset=ruleset,
                                        from_period=from_period))


def rerate_players_later(*, player_ids: Iterable[int], rulesets: Iterable[str]) -> list[str]:
    """After a merge of two players or its undo (decision 0825): in each ruleset, queue the
    re-rate from the first month either player played in a confirmed tournament (nobody's
    rating before it moves) for after the commit, and mark those tournaments until it has
    run; the stored rankings of the rulesets are marked "being updated" now. Returns the
    rulesets queued."""
    ids = sorted(set(player_ids))
    rulesets = sorted(set(rulesets))
    played = Tournament.objects.filter(
        ruleset__in=rulesets, state=Tournament.State.RESULTS_CONFIRMED,
        registrations__player_id__in=ids)
    firsts = dict(played.order_by().values("ruleset").annotate(first=Min("end_date"))
                  .values_list("ruleset", "first"))
    Tournament.objects.filter(pk__in=played.values("pk")).update(rerate_queued_at=timezone.now())
    rankings_outdated(StoredRanking.objects.filter(ruleset__in=rulesets))
    jobs = [(ruleset, period_label(period_of(firsts[ruleset])))
            for ruleset in rulesets if ruleset in firsts]
    others = [ruleset for ruleset in rulesets if ruleset not in firsts]

    def enqueue() -> None:
        for ruleset, from_period in jobs:
            queue("ratings.rerate", ruleset=ruleset, from_period=from_period)
        if others:  # no confirmed result moved: only the rankings (a member taken along)
            queue("ratings.store_rankings", rulesets=others)

    transaction.on_commit(enqueue)
    return [ruleset for ruleset, _p in jobs]



def club_rankings_current() -> dict[str, StoredRanking]:
    """The stored club ranking of every ruleset, by ruleset, those not stored (before the
    queued job has run, or with other settings) stored first (decision 0824)."""
    stored = club_rankings_stored()
    for ruleset in RULESETS:
        if ruleset not in stored:
            stored[ruleset] = club_ranking_store(ruleset=ruleset)
    return stored


def club_ranking_current(ruleset: str) -> tuple[str | None, list[Any]]:
    """The stored club ranking of a ruleset, stored first when there is none (before the
    queued job has run) or its settings changed."""
    found = club_ranking_stored(ruleset)
    if found is None:
        club_ranking_store(ruleset=ruleset)
        found = club_ranking_stored(ruleset)
    assert found is not None
    return found


def club_ranking_current_stored(ruleset: str) -> StoredRanking:
    """The stored club ranking of a ruleset (its rows read a page at a time), stored first
    when there is none or its settings changed."""
    return club_ranking_stored_one(ruleset) or club_ranking_store(ruleset=ruleset)


def ema_country_ranking(ruleset: str, on: date) -> list[tuple[ema.CountryScore,
                                                                list[tuple[int, str, Any]]]]:
    """The EMA country ranking of a ruleset on a date (decision 0832), each country with
    its counted players as ``(player, name, score)``: from the stored EMA ranking when it
    is that day's (stored first when today's is missing: 2 queries), else from the ranking
    computed for that day."""
    stored = ema_ranking_stored(ruleset, on)
    if stored is None and on == timezone.localdate():
        stored = ema_ranking_store(ruleset=ruleset, on=on)
    if stored is not None:
        rows = [(pid, latin or native, country, score) for pid, latin, native, country, score
                in stored.ema_rows.values_list("player_id", "player__name_latin",
                                               "player__name_native", "player__country",
                                               "score")]
    else:
        ranked = ema_ranking_computed(ruleset, on)
        players = Player.objects.in_bulk([r.score.player for r in ranked])
        rows = [(r.score.player, str(players[r.score.player]),
                 players[r.score.player].country, ema.rounded(r.score.score)) for r in ranked]
    names = {pid: (name, score) for pid, name, _country, score in rows}
    table = ema.country_ranking((pid, country, score) for pid, _name, country, score in rows)
    return [(c, [(pid, *names[pid]) for pid in c.players]) for c in table]
