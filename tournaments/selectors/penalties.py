"""Penalties, absences, unbalanced tables kept as recorded, and which sessions the public
standings show while the last ones are hidden (decision 0715)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import translation

from tournaments.models import Absence, Penalty, Tournament
from tournaments.permissions import can_manage


def standings_cutoff(tournament: Tournament, user: Any) -> int | None:
    """The last session whose standings ``user`` may see, ``None`` for all: the public sees
    the standings after session (sessions - N) while the tournament hides its last N
    sessions and the organizer has not revealed them; the organizer and the officers see
    everything."""
    hidden = tournament.hide_last_sessions
    if not hidden or tournament.standings_revealed_at is not None:
        return None
    if can_manage(user, tournament):
        return None
    return max(tournament.sessions - hidden, 0)


@dataclass(frozen=True)
class PenaltyRow:
    penalty: Penalty
    name: str
    to_name: str

    @property
    def reason(self) -> str:
        """The reason as the reader reads it: a late arrival in their language, a
        penalty entered with the results without a reason says so."""
        p = self.penalty
        if p.late_minutes is not None:
            return translation.ngettext("late %(n)s minute", "late %(n)s minutes",
                                        p.late_minutes) % {"n": p.late_minutes}
        if p.reason:
            return p.reason
        if p.source == Penalty.Source.RESULTS:
            return translation.gettext("entered with the results")
        return ""


def tournament_penalties(tournament: Tournament, up_to: int | None = None
                         ) -> list[PenaltyRow]:
    """Every penalty of the tournament (sessions up to ``up_to``), in session order: one
    query, whatever their number."""
    qs = (Penalty.objects.filter(tournament=tournament)
          .select_related("player", "to_player", "given_by")
          .order_by("session", "table", "hand", "given_at", "pk"))
    if up_to is not None:
        qs = qs.filter(session__lte=up_to)
    return [PenaltyRow(p, str(p.player), str(p.to_player) if p.to_player else "")
            for p in qs]


def tournament_absences(tournament: Tournament, up_to: int | None = None) -> list[Absence]:
    qs = Absence.objects.filter(tournament=tournament).select_related("player", "recorded_by")
    if up_to is not None:
        qs = qs.filter(session__lte=up_to)
    return list(qs.order_by("session", "pk"))


def unbalanced_tables(tournament: Tournament, session: int | None = None) -> list[Any]:
    qs = tournament.unbalanced_tables.select_related("confirmed_by")
    if session is not None:
        qs = qs.filter(session=session)
    return list(qs)
