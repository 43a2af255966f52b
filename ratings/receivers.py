"""How ratings follow the tournaments and membership: confirmed or corrected results re-rate
from the tournament's period on, in the same transaction (tournaments.signals), in the
tournament's ruleset only, and store the tournament's EMA base ranks; the stored rankings
concerned are stored again through the task queue (decision 0821)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from federation.signals import members_changed
from ratings.rankings import (
    ema_base_ranks_store,
    ema_base_ranks_store_for_players,
    rankings_refresh_later,
    rerate_later,
    rerate_on_queue,
    rerate_players_later,
)
from ratings.selectors import RULESETS
from ratings.services import ratings_recompute, ratings_recompute_after_tournament
from tournaments.signals import (
    mers_changed,
    players_merged,
    results_confirmed,
    results_imported,
)


@receiver(results_confirmed, dispatch_uid="ratings_rerate_after_results")
@receiver(results_imported, dispatch_uid="ratings_rerate_after_import")
def rerate_after_results(sender: Any, tournament: Any, **kwargs: Any) -> None:
    """The base ranks at once; the re-rate on the task queue after the commit (decision
    0822), or in the transaction with RATINGS_RERATE_ON_QUEUE off."""
    ema_base_ranks_store(tournament_ids=[tournament.pk])
    if rerate_on_queue():
        rerate_later(tournament=tournament)
        return
    ratings_recompute_after_tournament(
        ruleset=tournament.ruleset, end_date=tournament.end_date
    )
    rankings_refresh_later(rulesets=[tournament.ruleset])


@receiver(players_merged, dispatch_uid="ratings_recompute_after_merge")
def recompute_after_merge(sender: Any, player: Any, rulesets: Any,
                          player_ids: Any = None, **kwargs: Any) -> None:
    """Two players' results are one player's now (or again two): every period from the
    first either played in may change. The base ranks at once; the re-rate of each ruleset
    from that period on the task queue after the commit (decision 0825), or the rulesets
    recomputed whole in the transaction with RATINGS_RERATE_ON_QUEUE off."""
    ema_base_ranks_store_for_players(player_ids=[player.pk])
    if rerate_on_queue():
        rerate_players_later(player_ids=player_ids or [player.pk], rulesets=rulesets)
        return
    for ruleset in sorted(rulesets):
        ratings_recompute(ruleset=ruleset, wait=True)
    rankings_refresh_later(rulesets=rulesets)


@receiver(members_changed, dispatch_uid="ratings_club_ranking_after_members")
def club_ranking_after_members(sender: Any, member_ids: Any, **kwargs: Any) -> None:
    """Who is an active, listed member of which club decides who the club ranking counts."""
    rankings_refresh_later(rulesets=RULESETS, ema_ranking=False)


@receiver(mers_changed, dispatch_uid="ratings_ema_ranking_after_mers")
def ema_ranking_after_mers(sender: Any, tournament: Any, **kwargs: Any) -> None:
    """The officer certified a tournament for the EMA (or withdrew it, or changed its
    weight): the stored EMA ranking of its ruleset is stored again."""
    rankings_refresh_later(rulesets=[tournament.ruleset])
