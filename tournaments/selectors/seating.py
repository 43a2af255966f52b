"""The seating: which sessions have one."""

from __future__ import annotations

from tournaments.models import Tournament


def tournament_sessions_seated(tournament: Tournament) -> list[int]:
    """The sessions with a seating (one query, whatever the number of seats)."""
    return list(
        tournament.seating.order_by("session").values_list("session", flat=True).distinct()
    )
