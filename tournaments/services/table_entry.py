"""Entry at the table: the organizer opens a session's tables (a token per table, shown as
a QR code), the players add and remove the lines of their sheet, and each of the four taps
"agree"; the fourth agreement records the table through ``results_record`` (source
"table"), the one way results are stored.

A submit may arrive twice (a phone on a poor connection sends it again): a line carries the
``id`` its page gave it and is added once; a line is removed by its id, once; an agreement
names the sheet it agrees with (:func:`sheet_digest`), so an agreement sent before a change
does not agree with the changed sheet."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from rulebook.calculator import FLAGS, MAX_HAND_LENGTH
from rulebook.scoring.standings import WINDS, Problem
from tournaments.errors import (
    E_BAD_CHOICE,
    E_BAD_LINE,
    E_NO_SEATING,
    E_SHEET_CHANGED,
    E_TABLE_CLOSED,
    E_TABLE_NOT_HELD,
    ResultsError,
    TableVersion,
    TournamentError,
)
from tournaments.models import SeatingAssignment, Session, TableEntry, Tournament
from tournaments.rules import states
from tournaments.rules.results_files import SessionEntry
from tournaments.selectors import table_players
from tournaments.services._common import _audit, _mcr_config, state_require
from tournaments.services.results import results_record, stored_table_version
from tournaments.table_sheet import line_score, sheet_view, table_input

LINE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def sheet_digest(hands: list[dict[str, Any]]) -> str:
    """A short fingerprint of the sheet's lines: the page sends it with an agreement."""
    text = json.dumps(hands, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@transaction.atomic
def table_entries_open(*, tournament: Tournament, session: int, user: Any) -> list[TableEntry]:
    """A table entry (and its token) for each seated table of the session; entries that
    exist are kept."""
    state_require(tournament, "results")
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


def _locked(entry: TableEntry) -> TableEntry:
    return TableEntry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)


def _require_open(entry: TableEntry) -> TableEntry:
    if (not states.accepts_results(entry.tournament.state)
            or entry.state == TableEntry.State.AGREED):
        raise TournamentError(E_TABLE_CLOSED)
    return entry


def _line_id(line: Mapping[str, Any]) -> str | None:
    value = line.get("id")
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not LINE_ID.fullmatch(value):
        raise TournamentError(E_BAD_LINE, field="id")
    return value


def _clean_context(context: Any, rules: str) -> dict[str, Any]:
    """The win conditions a line as tiles may give: the seat and prevalent winds and the
    ruleset's yes/no flags (the calculator's); self-drawn and the discarder come from the
    line itself."""
    if context is None:
        return {}
    if not isinstance(context, Mapping):
        raise TournamentError(E_BAD_LINE, field="context")
    out: dict[str, Any] = {}
    for key, value in context.items():
        if key in ("seat", "prevalent"):
            if value not in WINDS:
                raise TournamentError(E_BAD_LINE, field="context")
            if value != "E":  # East is the core's default
                out[key] = value
        elif key in FLAGS.get(rules, ()):
            if not isinstance(value, bool):
                raise TournamentError(E_BAD_LINE, field="context")
            if value:
                out[key] = True
        else:
            raise TournamentError(E_BAD_LINE, field="context")
    return out


def _clean_line(line: Mapping[str, Any], *, rules: str = "mcr") -> dict[str, Any]:
    kind = line.get("kind")
    line_id = _line_id(line)
    ident = {"id": line_id} if line_id else {}
    if kind == "draw":
        return {"kind": "draw", **ident}
    if kind not in ("win", "penalty"):
        raise TournamentError(E_BAD_LINE, field="kind")
    seat = line.get("seat")
    if seat not in WINDS:
        raise TournamentError(E_BAD_LINE, field="seat")
    tiles = line.get("tiles") if kind == "win" else None
    if tiles is not None and tiles != "":
        if not isinstance(tiles, str):
            raise TournamentError(E_BAD_LINE, field="tiles")
        tiles = "".join(tiles.split())
        if not tiles or len(tiles) > MAX_HAND_LENGTH:
            raise TournamentError(E_BAD_LINE, field="tiles")
    else:
        tiles = None
    points = line.get("points")
    if tiles is not None:
        points = None  # the core's total for the tiles, computed when the line is added
    elif isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise TournamentError(E_BAD_LINE, field="points")
    if kind == "penalty":
        reason = str(line.get("reason") or "").strip()
        if not reason:
            raise TournamentError(E_BAD_LINE, field="reason")
        return {"kind": "penalty", "seat": seat, "points": points, "reason": reason[:200],
                **ident}
    discarder = line.get("from") or None
    if discarder is not None and (discarder not in WINDS or discarder == seat):
        raise TournamentError(E_BAD_LINE, field="from")
    out = {"kind": "win", "seat": seat, "from": discarder, "points": points, **ident}
    if tiles is not None:
        out["tiles"] = tiles
        out["context"] = _clean_context(line.get("context"), rules)
    return out


def _scored(entry: TableEntry, line: dict[str, Any]) -> dict[str, Any]:
    """A line as tiles gets the core's total as its points; tiles the core cannot score
    are refused with the core's problem (its field and the place in the notation)."""
    if "tiles" not in line:
        return line
    tournament = entry.tournament
    outcome = line_score(line, rules=tournament.ruleset, config=_mcr_config(tournament),
                         number=len(entry.hands) + 1)
    if isinstance(outcome, Problem):
        raise ResultsError([outcome.located(session=entry.session, table=entry.table)])
    return {**line, "points": outcome.points}


