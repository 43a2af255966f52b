"""The tournaments app following its own signals (tournaments.signals): the hand statistics
are written again when results are confirmed or corrected and when players are merged."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from tournaments.services.hand_stats import hand_stats_refresh, hand_stats_refresh_for_player
from tournaments.signals import players_merged, results_confirmed


@receiver(results_confirmed, dispatch_uid="tournaments_hand_stats_after_results")
def hand_stats_after_results(sender: Any, tournament: Any, **kwargs: Any) -> None:
    hand_stats_refresh(tournament)


@receiver(players_merged, dispatch_uid="tournaments_hand_stats_after_merge")
def hand_stats_after_merge(sender: Any, player: Any, **kwargs: Any) -> None:
    hand_stats_refresh_for_player(player)
