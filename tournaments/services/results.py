"""Results: storing the sessions posted (checked by the scoring core through
``tournaments.rules.results_check``), and whether every session is complete."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from rulebook.scoring.standings import WINDS, Problem
from tournaments.errors import (
    E_RESULTS_MISSING,
    ResultsConflict,
    ResultsError,
    TableConflict,
    TableVersion,
)
from tournaments.models import (
    HandRecord,
    Penalty,
    Session,
    TableRecord,
    TableResult,
    Tournament,
    TournamentResult,
    UnbalancedTable,
)
from tournaments.rules import states
from tournaments.rules.results_check import ScoredTable, evaluate
from tournaments.rules.results_files import SessionEntry
from tournaments.rules.session_players import expected_players
from tournaments.selectors import tournament_ranking
from tournaments.services._common import _audit, _locked, _mcr_config, state_require


def _entrants(tournament: Tournament) -> dict[str, Any]:
    """The registered players, who withdrew from which session, and the substitutes: the
    arguments of ``evaluate`` that say who plays each session."""
    registered: list[int] = []
    withdrawn: dict[int, int] = {}
    substitutes: set[int] = set()
    for player, withdrawn_from, substitute in tournament.registrations.values_list(
        "player_id", "withdrawn_from", "substitute"
    ):
        registered.append(player)
        if withdrawn_from is not None:
            withdrawn[player] = withdrawn_from
        if substitute:
            substitutes.add(player)
    absent: dict[int, set[int]] = {}
    for session, player in tournament.absences.values_list("session", "player_id"):
        absent.setdefault(session, set()).add(player)
    return {"registered": registered, "withdrawn": withdrawn, "substitutes": substitutes,
            "absent": absent}


Seats = tuple[tuple[int, int, int], ...]
"""A table's four seats in wind order: (player, game points, deducted penalty)."""


def _stored_seats(tournament: Tournament, session: int) -> dict[int, Seats]:
    """The stored seats of each table of the session."""
    by_table: dict[int, dict[str, tuple[int, int, int]]] = {}
    for table, seat, player, game, penalty in TableResult.objects.filter(
            tournament=tournament, session=session).values_list(
            "table", "seat", "player_id", "game_points", "penalty"):
        by_table.setdefault(table, {})[seat] = (player, game, penalty)
    return {table: tuple(seats[w] for w in WINDS if w in seats)
            for table, seats in by_table.items()}


def stored_table_version(tournament: Tournament, session: int, table: int
                         ) -> TableVersion | None:
    """The stored results of one table with their source and version (``None``: none)."""
    record = TableRecord.objects.filter(tournament=tournament, session=session,
                                        table=table).first()
    seats = _stored_seats(tournament, session).get(table)
    if record is None or seats is None:
        return None
    return TableVersion(seats, record.source, record.version)


def _conflict(record: TableRecord | None, seen: int | None) -> bool:
    """Whether replacing a stored table whose record is ``record`` by a sender who saw
    version ``seen`` would overwrite someone else's results. A sender who did not say which
    version they saw (an older API client, a CSV file) may replace what the organizer
    entered, not what the players agreed at the table."""
    if record is None:
        return False
    if seen is None:
        return record.source == Session.Source.TABLE
    return seen != record.version