def table_entry_line_check(*, entry: TableEntry, line: Mapping[str, Any]) -> dict[str, Any]:
    """The line as it would be stored (checked and cleaned; not scored, not stored)."""
    return _clean_line(line, rules=entry.tournament.ruleset)


@transaction.atomic
def table_entry_line_add(*, entry: TableEntry, line: Mapping[str, Any]) -> TableEntry:
    """Add a line (win, draw, transferred penalty) to the sheet; agreements given so far
    are withdrawn, since the sheet changed. A line whose ``id`` is already on the sheet was
    added by an earlier send of the same submit: nothing changes."""
    entry = _locked(entry)
    line_id = _line_id(line)
    if line_id is not None and any(h.get("id") == line_id for h in entry.hands):
        return entry
    _require_open(entry)
    clean = _scored(entry, _clean_line(line, rules=entry.tournament.ruleset))
    entry.hands = [*entry.hands, clean]
    entry.agreed = []
    entry.state = TableEntry.State.ENTERED
    entry.save(update_fields=["hands", "agreed", "state", "updated_at"])
    return entry


@transaction.atomic
def table_entry_line_remove(*, entry: TableEntry, number: int | None = None,
                            line_id: str | None = None) -> TableEntry:
    """Remove the line ``line_id`` (or, for a line without an id, line ``number``, from 1);
    agreements given so far are withdrawn. A line id no longer on the sheet was removed by
    an earlier send of the same submit: nothing changes."""
    entry = _locked(entry)
    if line_id:
        _line_id({"id": line_id})
        found = [i for i, h in enumerate(entry.hands, start=1) if h.get("id") == line_id]
        if not found:
            return entry
        number = found[0]
    _require_open(entry)
    if number is None or not 1 <= number <= len(entry.hands):
        raise TournamentError(E_BAD_LINE, field="hand")
    entry.hands = [h for i, h in enumerate(entry.hands, start=1) if i != number]
    entry.agreed = []
    entry.state = TableEntry.State.ENTERED if entry.hands else TableEntry.State.MISSING
    entry.save(update_fields=["hands", "agreed", "state", "updated_at"])
    return entry


@transaction.atomic
def table_entry_agree(*, entry: TableEntry, seat: str, sheet: str | None = None
                      ) -> TableEntry:
    """The player on ``seat`` agrees with the sheet as it is (``sheet``: the
    :func:`sheet_digest` of the sheet the player saw; a sheet changed since is refused). A
    sheet with problems cannot be agreed (:class:`ResultsError`). When the fourth seat
    agrees, the table is recorded (``results_record``, source "table", this table only) and
    the entry is closed. Agreeing again changes nothing."""
    entry = _locked(entry)
    if seat not in WINDS:
        raise TournamentError(E_BAD_LINE, field="seat")
    if seat in entry.agreed:
        return entry
    _require_open(entry)
    if sheet is not None and sheet != sheet_digest(entry.hands):
        raise TournamentError(E_SHEET_CHANGED)
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
        organizers = organizer_version(entry)
        agreed_seats = tuple((p, total, 0) for p, total in zip(players, view.totals,
                                                                 strict=True))
        if organizers is not None and organizers.seats != agreed_seats:
            # the organizer entered this table with other results: theirs stand until the
            # organizer keeps them or takes the players'
            entry.held = True
        else:
            _record_table(entry, players, user=tournament.organizer)
        entry.state = TableEntry.State.AGREED
    entry.save(update_fields=["agreed", "state", "held", "updated_at"])
    return entry


def organizer_version(entry: TableEntry) -> TableVersion | None:
    """The results of the entry's table as the organizer stored them (the score-sheet form,
    a file, the API), ``None`` when the table has none or the players' own are stored."""
    stored = stored_table_version(entry.tournament, entry.session, entry.table)
    if stored is None or stored.source == Session.Source.TABLE:
        return None
    return stored


def _record_table(entry: TableEntry, players: list[int], *, user: Any) -> None:
    session = SessionEntry(entry.session, (table_input(entry.table, players, entry.hands),))
    results_record(tournament=entry.tournament, user=user, sessions=[session],
                   source=Session.Source.TABLE, tables_only=True, check_versions=False)


KEEP_ORGANIZER = "organizer"
KEEP_TABLE = "table"


@transaction.atomic
def table_entry_hold_resolve(*, entry: TableEntry, user: Any, keep: str) -> TableEntry:
    """The organizer's choice for a table whose players agreed after the organizer had
    entered it (``held``): ``keep`` "organizer" keeps the stored results, "table" records
    the players' sheet in their place (``results_record``, source "table")."""
    entry = _locked(entry)
    if not entry.held:
        raise TournamentError(E_TABLE_NOT_HELD)
    state_require(entry.tournament, "results")
    if keep == KEEP_TABLE:
        _record_table(entry, table_players(entry), user=user)
    elif keep != KEEP_ORGANIZER:
        raise TournamentError(E_BAD_CHOICE, field="keep")
    entry.held = False
    entry.save(update_fields=["held", "updated_at"])
    _audit(entry.tournament, "tournaments.tournament.table_choice", user,
           session=entry.session, table=entry.table, keep=keep)
    return entry
