"""How ratings follow the tournaments: confirmed or corrected results re-rate from the
tournament's period on, in the same transaction (tournaments.signals), in the tournament's
ruleset only."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from ratings.services import ratings_recompute, ratings_recompute_after_tournament
from tournaments.signals import players_merged, results_confirmed, results_imported


@receiver(results_confirmed, dispatch_uid="ratings_rerate_after_results")
@receiver(results_imported, dispatch_uid="ratings_rerate_after_import")
def rerate_after_results(sender: Any, tournament: Any, **kwargs: Any) -> None:
    ratings_recompute_after_tournament(
        ruleset=tournament.ruleset, end_date=tournament.end_date
    )


@receiver(players_merged, dispatch_uid="ratings_recompute_after_merge")
def recompute_after_merge(sender: Any, player: Any, rulesets: Any, **kwargs: Any) -> None:
    """Two players' results are one player's now (or again two): every period they played
    in may change, so the rulesets concerned are recomputed whole."""
    for ruleset in sorted(rulesets):
        ratings_recompute(ruleset=ruleset, wait=True)
