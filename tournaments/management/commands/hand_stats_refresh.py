"""Write the hand statistics of every confirmed tournament again from its stored hands
(after an upgrade that brings the hand archive; they are kept up to date by themselves
afterwards)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.models import Tournament
from tournaments.services.hand_stats import hand_stats_refresh


class Command(BaseCommand):
    help = "Write the hand statistics of every confirmed tournament again from its hands."

    def handle(self, *args: Any, **options: Any) -> None:
        tournaments = Tournament.objects.filter(state=Tournament.State.RESULTS_CONFIRMED)
        rows = sum(hand_stats_refresh(t) for t in tournaments.order_by("end_date", "pk"))
        self.stdout.write(f"{tournaments.count()} tournaments, {rows} rows of hand statistics")
