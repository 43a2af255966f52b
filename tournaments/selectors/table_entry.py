"""Entry at the table: a token's table entry, the table's players, the tables of a session
as the organizer's session view shows them, the tournament's MCR variant."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulebook.scoring import DEFAULT_CONFIG, MCRConfig
from rulebook.scoring.standings import Problem
from tournaments.errors import TableVersion
from tournaments.models import (
    SEAT_ORDER,
    SeatingAssignment,
    Session,
    TableEntry,
    TableRecord,
    TableResult,
    Tournament,
)
from tournaments.rules import states
from tournaments.table_sheet import sheet_view

TABLE_ENTRY_OPEN = states.RESULTS_OPEN
"""The states in which the tables' tokens work: those in which results may be posted."""


def table_entry_for_token(token: str) -> TableEntry | None:
    """The table entry of a token while results may be posted (the token expires when the
    results are confirmed), else ``None``."""
    return (
        TableEntry.objects.select_related("tournament")
        .filter(token=token, tournament__state__in=TABLE_ENTRY_OPEN).first()
    )


def table_sheet_version(entry: TableEntry) -> TableVersion | None:
    """The results of the sheet entered at the table, as the players have it (the core's
    totals; no deducted penalty at the table), ``None`` while its lines have problems."""
    tournament = entry.tournament
    view = sheet_view(entry.hands, rules=tournament.ruleset,
                      config=mcr_config(tournament) or DEFAULT_CONFIG)
    if view.problems or not entry.hands:
        return None
    return TableVersion(
        tuple((p, total, 0) for p, total in zip(table_players(entry), view.totals,
                                                 strict=True)),
        Session.Source.TABLE, None)


def table_players(entry: TableEntry) -> list[int]:
    """The four players of the entry's table, in wind order E, S, W, N."""
    rows = sorted(
        SeatingAssignment.objects.filter(tournament_id=entry.tournament_id,
                                         session=entry.session, table=entry.table),
        key=lambda a: SEAT_ORDER[a.seat])
    return [a.player_id for a in rows]


@dataclass(frozen=True)
class SessionTable:
    """A table of a session as the organizer's session view shows it: ``state`` "missing",
    "entered" (lines entered at the table, not all agreed) or "agreed" (results stored);
    ``source`` how this table's stored results came in ("form", "csv", "api", "table");
    ``problems`` what the core found in the lines entered at the table; ``version`` the
    stored results' version (0: none); ``held`` the players agreed a sheet after the
    organizer had entered the table, waiting for the organizer's choice."""

    table: int
    state: str
    entry: TableEntry | None
    source: str | None
    problems: tuple[Problem, ...]
    version: int = 0
    held: bool = False


def mcr_config(tournament: Tournament) -> MCRConfig | None:
    """The tournament's MCR variant (the default for other rules), ``None`` when its
    switches are not known to the core."""
    if tournament.ruleset != "mcr" or not tournament.variant:
        return DEFAULT_CONFIG
    names = {f.name for f in dataclasses.fields(MCRConfig)}
    if set(tournament.variant) - names:
        return None
    return dataclasses.replace(DEFAULT_CONFIG, **tournament.variant)


def session_tables(tournament: Tournament, session: int) -> list[SessionTable]:
    seated = set(SeatingAssignment.objects.filter(tournament=tournament, session=session)
                 .values_list("table", flat=True))
    stored = set(TableResult.objects.filter(tournament=tournament, session=session)
                 .values_list("table", flat=True))
    entries = {e.table: e for e in TableEntry.objects.filter(tournament=tournament,
                                                             session=session)}
    records = {r.table: r for r in TableRecord.objects.filter(tournament=tournament,
                                                              session=session)}
    record = Session.objects.filter(tournament=tournament, number=session).first()
    rows: list[SessionTable] = []
    for table in sorted(seated | stored | set(entries)):
        entry = entries.get(table)
        problems: tuple[Problem, ...] = ()
        version = 0
        if table in stored:
            state = "agreed"
            kept = records.get(table)
            # how this table's stored results came in (the session's for rows stored
            # before tables kept their own)
            source = kept.source if kept else record.source if record else None
            version = kept.version if kept else 0
        else:
            source = None
            state = "entered" if entry and entry.hands else "missing"
            if entry and entry.hands:
                view = sheet_view(entry.hands, rules=tournament.ruleset,
                                  config=mcr_config(tournament) or DEFAULT_CONFIG)
                problems = tuple(p.located(session=session, table=table)
                                 for p in view.problems)
        rows.append(SessionTable(table, state, entry, source, problems, version,
                                 bool(entry and entry.held)))
    return rows


@dataclass(frozen=True)
class SeatLine:
    """A seat of a table as the session view lists it: the wind, the player's start number
    and name, the stored game points (None: the table's results are not in)."""

    seat: str
    number: int | None
    name: str
    game_points: int | None


def session_seats(tournament: Tournament, session: int) -> dict[int, list[SeatLine]]:
    """Each table of a session -> its four seats in wind order with names and totals
    (issue 38: the session view showed neither). Three queries."""
    from tournaments.models import Registration, TableResult

    numbers = dict(Registration.objects.filter(tournament=tournament)
                   .values_list("player_id", "number"))
    totals = {(r.table, r.player_id): r.game_points
              for r in TableResult.objects.filter(tournament=tournament, session=session)}
    tables: dict[int, list[SeatLine]] = {}
    seating = SeatingAssignment.objects.filter(tournament=tournament, session=session
                                               ).select_related("player")
    for a in sorted(seating, key=lambda a: (a.table, SEAT_ORDER[a.seat])):
        tables.setdefault(a.table, []).append(SeatLine(
            a.seat, numbers.get(a.player_id), str(a.player), totals.get((a.table, a.player_id))))
    return tables
