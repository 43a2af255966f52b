"""Pure parsing of tournament results (API JSON and CSV) into dataclasses. No Django.

Both formats give the same :class:`SessionEntry` list; what the results mean (balance,
hands, players) is checked by :mod:`tournaments.rules.results_check`. Every problem found is reported with
its place (session, table, seat, hand, field; CSV also the row), never only the first.

CSV columns (docs/tournaments.md; a template is downloadable from the entry pages)::

    session,table,kind,hand,seat,player,game_points,penalty,from,points,fans,tiles,context

``kind`` ``seat``: one row per seat (``seat`` E/S/W/N, ``player`` the start number, or the
player id as before (decision 0718), ``game_points``
optional when the table has hands, ``penalty`` deducted, default 0). ``win``: a hand won by
``seat`` (``from`` the discarder's seat, empty when self-drawn) with ``points``, ``fans``
(space separated ids) and/or ``tiles`` plus ``context`` (``key=value`` or flag words
separated by ``;``, e.g. ``seat=S;prevalent=E;last_tile``). ``draw``: a drawn hand.
``penalty``: a transferred penalty of ``points`` from ``seat``. ``hand`` numbers the lines
of a table's sheet (their order).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rulebook.scoring.standings import WINDS, Problem

CSV_COLUMNS = (
    "session", "table", "kind", "hand", "seat", "player", "game_points", "penalty", "from",
    "points", "fans", "tiles", "context",
)
KINDS = ("seat", "win", "draw", "penalty")

E_REQUIRED = "required"
E_NOT_INTEGER = "not_integer"
E_NOT_LIST = "not_list"
E_NOT_OBJECT = "not_object"
E_BAD_VALUE = "bad_value"
E_BAD_WIND = "bad_wind"  # a seat letter that is not E, S, W or N
E_BAD_KIND = "bad_kind"
E_SESSION_TWICE = "session_twice"
E_BAD_HEADER = "bad_header"
E_HAND_SHAPE = "hand_shape"
E_OUT_OF_RANGE = "out_of_range"  # params lo, hi: the database column's bounds
E_TOO_MANY = "too_many"  # params limit, what
E_UNKNOWN_FIELD = "unknown_field"
E_DRAW_CONTRADICTION = "draw_contradiction"

# Bounds of what is stored (tournaments.models): session, table and hand numbers are small
# integers, game points and deducted penalties integers; a hand's points are bounded so
# that the game points computed from a full sheet stay inside the column.
SMALL_MAX = 32_767
INT_MIN, INT_MAX = -2_147_483_648, 2_147_483_647
ID_MAX = 9_223_372_036_854_775_807
MAX_HAND_POINTS = 100_000
# Limits of one request or file (docs/reliability.md, item 7)
MAX_HANDS_PER_TABLE = 200
MAX_HANDS = 20_000
MAX_CSV_ROWS = 25_000
HAND_FIELDS = frozenset({"winner", "from", "points", "fans", "tiles", "context", "draw",
                         "penalty"})
BOUNDS: dict[str, tuple[int, int]] = {
    "session": (1, SMALL_MAX), "table": (1, SMALL_MAX), "hand": (1, SMALL_MAX),
    "player": (1, ID_MAX), "winner": (1, ID_MAX), "from": (1, ID_MAX),
    "game_points": (INT_MIN, INT_MAX), "points": (0, MAX_HAND_POINTS),
}


@dataclass(frozen=True)
class SeatEntry:
    player: int
    game_points: int | None  # None: computed from the hands
    penalty: int = 0


@dataclass(frozen=True)
class HandEntry:
    kind: str  # "win", "draw", "penalty"
    player: int | None = None  # the winner (win) or the offender (penalty)
    discarder: int | None = None  # None: self-drawn
    points: int | None = None
    fans: tuple[str, ...] | None = None
    tiles: str | None = None
    context: Mapping[str, Any] = field(default_factory=dict)
    reason: str = ""  # a penalty's reason, when the sheet gives one (entry at the table)


@dataclass(frozen=True)
class TableEntry:
    table: int
    seats: tuple[SeatEntry, ...]  # in wind order E, S, W, N
    hands: tuple[HandEntry, ...] | None = None
    # the version of the table's stored results the sender saw (0: none stored); None: not
    # given (an older client, a file), see tournaments.services.results
    version: int | None = None


@dataclass(frozen=True)
class SessionEntry:
    session: int
    tables: tuple[TableEntry, ...]


class _Collector:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, code: str, message: str, **where: Any) -> None:
        params = where.pop("params", {})
        self.problems.append(Problem(code, message, params=params, **where))


_INTEGER = re.compile(r"[+-]?[0-9]{1,30}")


def _int(value: Any, out: _Collector, *, required: bool = True,
         bounds: tuple[int, int] | None = None, **where: Any) -> int | None:
    if value is None or value == "":
        if required:
            out.add(E_REQUIRED, "this field is required", **where)
        return None
    if isinstance(value, bool):
        out.add(E_NOT_INTEGER, "a whole number is expected", **where)
        return None
    number: int | None = None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        number = int(value.strip())
    if number is None:
        out.add(E_NOT_INTEGER, "a whole number is expected",
                params={"value": str(value)[:30]}, **where)
        return None
    lo, hi = bounds or BOUNDS.get(where.get("field", ""), (INT_MIN, INT_MAX))
    if not lo <= number <= hi:
        out.add(E_OUT_OF_RANGE, f"a whole number from {lo} to {hi} is expected",
                params={"lo": lo, "hi": hi}, **where)
        return None
    return number


PENALTY_BOUNDS = (0, INT_MAX)  # a deducted penalty (a seat's); a transferred one: points


# JSON ----------------------------------------------------------------------------------------


def parse_results_json(data: Any) -> tuple[list[SessionEntry], list[Problem]]:
    """``{"sessions": [{"session", "tables": [{"table", "seats": [...4], "hands"?}]}]}``."""
    out = _Collector()
    if not isinstance(data, Mapping) or not isinstance(data.get("sessions"), list):
        out.add(E_NOT_LIST, "a list of sessions is expected", field="sessions")
        return [], out.problems
    if not data["sessions"]:
        out.add(E_REQUIRED, "at least one session is required", field="sessions")
        return [], out.problems
    if _hand_count(data["sessions"]) > MAX_HANDS:  # before any work on them
        out.add(E_TOO_MANY, f"at most {MAX_HANDS} hands in one request", field="hands",
                params={"limit": MAX_HANDS})
        return [], out.problems
    sessions: list[SessionEntry] = []
    seen: set[int] = set()
    for raw in data["sessions"]:
        if not isinstance(raw, Mapping):
            out.add(E_NOT_OBJECT, "each session is an object", field="sessions")
            continue
        number = _int(raw.get("session"), out, field="session")
        if number is None:
            continue
        if number in seen:
            out.add(E_SESSION_TWICE, f"session {number} is given twice", session=number,
                    field="session")
        seen.add(number)
        tables_raw = raw.get("tables")
        if not isinstance(tables_raw, list):
            out.add(E_NOT_LIST, "a list of tables is expected", session=number, field="tables")
            continue
        tables = []
        for t_raw in tables_raw:
            table = _json_table(t_raw, number, out)
            if table is not None:
                tables.append(table)
        sessions.append(SessionEntry(number, tuple(tables)))
    return sessions, out.problems


def _hand_count(sessions: list[Any]) -> int:
    count = 0
    for raw in sessions:
        tables = raw.get("tables") if isinstance(raw, Mapping) else None
        for table in tables if isinstance(tables, list) else ():
            hands = table.get("hands") if isinstance(table, Mapping) else None
            count += len(hands) if isinstance(hands, list) else 0
    return count


def _json_table(raw: Any, session: int, out: _Collector) -> TableEntry | None:
    if not isinstance(raw, Mapping):
        out.add(E_NOT_OBJECT, "each table is an object", session=session, field="tables")
        return None
    number = _int(raw.get("table"), out, session=session, field="table")
    if number is None:
        return None
    where: dict[str, Any] = {"session": session, "table": number}
    hands_raw = raw.get("hands")
    if hands_raw is not None and not isinstance(hands_raw, list):
        out.add(E_NOT_LIST, "hands are a list", field="hands", **where)
        hands_raw = None
    seats_raw = raw.get("seats")
    if not isinstance(seats_raw, list):
        out.add(E_NOT_LIST, "a list of four seats is expected", field="seats", **where)
        return None
    seats: list[SeatEntry] = []
    ok = True
    for wind, s_raw in zip(WINDS, seats_raw, strict=False):
        if not isinstance(s_raw, Mapping):
            out.add(E_NOT_OBJECT, "each seat is an object", seat=wind, field="seats", **where)
            ok = False
            continue
        before = len(out.problems)
        player = _int(s_raw.get("player"), out, seat=wind, field="player", **where)
        game = _int(s_raw.get("game_points"), out, required=hands_raw is None, seat=wind,
                    field="game_points", **where)
        penalty = _int(s_raw.get("penalty", 0), out, required=False, seat=wind,
                       field="penalty", bounds=PENALTY_BOUNDS, **where)
        if len(out.problems) != before or player is None:
            ok = False
            continue
        seats.append(SeatEntry(player, game, penalty or 0))
    if len(seats_raw) > len(WINDS):
        seats.extend(SeatEntry(-1, 0) for _ in seats_raw[len(WINDS):])  # reported as 5 seats
    version = None
    if raw.get("version") is not None:
        version = _int(raw.get("version"), out, field="version", bounds=(0, 2**31 - 1),
                       **where)
        if version is None:
            return None
    hands: list[HandEntry] | None = None
    if hands_raw is not None and len(hands_raw) > MAX_HANDS_PER_TABLE:
        out.add(E_TOO_MANY, f"at most {MAX_HANDS_PER_TABLE} hands on a table",
                field="hands", params={"limit": MAX_HANDS_PER_TABLE}, **where)
        return None
    if hands_raw is not None:
        hands = []
        for number_h, h_raw in enumerate(hands_raw, start=1):
            hand = _json_hand(h_raw, out, hand=number_h, **where)
            if hand is None:
                ok = False
            else:
                hands.append(hand)
    if not ok:
        return None
    return TableEntry(number, tuple(seats), tuple(hands) if hands is not None else None,
                      version)


def _json_hand(raw: Any, out: _Collector, **where: Any) -> HandEntry | None:
    if not isinstance(raw, Mapping):
        out.add(E_NOT_OBJECT, "each hand is an object", field="hands", **where)
        return None
    unknown = sorted(str(key) for key in raw if key not in HAND_FIELDS)
    for key in unknown:
        out.add(E_UNKNOWN_FIELD, f"unknown field {key!r}", field=key[:50],
                params={"name": key[:50]}, **where)
    if raw.get("draw") is True:
        extra = sorted(key for key in raw if key != "draw" and raw[key] not in (None, False))
        if extra:
            out.add(E_DRAW_CONTRADICTION, "a drawn hand has no winner, discarder, points, "
                    "fans, tiles or penalty", field=extra[0], **where)
        return None if unknown or extra else HandEntry("draw")
    before = len(out.problems) - len(unknown)
    if "penalty" in raw:
        offender = _int(raw.get("penalty"), out, field="penalty", bounds=(1, ID_MAX), **where)
        points = _int(raw.get("points"), out, field="points", **where)
        if len(out.problems) != before:
            return None
        return HandEntry("penalty", player=offender, points=points)
    if "winner" not in raw:
        out.add(E_HAND_SHAPE, "a hand has a winner, or is a draw or a penalty",
                field="winner", **where)
        return None
    winner = _int(raw.get("winner"), out, field="winner", **where)
    discarder = _int(raw.get("from"), out, required=False, field="from", **where)
    points = _int(raw.get("points"), out, required=False, field="points", **where)
    fans = raw.get("fans")
    if fans is not None and (
        not isinstance(fans, list) or not all(isinstance(f, (str, int)) for f in fans)
    ):
        out.add(E_NOT_LIST, "fans are a list of fan ids", field="fans", **where)
    tiles = raw.get("tiles")
    if tiles is not None and not isinstance(tiles, str):
        out.add(E_BAD_VALUE, "tiles are a text in the calculator's notation", field="tiles",
                **where)
    context = raw.get("context") or {}
    if not isinstance(context, Mapping):
        out.add(E_NOT_OBJECT, "the context is an object", field="context", **where)
    if len(out.problems) != before:
        return None
    return HandEntry(
        "win", player=winner, discarder=discarder, points=points,
        fans=tuple(str(f) for f in fans) if fans is not None else None,
        tiles=tiles, context=dict(context),
    )


# CSV -----------------------------------------------------------------------------------------


# The results template (/tournaments/results-template.csv, written by core.csv_export):
# a filled-in example under CSV_COLUMNS, one table of session 1 with totals, one with hands.
CSV_TEMPLATE_ROWS = (
    ("1", "1", "seat", "", "E", "1", "35", "0", "", "", "", "", ""),
    ("1", "1", "seat", "", "S", "2", "10", "0", "", "", "", "", ""),
    ("1", "1", "seat", "", "W", "3", "-20", "10", "", "", "", "", ""),
    ("1", "1", "seat", "", "N", "4", "-25", "0", "", "", "", "", ""),
    ("1", "2", "seat", "", "E", "5", "", "0", "", "", "", "", ""),
    ("1", "2", "seat", "", "S", "6", "", "0", "", "", "", "", ""),
    ("1", "2", "seat", "", "W", "7", "", "0", "", "", "", "", ""),
    ("1", "2", "seat", "", "N", "8", "", "0", "", "", "", "", ""),
    ("1", "2", "win", "1", "E", "", "", "", "S", "10", "", "", ""),
    ("1", "2", "win", "2", "W", "", "", "", "", "", "48 57A 81", "", ""),
    ("1", "2", "draw", "3", "", "", "", "", "", "", "", "", ""),
    ("1", "2", "win", "4", "N", "", "", "", "E", "", "", "123m456p789s123s5s5s",
     "seat=N;prevalent=E"),
    ("1", "2", "penalty", "5", "S", "", "", "", "", "30", "", "", ""),
)


def seat_players(sessions: list[SessionEntry]) -> set[int]:
    """Every value given in the ``player`` column of the seats."""
    return {seat.player for s in sessions for t in s.tables for seat in t.seats}


def renumber_players(sessions: list[SessionEntry], player_of: Mapping[int, int]
                     ) -> list[SessionEntry]:
    """The sessions with each player given by the tournament's start number (No. 1-16, as
    the organizer's pages show them) replaced by the player it names (``player_of``: number
    -> player id); a value that is no start number is left as it is (decision 0718)."""
    def one(value: int | None) -> int | None:
        return player_of.get(value, value) if value is not None else None

    return [replace(s, tables=tuple(
        replace(t, seats=tuple(replace(seat, player=player_of.get(seat.player, seat.player))
                               for seat in t.seats),
                hands=None if t.hands is None else tuple(
                    replace(h, player=one(h.player), discarder=one(h.discarder))
                    for h in t.hands))
        for t in s.tables)) for s in sessions]


def parse_context(text: str) -> dict[str, Any]:
    """Win conditions written ``key=value`` or as flag words, separated by ``;``
    (``seat=N;prevalent=E;last_tile``)."""
    context: dict[str, Any] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep:
            context[key] = True
        elif value.strip().lstrip("-").isdigit():
            context[key] = int(value)
        elif value.strip().lower() in ("true", "false"):
            context[key] = value.strip().lower() == "true"
        else:
            context[key] = value.strip()
    return context


def parse_results_csv(text: str) -> tuple[list[SessionEntry], list[Problem]]:
    """Rows as documented above -> sessions, every problem with its row number."""
    out = _Collector()
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip() for h in (reader.fieldnames or [])]
    missing = [c for c in ("session", "table", "kind", "seat", "player") if c not in header]
    if missing:
        out.add(E_BAD_HEADER, "missing columns: " + ", ".join(missing), field="header",
                params={"columns": ", ".join(missing)})
        return [], out.problems
    # (session, table) -> {"seats": {wind: (row, SeatEntry)}, "hands": [(hand no, row, raw)]}
    tables: dict[tuple[int, int], dict[str, Any]] = {}
    for row_number, raw in enumerate(reader, start=2):
        if row_number > MAX_CSV_ROWS + 1:
            out.add(E_TOO_MANY, f"at most {MAX_CSV_ROWS} rows in one file", field="rows",
                    row=row_number, params={"limit": MAX_CSV_ROWS})
            return [], out.problems
        row = {(k or "").strip(): (v or "").strip() for k, v in raw.items()}
        if not any(row.values()):
            continue
        problems_before = len(out.problems)
        session = _int(row.get("session"), out, row=row_number, field="session")
        table = _int(row.get("table"), out, row=row_number, session=session, field="table")
        kind = row.get("kind", "").lower() or "seat"
        if session is None or table is None:
            continue
        where: dict[str, Any] = {"row": row_number, "session": session, "table": table}
        if kind not in KINDS:
            out.add(E_BAD_KIND, "kind is seat, win, draw or penalty", field="kind", **where)
            continue
        slot = tables.setdefault((session, table), {"seats": {}, "hands": []})
        seat = row.get("seat", "").upper()
        if kind != "draw" and seat not in WINDS:
            out.add(E_BAD_WIND, "seat is E, S, W or N", field="seat", **where)
            continue
        if kind == "seat":
            player = _int(row.get("player"), out, seat=seat, field="player", **where)
            game = _int(row.get("game_points"), out, required=False, seat=seat,
                        field="game_points", **where)
            penalty = _int(row.get("penalty"), out, required=False, seat=seat,
                           field="penalty", bounds=PENALTY_BOUNDS, **where)
            if len(out.problems) != problems_before or player is None:
                slot["broken"] = True
                continue
            if seat in slot["seats"]:
                out.add("seat_twice", f"seat {seat} is given twice", seat=seat, field="seat",
                        **where)
                slot["broken"] = True
                continue
            slot["seats"][seat] = (row_number, SeatEntry(player, game, penalty or 0))
            continue
        hand_no = _int(row.get("hand"), out, required=False, field="hand", **where)
        discarder = row.get("from", "").upper() or None
        if discarder is not None and discarder not in WINDS:
            out.add(E_BAD_WIND, "from is E, S, W or N, or empty when self-drawn",
                    field="from", **where)
        points = _int(row.get("points"), out, required=kind == "penalty", field="points",
                      **where)
        fans = tuple(row["fans"].replace(",", " ").split()) if row.get("fans") else None
        context = parse_context(row.get("context", ""))
        if len(out.problems) != problems_before:
            slot["broken"] = True
            continue
        slot["hands"].append((hand_no if hand_no is not None else row_number, row_number, {
            "kind": kind, "seat": seat, "from": discarder, "points": points, "fans": fans,
            "tiles": row.get("tiles") or None, "context": context,
        }))
    sessions: dict[int, list[TableEntry]] = {}
    for (session, table), slot in sorted(tables.items()):
        seats = slot["seats"]
        where = {"session": session, "table": table}
        missing_seats = [w for w in WINDS if w not in seats]
        if missing_seats:
            if not slot.get("broken"):
                out.add(E_REQUIRED, "missing seats: " + ", ".join(missing_seats),
                        field="seat", params={"seats": ", ".join(missing_seats)}, **where)
            continue
        player_of = {w: seats[w][1].player for w in WINDS}
        hands: list[HandEntry] = []
        for _no, _row, h in sorted(slot["hands"], key=lambda x: (x[0], x[1])):
            if h["kind"] == "draw":
                hands.append(HandEntry("draw"))
            elif h["kind"] == "penalty":
                hands.append(HandEntry("penalty", player=player_of[h["seat"]],
                                       points=h["points"]))
            else:
                hands.append(HandEntry(
                    "win", player=player_of[h["seat"]],
                    discarder=player_of[h["from"]] if h["from"] else None,
                    points=h["points"], fans=h["fans"], tiles=h["tiles"],
                    context=h["context"]))
        if not slot["hands"]:
            for w in WINDS:
                if seats[w][1].game_points is None:
                    out.add(E_REQUIRED, "game points are required when no hands are given",
                            row=seats[w][0], seat=w, field="game_points", **where)
                    slot["broken"] = True
        elif len(slot["hands"]) > MAX_HANDS_PER_TABLE:
            out.add(E_TOO_MANY, f"at most {MAX_HANDS_PER_TABLE} hands on a table",
                    field="hands", params={"limit": MAX_HANDS_PER_TABLE}, **where)
            continue
        if slot.get("broken"):
            continue
        sessions.setdefault(session, []).append(TableEntry(
            table, tuple(seats[w][1] for w in WINDS), tuple(hands) if slot["hands"] else None
        ))
    if not tables and not out.problems:
        out.add(E_REQUIRED, "the file has no results", field="session")
    return [SessionEntry(s, tuple(t)) for s, t in sorted(sessions.items())], out.problems
