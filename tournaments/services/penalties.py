"""Penalties given by the organizer, late arrivals and absences for one session, the hidden
standings of the last sessions and the imported tables that do not sum to zero
(docs/decisions/0715-penalties-absences-hidden-standings.md)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from rulebook.scoring.scoresheet import LineResult, PenaltyTransfer, score_line
from tournaments.errors import (
    E_ABSENT_AFTER_RESULTS,
    E_ALREADY_ABSENT,
    E_LATE_MINUTES,
    E_PENALTY_KIND,
    E_PENALTY_NOT_GIVEN,
    E_PENALTY_PLAYER,
    E_PENALTY_POINTS_RANGE,
    E_PENALTY_RECEIVER,
    E_PENALTY_SESSION,
    E_REASON_REQUIRED,
    E_TABLE_NOT_FLAGGED,
    TournamentError,
)
from tournaments.models import (
    Absence,
    Penalty,
    Registration,
    SeatingAssignment,
    TableResult,
    Tournament,
)
from tournaments.rules.lateness import late_deduction
from tournaments.services._common import _audit, _locked, state_require
from tournaments.services.seating import seat_substitute

MAX_PENALTY_POINTS = 10_000


def _open(tournament: Tournament) -> Tournament:
    tournament = _locked(tournament)
    state_require(tournament, "penalty")
    return tournament


def _session(tournament: Tournament, session: Any) -> int:
    if not isinstance(session, int) or not 1 <= session <= tournament.sessions:
        raise TournamentError(E_PENALTY_SESSION, count=tournament.sessions, field="session")
    return session


def _playing(tournament: Tournament, session: int, player: Any, field: str) -> Registration:
    """The registration of a player who may sit in ``session``: registered, not withdrawn
    by then, not absent for it."""
    registration = (
        Registration.objects.filter(tournament=tournament, player_id=player)
        .select_related("player").first() if isinstance(player, int) else None
    )
    if (registration is None
            or (registration.withdrawn_from is not None
                and session >= registration.withdrawn_from)
            or Absence.objects.filter(tournament=tournament, session=session,
                                      player_id=player).exists()):
        raise TournamentError(E_PENALTY_PLAYER, player=player, session=session, field=field)
    return registration


def _seat_table(tournament: Tournament, session: int, player: int) -> int | None:
    return (TableResult.objects.filter(tournament=tournament, session=session,
                                       player_id=player)
            .values_list("table", flat=True).first())


def _drawn_tables(tournament: Tournament, session: int, players: tuple[int, ...]
                  ) -> dict[int, int]:
    """player -> the table the seating draws them at in ``session`` (those drawn only)."""
    return dict(SeatingAssignment.objects.filter(
        tournament=tournament, session=session, player_id__in=players,
    ).values_list("player_id", "table"))


def _table_pending(tournament: Tournament, session: int, player: int) -> bool:
    """The player has no stored seat in ``session`` yet, and may still get one: the session
    has no results, or the player's drawn table has none yet (tables entered at the table
    arrive one by one)."""
    stored = TableResult.objects.filter(tournament=tournament, session=session)
    if not stored.exists():
        return True
    drawn = (SeatingAssignment.objects.filter(tournament=tournament, session=session,
                                              player_id=player)
             .values_list("table", flat=True).first())
    return drawn is not None and not stored.filter(table=drawn).exists()


@transaction.atomic
def penalty_give(
    *, tournament: Tournament, user: Any, session: int, player: int, kind: str, points: int,
    reason: str = "", to_player: int | None = None, late_minutes: int | None = None,
) -> Penalty:
    """The organizer gives a penalty (3.11.2) with its reason: ``deducted`` (taken from the
    player, given to no one) or ``transferred`` (to ``to_player`` at the same table, or
    shared by the three others as on the score sheet: then divisible by 3). Given before or
    after the session's results are posted; a session posted again keeps it."""
    tournament = _open(tournament)
    session = _session(tournament, session)
    if kind not in Penalty.Kind.values:
        raise TournamentError(E_PENALTY_KIND, field="kind")
    if not isinstance(points, int) or not 1 <= points <= MAX_PENALTY_POINTS:
        raise TournamentError(E_PENALTY_POINTS_RANGE, lo=1, hi=MAX_PENALTY_POINTS,
                              field="points")
    reason = (reason or "").strip()[:300]
    if not reason and late_minutes is None:
        raise TournamentError(E_REASON_REQUIRED, field="reason")
    _playing(tournament, session, player, "player")
    table = _seat_table(tournament, session, player)
    if table is None and not _table_pending(tournament, session, player):
        raise TournamentError(E_PENALTY_PLAYER, player=player, session=session,
                              field="player")
    if kind == Penalty.Kind.DEDUCTED:
        to_player = None
    elif to_player is not None:
        if to_player == player:
            raise TournamentError(E_PENALTY_RECEIVER, field="to_player")
        _playing(tournament, session, to_player, "to_player")
        if _seat_table(tournament, session, to_player) != table:
            raise TournamentError(E_PENALTY_RECEIVER, field="to_player")
        # before the tables are stored, the drawn seating says who sits together: a
        # receiver drawn at another table would be listed and given nothing (issue 37)
        drawn = _drawn_tables(tournament, session, (player, to_player))
        if len(drawn) == 2 and drawn[player] != drawn[to_player]:
            raise TournamentError(E_PENALTY_RECEIVER, field="to_player")
    else:
        # shared by the three others: the scoring core's rule of a sheet's penalty line
        line = score_line(PenaltyTransfer(0, points), hand=1)
        if not isinstance(line, LineResult):
            raise TournamentError(line.code, **dict(line.params), field="points")
    penalty = Penalty.objects.create(
        tournament=tournament, session=session, table=table, player_id=player, kind=kind,
        points=points, to_player_id=to_player, reason=reason, late_minutes=late_minutes,
        source=Penalty.Source.ORGANIZER, given_by=user,
    )
    _audit(tournament, "tournaments.tournament.penalty", user, penalty=penalty.pk,
           session=session, player=player, kind=kind, points=points)
    return penalty


