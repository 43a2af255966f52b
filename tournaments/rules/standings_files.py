"""PURE: a tournament's final standings from the rows of a file: the EMA's results sheet
this site exports (``tournaments.ema_export.HEADER``) and mahjong-portal's results upload
(``place;name;scores``, the name written "Last First": MahjongRepository/mahjong-portal,
server/system/tournament_admin/views.py ``upload_results``), with the headers people write
instead (decision 0810). No Django.

The file is read and its columns mapped by the path every import shares
(``core.imports.sheet_mapped``: CSV or XLSX, UTF-8 and the Windows code pages, the header
names of ``COLUMNS`` or the officer's mapping); ``standing_lines`` gives one
``StandingLine`` a player, with every problem naming its row (as numbered in the file, the
header being row 1) and its column.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from tournaments.rules.ema_numbers import ema_number_normalise

# --- problems -------------------------------------------------------------------------------

E_NO_ROWS = "file_empty"
E_COLUMN_MISSING = "column_missing"
E_VALUE_REQUIRED = "value_required"
E_BAD_NUMBER = "bad_number"
E_BAD_PLACE = "bad_place"
E_BAD_EMA_NUMBER = "bad_ema_number"
E_SAME_PLAYER_TWICE = "same_player_twice"


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A problem of the file: ``row`` the file's line (None: the whole file), ``column`` the
    column's name as the import knows it."""

    row: int | None
    column: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)


# --- the columns ------------------------------------------------------------------------------

COLUMNS: dict[str, tuple[str, ...]] = {
    "place": ("place", "rank", "position", "pos", "место"),
    "first_name": ("first name", "firstname", "given name", "имя"),
    "last_name": ("last name", "lastname", "surname", "family name", "фамилия"),
    "name": ("name", "player", "игрок", "имя фамилия", "фамилия имя"),
    "ema_number": ("ema number", "ema", "ema id", "ema no", "ema nr", "ema #"),
    "country": ("country", "nationality", "nation", "страна"),
    "table_points": ("table points", "tp", "points", "очки"),
    "score": ("score", "scores", "game points", "gp", "total score", "очки игры"),
    "team": ("team", "команда"),
}
"""The columns the import knows, each with the headers that name it (case, spaces,
underscores and dots do not matter). Other columns ("EMA member") are left aside."""


def columns_missing(columns: Mapping[str, int]) -> list[str]:
    """The columns a standings file must have and does not: a place, a name (one "Name",
    or "First name" and "Last name") and a result (score or table points)."""
    missing = [c for c in ("place",) if c not in columns]
    if "name" not in columns and not {"first_name", "last_name"} <= set(columns):
        missing.append("last_name" if "first_name" in columns else "name")
    if "score" not in columns and "table_points" not in columns:
        missing.append("score")
    return missing


# --- the values -------------------------------------------------------------------------------


def _decimal(text: str) -> Decimal | None:
    cleaned = text.replace("\u00a0", "").replace(" ", "").replace(",", ".")
    if cleaned.startswith("+"):
        cleaned = cleaned[1:]
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One player's final standing as the file gives it."""

    row: int
    place: int
    first_name: str
    last_name: str
    ema_number: str = ""
    country: str = ""
    """As written: a code or a name; the service reads it."""
    table_points: Fraction = Fraction(0)
    game_points: int = 0
    team: str = ""
    ema_number_fixed: bool = False
    """The EMA number had 7 digits and got its leading zero back."""
    score_rounded_from: str = ""
    """The score had decimals (a riichi score): rounded half up to a whole number."""

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


def _split_name(name: str) -> tuple[str, str]:
    """mahjong-portal's "Last First": the first word is the last name."""
    words = name.split()
    if len(words) < 2:
        return "", name.strip()
    return " ".join(words[1:]), words[0]


def standing_lines(rows: Sequence[tuple[int, Sequence[str]]], columns: Mapping[str, int]
                   ) -> tuple[list[StandingLine], list[FileProblem]]:
    """The standings of the numbered rows after the header, ``columns`` giving each known
    column's index, with every problem. A name is "First name" and "Last name", or one
    "Name" written "Last First"."""
    lines: list[StandingLine] = []
    problems: list[FileProblem] = []
    missing = columns_missing(columns)
    if missing:
        return [], [FileProblem(1, column, E_COLUMN_MISSING) for column in missing]
    data = [(number, row) for number, row in rows if any(c.strip() for c in row)]
    if not data:
        return [], [FileProblem(None, "", E_NO_ROWS)]

    def cell(row: Sequence[str], column: str) -> str:
        index = columns.get(column)
        return row[index].strip() if index is not None and index < len(row) else ""

    for number, row in data:
        line_problems: list[FileProblem] = []
        place_text = cell(row, "place").rstrip(".")
        place = int(place_text) if place_text.isdigit() and int(place_text) > 0 else None
        if place is None:
            line_problems.append(FileProblem(number, "place", E_BAD_PLACE,
                                             {"value": place_text}))
        if "first_name" in columns or "last_name" in columns:
            first, last = cell(row, "first_name"), cell(row, "last_name")
        else:
            first, last = _split_name(cell(row, "name"))
        if not last and not first:
            line_problems.append(FileProblem(
                number, "name" if "name" in columns else "last_name", E_VALUE_REQUIRED))
        ema_text = cell(row, "ema_number")
        ema, fixed = "", False
        if ema_text and ema_text != "-":
            normalised = ema_number_normalise(ema_text)  # the one rule
            if normalised.error is not None:
                line_problems.append(FileProblem(number, "ema_number", E_BAD_EMA_NUMBER,
                                                 {"value": ema_text}))
            else:
                ema, fixed = normalised.number, normalised.padded
        table_points = Fraction(0)
        text = cell(row, "table_points")
        if text:
            value = _decimal(text)
            if value is None:
                line_problems.append(FileProblem(number, "table_points", E_BAD_NUMBER,
                                                 {"value": text}))
            else:
                table_points = Fraction(value)
        game_points, rounded_from = 0, ""
        text = cell(row, "score")
        if text:
            value = _decimal(text)
            if value is None:
                line_problems.append(FileProblem(number, "score", E_BAD_NUMBER,
                                                 {"value": text}))
            else:
                whole = value.quantize(Decimal(1), rounding=ROUND_HALF_UP)
                game_points = int(whole)
                rounded_from = text if whole != value else ""
        problems.extend(line_problems)
        if line_problems:
            continue
        lines.append(StandingLine(
            row=number, place=place or 0, first_name=first, last_name=last, ema_number=ema,
            country=cell(row, "country"), table_points=table_points, game_points=game_points,
            team=cell(row, "team"), ema_number_fixed=fixed, score_rounded_from=rounded_from,
        ))
    seen: dict[str, int] = {}
    for line in lines:
        key = line.ema_number or f"{line.name.casefold()}|{line.country.casefold()}"
        if key in seen:
            problems.append(FileProblem(line.row, "ema_number" if line.ema_number else "name",
                                        E_SAME_PLAYER_TWICE, {"first_row": seen[key]}))
        else:
            seen[key] = line.row
    return lines, problems

