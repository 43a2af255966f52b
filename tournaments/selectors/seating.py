"""The seating: which sessions have one, what the public may see of it (the sessions the
organizer published, decision 0730), a player's seats and a session's tables."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef

from tournaments.models import SEAT_ORDER, SeatingAssignment, Tournament
from tournaments.permissions import can_manage


def tournament_sessions_seated(tournament: Tournament) -> list[int]:
    """The sessions with a seating (one query, whatever the number of seats)."""
    return list(
        tournament.seating.order_by("session").values_list("session", flat=True).distinct()
    )


def seating_published(tournament: Tournament) -> int:
    """The last session whose seating the public sees (0: none)."""
    return min(tournament.seating_published, tournament.sessions)


def seating_visible_through(tournament: Tournament, user: Any) -> int:
    """The last session whose seating ``user`` sees on the public pages: every session for
    the organizer and the officers, the published ones for everyone else."""
    if can_manage(user, tournament):
        return tournament.sessions
    return seating_published(tournament)


def player_seats(tournament: Tournament, player: int, through: int
                 ) -> dict[int, dict[str, Any]]:
    """session -> {"table", "seat", "seats": [(wind, player id) in seat order]} for the
    sessions up to ``through`` where ``player`` has a seat: one query, the player's tables
    with the three others."""
    mine = SeatingAssignment.objects.filter(
        tournament=tournament, player_id=player, session=OuterRef("session"),
        table=OuterRef("table"))
    rows = (SeatingAssignment.objects
            .filter(tournament=tournament, session__lte=through)
            .filter(Exists(mine))
            .values_list("session", "table", "seat", "player_id"))
    out: dict[int, dict[str, Any]] = {}
    for session, table, seat, who in rows:
        entry = out.setdefault(session, {"table": table, "seat": "", "seats": []})
        entry["seats"].append((seat, who))
        if who == player:
            entry["seat"] = seat
    for entry in out.values():
        entry["seats"].sort(key=lambda s: SEAT_ORDER[s[0]])
    return out


def session_seating(tournament: Tournament, session: int) -> dict[int, dict[str, int]]:
    """table -> {wind: player id} of one session (one query)."""
    tables: dict[int, dict[str, int]] = {}
    for table, seat, player in (SeatingAssignment.objects
                                .filter(tournament=tournament, session=session)
                                .values_list("table", "seat", "player_id")):
        tables.setdefault(table, {})[seat] = player
    return tables


def tables_per_session(tournament: Tournament) -> dict[int, int]:
    """session -> the number of tables drawn (one query)."""
    return dict(SeatingAssignment.objects.filter(tournament=tournament)
                .values("session").annotate(n=Count("table", distinct=True))
                .values_list("session", "n"))