def _store_sessions(
    tournament: Tournament, sessions: Sequence[SessionEntry], user: Any, source: str,
    tables_only: bool = False, allow_unbalanced: bool = False, check_versions: bool = False,
) -> list[int]:
    """Check and store the sessions. A table given with the very totals stored (and no
    hands) is kept as it is (its hands, source and version stay). ``check_versions``: a
    table that would replace results saved by someone else since the sender read them
    (:func:`_conflict`) refuses the whole save with :class:`ResultsConflict`."""
    entrants = _entrants(tournament)
    if tables_only:
        # a player already stored at another table of the session cannot sit here too
        elsewhere: set[int] = set()
        for entry in sessions:
            elsewhere |= set(
                TableResult.objects.filter(tournament=tournament, session=entry.session)
                .exclude(table__in=[t.table for t in entry.tables])
                .values_list("player_id", flat=True))
        entrants["registered"] = [p for p in entrants["registered"] if p not in elsewhere]
    scored, problems = evaluate(
        sessions, **entrants, session_count=tournament.sessions,
        rules=tournament.ruleset, config=_mcr_config(tournament), partial=tables_only,
        allow_unbalanced=allow_unbalanced,
    )
    if problems:
        raise ResultsError(problems)
    numbers = [s.session for s in scored]
    seen_versions = {(entry.session, t.table): t.version
                     for entry in sessions for t in entry.tables}
    conflicts: list[TableConflict] = []
    # per session: the tables to (re)write and the stored tables to delete
    writes: dict[int, list[ScoredTable]] = {}
    replaced: dict[int, set[int]] = {}
    for session in scored:
        number = session.session
        stored = _stored_seats(tournament, number)
        records = {r.table: r for r in TableRecord.objects.filter(
            tournament=tournament, session=number)}
        given: set[int] = set()
        writes[number] = []
        replaced[number] = set()
        for table in session.tables:
            given.add(table.score.table)
            seats = tuple((s.player, s.game_points, s.penalty) for s in table.score.seats)
            if not table.hands and stored.get(table.score.table) == seats:
                continue  # the results stored, given again: kept as they are
            writes[number].append(table)
            replaced[number].add(table.score.table)
            seen = seen_versions.get((number, table.score.table))
            record = records.get(table.score.table)
            if check_versions and record is not None and _conflict(record, seen):
                conflicts.append(TableConflict(
                    number, table.score.table,
                    stored=TableVersion(stored[table.score.table], record.source,
                                        record.version),
                    yours=TableVersion(seats, source, seen), seen=seen))
        if not tables_only:  # the session as a whole: stored tables not given go
            for gone in set(stored) - given:
                replaced[number].add(gone)
                record = records.get(gone)
                if check_versions and record is not None and _conflict(record, None):
                    conflicts.append(TableConflict(
                        number, gone,
                        stored=TableVersion(stored[gone], record.source, record.version),
                        yours=TableVersion((), source, None), seen=None))
    if conflicts:
        raise ResultsConflict(conflicts)
    for number, tables in replaced.items():
        rows = {"tournament": tournament, "session": number, "table__in": sorted(tables)}
        TableResult.objects.filter(**rows).delete()
        HandRecord.objects.filter(**rows).delete()
        UnbalancedTable.objects.filter(**rows).delete()
        Penalty.objects.filter(**rows, source=Penalty.Source.RESULTS).delete()
        written = {t.score.table for t in writes[number]}
        TableRecord.objects.filter(**rows).exclude(table__in=written).delete()
        existing = {r.table: r for r in TableRecord.objects.filter(
            tournament=tournament, session=number, table__in=written)}
        for record in existing.values():
            record.source, record.entered_by, record.version = (
                source, user, record.version + 1)
            record.entered_at = timezone.now()
        TableRecord.objects.bulk_update(existing.values(),
                                        ["source", "entered_by", "version", "entered_at"])
        TableRecord.objects.bulk_create(
            TableRecord(tournament=tournament, session=number, table=table, source=source,
                        entered_by=user, version=1)
            for table in sorted(written - set(existing)))
    results: list[TableResult] = []
    hands: list[HandRecord] = []
    penalties: list[Penalty] = []
    flags: list[UnbalancedTable] = []
    for session in scored:
        Session.objects.update_or_create(
            tournament=tournament, number=session.session,
            defaults={"source": source, "entered_by": user},
        )
        for table in writes[session.session]:
            score = table.score
            for wind, seat in zip(WINDS, score.seats, strict=True):
                results.append(TableResult(
                    tournament=tournament, session=session.session, table=score.table,
                    seat=wind, player_id=seat.player, game_points=seat.game_points,
                    penalty=seat.penalty,
                ))
                if seat.penalty:
                    penalties.append(Penalty(
                        tournament=tournament, session=session.session, table=score.table,
                        player_id=seat.player, kind=Penalty.Kind.DEDUCTED,
                        points=seat.penalty, source=Penalty.Source.RESULTS, given_by=user))
            if table.unbalanced is not None:
                flags.append(UnbalancedTable(tournament=tournament, session=session.session,
                                             table=score.table, total=table.unbalanced))
            for number, (hand, line) in enumerate(table.hands, start=1):
                if hand.kind == "penalty":
                    penalties.append(Penalty(
                        tournament=tournament, session=session.session, table=score.table,
                        hand=number, player_id=hand.player, kind=Penalty.Kind.TRANSFERRED,
                        points=line.points, reason=hand.reason,
                        source=Penalty.Source.RESULTS, given_by=user))
                hands.append(HandRecord(
                    tournament=tournament, session=session.session, table=score.table,
                    number=number, kind=hand.kind, winner_id=hand.player,
                    discarder_id=hand.discarder, points=line.points,
                    fans=list(line.fans if hand.tiles else (hand.fans or ())),
                    tiles=hand.tiles or "", context=dict(hand.context),
                    deltas=dict(zip(WINDS, line.deltas, strict=True)),
                ))
    TableResult.objects.bulk_create(results, batch_size=1000)
    HandRecord.objects.bulk_create(hands, batch_size=1000)
    Penalty.objects.bulk_create(penalties, batch_size=1000)
    UnbalancedTable.objects.bulk_create(flags)
    if hands and tournament.results_kind != Tournament.ResultsKind.HANDS:
        tournament.results_kind = Tournament.ResultsKind.HANDS
        Tournament.objects.filter(pk=tournament.pk).update(results_kind=tournament.results_kind)
    return numbers