@transaction.atomic
def penalty_remove(*, tournament: Tournament, user: Any, penalty: int) -> None:
    """The organizer takes back a penalty they gave (a mistake), before the results are
    confirmed; a penalty entered with the results goes with the table posted again."""
    tournament = _open(tournament)
    record = tournament.penalties.filter(pk=penalty, source=Penalty.Source.ORGANIZER).first()
    if record is None:
        raise TournamentError(E_PENALTY_NOT_GIVEN, field="penalty")
    _audit(tournament, "tournaments.tournament.penalty", user, removed=record.pk,
           session=record.session, player=record.player_id, points=record.points)
    record.delete()


@transaction.atomic
def player_absent(
    *, tournament: Tournament, user: Any, session: int, player: int, reason: str = "",
    late_minutes: int | None = None,
) -> Absence:
    """The player misses ``session`` and plays the next ones: its results leave them out,
    the first free substitute takes their seat in the drawn seating (``seat_substitute``)
    and they get the tournament's ``absent_score``.
    Refused once they have results in that session (post it again without them first)."""
    tournament = _open(tournament)
    session = _session(tournament, session)
    if Absence.objects.filter(tournament=tournament, session=session,
                              player_id=player).exists():
        raise TournamentError(E_ALREADY_ABSENT, player=player, session=session,
                              field="session")
    _playing(tournament, session, player, "player")
    if _seat_table(tournament, session, player) is not None:
        raise TournamentError(E_ABSENT_AFTER_RESULTS, session=session, field="session")
    absence = Absence.objects.create(
        tournament=tournament, session=session, player_id=player,
        reason=(reason or "").strip()[:300], late_minutes=late_minutes, recorded_by=user,
    )
    substitute = seat_substitute(tournament, session, player)
    _audit(tournament, "tournaments.tournament.absent", user, session=session, player=player,
           substitute=substitute)
    return absence


def player_late(
    *, tournament: Tournament, user: Any, session: int, player: int, minutes: int,
) -> Penalty | Absence:
    """A late arrival (3.11.2): up to 10 minutes, a deducted penalty of 10 game points;
    11 to 15, 20 points; beyond 15 minutes the player misses the session (an absence):
    ``tournaments.rules.lateness.late_deduction``."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 600:
        raise TournamentError(E_LATE_MINUTES, field="minutes")
    points = late_deduction(minutes)
    if points is None:
        return player_absent(tournament=tournament, user=user, session=session,
                             player=player, late_minutes=minutes)
    return penalty_give(tournament=tournament, user=user, session=session, player=player,
                        kind=Penalty.Kind.DEDUCTED, points=points, late_minutes=minutes)


@transaction.atomic
def standings_reveal(*, tournament: Tournament, user: Any) -> Tournament:
    """The organizer reveals the standings of the hidden last sessions (at the
    prize-giving); confirming the results reveals them too."""
    tournament = _locked(tournament)
    if tournament.standings_revealed_at is None:
        tournament.standings_revealed_at = timezone.now()
        tournament.save(update_fields=["standings_revealed_at"])
        _audit(tournament, "tournaments.tournament.reveal", user)
    return tournament


@transaction.atomic
def unbalanced_table_confirm(*, tournament: Tournament, user: Any, session: int,
                             table: int) -> Any:
    """The organizer keeps an imported table that does not sum to zero as recorded (the
    score sheet says so); the standings use it as it is."""
    tournament = _open(tournament)
    flag = tournament.unbalanced_tables.filter(session=session, table=table).first()
    if flag is None:
        raise TournamentError(E_TABLE_NOT_FLAGGED, session=session, table=table,
                              field="table")
    if flag.confirmed_at is None:
        flag.confirmed_by = user
        flag.confirmed_at = timezone.now()
        flag.save(update_fields=["confirmed_by", "confirmed_at"])
        _audit(tournament, "tournaments.tournament.unbalanced", user, session=session,
               table=table, total=flag.total)
    return flag
