"""Entry at the table: a token's table entry, the table's players, the tables of a session
as the organizer's session view shows them, the tournament's MCR variant."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulebook.scoring import DEFAULT_CONFIG, MCRConfig
from rulebook.scoring.standings import Problem
from tournaments.models import (
    SEAT_ORDER,
    SeatingAssignment,
    Session,
    TableEntry,
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
    ``source`` how stored results came in; ``problems`` what the core found in the lines
    entered at the table."""

    table: int
    state: str
    entry: TableEntry | None
    source: str | None
    problems: tuple[Problem, ...]


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
    record = Session.objects.filter(tournament=tournament, number=session).first()
    rows: list[SessionTable] = []
    for table in sorted(seated | stored | set(entries)):
        entry = entries.get(table)
        problems: tuple[Problem, ...] = ()
        if table in stored:
            state = "agreed"
            source = (Session.Source.TABLE if entry and entry.state == TableEntry.State.AGREED
                      else record.source if record else None)
        else:
            source = None
            state = "entered" if entry and entry.hands else "missing"
            if entry and entry.hands:
                view = sheet_view(entry.hands, rules=tournament.ruleset,
                                  config=mcr_config(tournament) or DEFAULT_CONFIG)
                problems = tuple(p.located(session=session, table=table)
                                 for p in view.problems)
        rows.append(SessionTable(table, state, entry, source, problems))
    return rows