def results_open(tournament: Tournament) -> None:
    """Raise unless results may be posted now (accredited or results submitted)."""
    state_require(tournament, "results")


def correction_open(tournament: Tournament) -> None:
    """Raise unless results may be corrected now (results confirmed)."""
    state_require(tournament, "correct")


def results_problems(
    *, tournament: Tournament, sessions: Sequence[SessionEntry], parse_problems: Sequence[Problem],
    allow_unbalanced: bool = False,
) -> list[Problem]:
    """Every problem of an upload: the parser's, and what the tables that did parse mean
    (without the "who is missing" checks of a session whose rows were partly unreadable)."""
    _scored, problems = evaluate(
        sessions, **_entrants(tournament), session_count=tournament.sessions,
        rules=tournament.ruleset, config=_mcr_config(tournament),
        allow_unbalanced=allow_unbalanced,
    )
    broken = {p.session for p in parse_problems}
    problems = [
        p for p in problems
        if p.session not in broken or p.code not in ("player_missing", "player_twice",
                                                     "player_unknown")
    ]
    return [*parse_problems, *problems]


@transaction.atomic
def results_record(
    *, tournament: Tournament, user: Any, sessions: Sequence[SessionEntry],
    source: str = Session.Source.API, tables_only: bool = False,
    allow_unbalanced: bool = False, check_versions: bool = True,
) -> list[int]:
    """Store the results of the sessions given (a session posted again is replaced);
    accredited -> results submitted. Every problem -> :class:`ResultsError`, nothing stored.
    ``tables_only``: only the tables given are replaced and a session may lack the others
    (a table entered at the table); ``tournament_confirm`` still wants every seat.
    ``allow_unbalanced`` (an import of totals): tables of totals without hands that do not
    sum to zero are stored as recorded and flagged (``UnbalancedTable``).
    Each table stored carries a version (``TableRecord``); a table given with the version
    its sender saw that is no longer the stored one, or given without a version over what
    the players agreed at the table, refuses the save with :class:`ResultsConflict` (both
    versions), nothing stored (``check_versions``; off only for the table's own agreement,
    which checks for itself). A table given again with the very totals stored is kept."""
    tournament = _locked(tournament)
    results_open(tournament)
    numbers = _store_sessions(tournament, sessions, user, source, tables_only,
                              allow_unbalanced, check_versions)
    state = states.state_after("results", tournament.state)
    if state != tournament.state:  # the first session posted: accredited -> results submitted
        tournament.state = state
        tournament.save(update_fields=["state"])
    _audit(tournament, "tournaments.tournament.results", user, sessions=numbers, source=source)
    return numbers


