"""Entry at the table: the organizer opens a session's tables (a token per table, shown as
a QR code), the players add and remove the lines of their sheet, and each of the four taps
"agree"; the fourth agreement records the table through ``results_record`` (source
"table"), the one way results are stored."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from rulebook.scoring.standings import WINDS
from tournaments.errors import (
    E_BAD_LINE,
    E_NO_SEATING,
    E_TABLE_CLOSED,
    ResultsError,
    TournamentError,
)
from tournaments.importers import SessionEntry
from tournaments.models import SeatingAssignment, Session, TableEntry, Tournament
from tournaments.selectors import table_players
from tournaments.services._common import State, _audit, _mcr_config, _require
from tournaments.services.results import results_record
from tournaments.table_sheet import sheet_view, table_input

OPEN_STATES = (State.ACCREDITED, State.RESULTS_SUBMITTED)


@transaction.atomic
def table_entries_open(*, tournament: Tournament, session: int, user: Any) -> list[TableEntry]:
    """A table entry (and its token) for each seated table of the session; entries that
    exist are kept."""
    _require(tournament, *OPEN_STATES, action="results")
    tables = sorted(set(
        SeatingAssignment.objects.filter(tournament=tournament, session=session)
        .values_list("table", flat=True)))
    if not tables:
        raise TournamentError(E_NO_SEATING, session=session)
    entries = []
    opened = []
    for table in tables:
        entry, created = TableEntry.objects.get_or_create(
            tournament=tournament, session=session, table=table,
            defaults={"token": secrets.token_urlsafe(24)},
        )
        entries.append(entry)
        if created:
            opened.append(table)
    if opened:
        _audit(tournament, "tournaments.tournament.tables", user, session=session,
               tables=opened)
    return entries


def _open_entry(entry: TableEntry) -> TableEntry:
    entry = TableEntry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    if entry.tournament.state not in OPEN_STATES or entry.state == TableEntry.State.AGREED:
        raise TournamentError(E_TABLE_CLOSED)
    return entry


def _clean_line(line: Mapping[str, Any]) -> dict[str, Any]:
    kind = line.get("kind")
    if kind == "draw":
        return {"kind": "draw"}
    if kind not in ("win", "penalty"):
        raise TournamentError(E_BAD_LINE, field="kind")
    seat = line.get("seat")
    if seat not in WINDS:
        raise TournamentError(E_BAD_LINE, field="seat")
    points = line.get("points")
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise TournamentError(E_BAD_LINE, field="points")
    if kind == "penalty":
        reason = str(line.get("reason") or "").strip()
        if not reason:
            raise TournamentError(E_BAD_LINE, field="reason")
        return {"kind": "penalty", "seat": seat, "points": points, "reason": reason[:200]}
    discarder = line.get("from") or None
    if discarder is not None and (discarder not in WINDS or discarder == seat):
        raise TournamentError(E_BAD_LINE, field="from")
    return {"kind": "win", "seat": seat, "from": discarder, "points": points}


@transaction.atomic
def table_entry_line_add(*, entry: TableEntry, line: Mapping[str, Any]) -> TableEntry:
    """Add a line (win, draw, transferred penalty) to the sheet; agreements given so far
    are withdrawn, since the sheet changed."""
    entry = _open_entry(entry)
    entry.hands = [*entry.hands, _clean_line(line)]
    entry.agreed = []
    entry.state = TableEntry.State.ENTERED
    entry.save(update_fields=["hands", "agreed", "state", "updated_at"])
    return entry


@transaction.atomic
def table_entry_line_remove(*, entry: TableEntry, number: int) -> TableEntry:
    """Remove line ``number`` (from 1); agreements given so far are withdrawn."""
    entry = _open_entry(entry)
    if not 1 <= number <= len(entry.hands):
        raise TournamentError(E_BAD_LINE, field="hand")
    entry.hands = [h for i, h in enumerate(entry.hands, start=1) if i != number]
    entry.agreed = []
    entry.state = TableEntry.State.ENTERED if entry.hands else TableEntry.State.MISSING
    entry.save(update_fields=["hands", "agreed", "state", "updated_at"])
    return entry


@transaction.atomic
def table_entry_agree(*, entry: TableEntry, seat: str) -> TableEntry:
    """The player on ``seat`` agrees with the sheet as it is. A sheet with problems cannot
    be agreed (:class:`ResultsError`). When the fourth seat agrees, the table is recorded
    (``results_record``, source "table", this table only) and the entry is closed."""
    entry = _open_entry(entry)
    if seat not in WINDS:
        raise TournamentError(E_BAD_LINE, field="seat")
    tournament = entry.tournament
    if not entry.hands:
        raise TournamentError(E_BAD_LINE, field="hand")
    view = sheet_view(entry.hands, rules=tournament.ruleset, config=_mcr_config(tournament))
    if view.problems:
        raise ResultsError([p.located(session=entry.session, table=entry.table)
                            for p in view.problems])
    agreed = set(entry.agreed) | {seat}
    entry.agreed = [w for w in WINDS if w in agreed]
    if len(entry.agreed) == len(WINDS):
        players = table_players(entry)
        session = SessionEntry(entry.session, (table_input(entry.table, players, entry.hands),))
        results_record(tournament=tournament, user=tournament.organizer, sessions=[session],
                       source=Session.Source.TABLE, tables_only=True)
        entry.state = TableEntry.State.AGREED
    entry.save(update_fields=["agreed", "state", "updated_at"])
    return entry