def _complete(tournament: Tournament) -> None:
    """Every session has results with every player expected in it: registered, not a
    substitute, not withdrawn by then (registrations may have changed after a session was
    posted)."""
    entrants = _entrants(tournament)
    problems: list[Problem] = []
    for number in range(1, tournament.sessions + 1):
        seated = set(
            TableResult.objects.filter(tournament=tournament, session=number)
            .values_list("player_id", flat=True)
        )
        if not seated:
            problems.append(Problem(E_RESULTS_MISSING, f"session {number} has no results",
                                    session=number, field="session"))
            continue
        expected = expected_players(number, **entrants)
        for player in sorted(expected - seated):
            problems.append(Problem("player_missing",
                                    f"player {player} has no seat in session {number}",
                                    session=number, field="player", params={"player": player}))
    problems.extend(_open_flags(tournament))
    problems.extend(_penalties_without_seat(tournament))
    if problems:
        raise ResultsError(problems)


E_TABLE_UNBALANCED = "table_unbalanced"
E_PENALTY_WITHOUT_SEAT = "penalty_without_seat"


def _open_flags(tournament: Tournament) -> list[Problem]:
    """The imported tables that do not sum to zero, neither fixed nor confirmed as
    recorded."""
    return [
        Problem(E_TABLE_UNBALANCED,
                f"the game points of table {f.table} sum to {f.total}, not zero",
                session=f.session, table=f.table, field="game_points",
                params={"total": f.total})
        for f in tournament.unbalanced_tables.filter(confirmed_at__isnull=True)
    ]


def _penalties_without_seat(tournament: Tournament) -> list[Problem]:
    """Penalties given by the organizer to a player (or to a player) who has no seat in that
    session's stored results, or not at the offender's table: they would count for
    nothing."""
    seats = {(session, player): table for session, player, table in
             TableResult.objects.filter(tournament=tournament)
             .values_list("session", "player_id", "table")}
    problems = []
    for p in tournament.penalties.filter(source=Penalty.Source.ORGANIZER):
        table = seats.get((p.session, p.player_id))
        if table is None or (p.to_player_id is not None
                             and seats.get((p.session, p.to_player_id)) != table):
            problems.append(Problem(
                E_PENALTY_WITHOUT_SEAT,
                f"player {p.player_id} has a penalty in session {p.session} but no seat",
                session=p.session, field="player", params={"player": p.player_id}))
    return problems


@transaction.atomic
def tournament_results_store(tournament: Tournament) -> list[TournamentResult]:
    """Replace the tournament's stored final standings (``TournamentResult``) with
    ``tournament_ranking``'s; called when the results are confirmed or corrected. A
    tournament with final standings only keeps the rows it was imported with."""
    if tournament.results_kind == Tournament.ResultsKind.FINAL:
        return list(TournamentResult.objects.filter(tournament=tournament))
    ranking = tournament_ranking(tournament)
    TournamentResult.objects.filter(tournament=tournament).delete()
    return TournamentResult.objects.bulk_create(
        TournamentResult(
            tournament=tournament, player_id=s.player, rank=s.rank, players=len(ranking),
            table_points_numerator=s.table_points.numerator,
            table_points_denominator=s.table_points.denominator,
            game_points=s.game_points, penalties=s.penalties, sessions=s.sessions,
        )
        for s in ranking
    )
