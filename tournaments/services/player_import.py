"""The EMA player register imported (issue 35, item 2; decision 0316): EMA number, last
name, first name, country -> players.

A row is matched to the player with its EMA number (7 digits are a dropped leading zero:
padded, and the row says so); a row whose number no player has, while a player without an
EMA number has its name and country, waits for a person's decision (``decisions``: row ->
"new" or the player's id, who then gets the number). Everything else creates the player.
An empty country cell changes nothing. Nothing is written when a row has an error; the
same file imported twice changes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django_countries import countries

from core.imports import (
    CREATED,
    ERROR,
    REVIEW,
    UNCHANGED,
    UPDATED,
    ImportFailed,
    ImportField,
    ImportReport,
    Issue,
    ReviewItem,
    RowOutcome,
    sheet_mapped,
)
from federation.models import ImportRun
from federation.services.import_runs import import_run_record
from tournaments.models import Player, player_search_text
from tournaments.rules.player_register import HEADERS, REQUIRED, register_row_read

KIND = "players"
FIELDS = tuple(ImportField(name, headers, name in REQUIRED) for name, headers in HEADERS.items())

E_EMA_TWICE = "ema_number_twice"
E_BAD_COUNTRY = "bad_country"
N_PADDED = "ema_number_padded"
R_SAME_NAME = "same_name_no_ema_number"


def describe(code: str, params: dict[str, Any]) -> str:
    from tournaments.problem_texts import import_message

    return import_message(code, params)


def country_code(text: str) -> str | None:
    """The ISO 3166 alpha-2 code of a country written as a code (NL, NLD) or a name in
    English ("Netherlands"); None when it is neither."""
    code = countries.alpha2(text) or countries.by_name(text)
    return code or None


@transaction.atomic
def players_import(
    *,
    data: bytes,
    file_name: str,
    imported_by: Any,
    mapping: Mapping[str, str] | None = None,
    decisions: Mapping[int, str] | None = None,
    dry_run: bool = False,
    run: ImportRun | None = None,
) -> ImportReport:
    """Preview (``dry_run``) or import the register (module docstring). A file with any
    error raises ImportFailed and writes nothing; a commit is stored as an ImportRun."""
    report = ImportReport(dry_run=dry_run)
    mapped = sheet_mapped(data, FIELDS, mapping, report)
    if mapped is None:
        raise ImportFailed(report, describe)
    sheet, indexes, column_of = mapped.sheet, mapped.indexes, mapped.column_of
    decisions = decisions or {}
    players = list(Player.objects.all())
    by_id = {p.pk: p for p in players}
    by_ema = {p.ema_number: p for p in players if p.ema_number}
    by_name: dict[tuple[str, str], list[Player]] = {}
    for p in players:
        if not p.ema_number and not p.is_anonymised and p.merged_into_id is None:
            by_name.setdefault((p.name_latin.casefold(), p.country), []).append(p)
    seen: dict[str, int] = {}
    new: list[Player] = []
    changed: dict[int, Player] = {}
    for sheet_row in sheet.rows:
        number = sheet_row.number
        cells = {name: sheet_row.cell(index) for name, index in indexes.items()}
        label = " ".join(part for part in (cells.get("first_name", ""),
                                           cells.get("last_name", "")) if part)
        row, problems = register_row_read(cells)
        code = None
        if row is not None and row.country:
            code = country_code(row.country)
            if code is None:
                report.error(number, column_of.get("country"), E_BAD_COUNTRY, value=row.country)
                report.rows.append(RowOutcome(number, ERROR, label))
                continue
        if row is None:
            for problem in problems:
                params: dict[str, Any] = {"value": problem.value, "number": problem.value}
                if problem.limit is not None:
                    params["limit"] = problem.limit
                report.error(number, column_of.get(problem.field, problem.field),
                             problem.code, **params)
            report.rows.append(RowOutcome(number, ERROR, label))
            continue
        if row.ema_number in seen:
            report.error(number, column_of["ema_number"], E_EMA_TWICE,
                         number=row.ema_number, other=seen[row.ema_number])
            report.rows.append(RowOutcome(number, ERROR, label))
            continue
        seen[row.ema_number] = number
        notes = [Issue(number, column_of["ema_number"], N_PADDED,
                       {"given": row.given_number, "number": row.ema_number})
                 ] if row.padded else []
        player = by_ema.get(row.ema_number)
        if player is None:
            candidates = by_name.get((row.name_latin.casefold(), code or ""), [])
            decision = str(decisions.get(number, "")).strip()
            if candidates and decision != "new":
                chosen = next((p for p in candidates if str(p.pk) == decision), None)
                if chosen is None:
                    report.review.append(ReviewItem(number, R_SAME_NAME, [
                        {"id": p.pk, "label": p.name_latin, "country": p.country}
                        for p in candidates]))
                    report.rows.append(RowOutcome(number, REVIEW, label, notes))
                    continue
                player = by_id[chosen.pk]
                player.ema_number = row.ema_number
                by_name[(row.name_latin.casefold(), code or "")].remove(player)
                changed[player.pk] = player
        if player is None:
            player = Player(name_latin=row.name_latin, first_name=row.first_name,
                            last_name=row.last_name, country=code or "",
                            ema_number=row.ema_number)
            new.append(player)
            by_ema[row.ema_number] = player
            report.count(RowOutcome(number, CREATED, label, notes))
            continue
        updated = _apply(player, row, code) or player.pk in changed
        if updated:
            changed[player.pk] = player
        report.count(RowOutcome(number, UPDATED if updated else UNCHANGED, label, notes))
    if report.errors:
        raise ImportFailed(report, describe)
    if dry_run:
        return report
    Player.objects.bulk_create(new, batch_size=500)
    for player in changed.values():
        player.name_search = player_search_text(player.name_latin, player.name_native)
    Player.objects.bulk_update(
        changed.values(),
        ["name_latin", "first_name", "last_name", "country", "ema_number", "name_search"],
        batch_size=500)
    import_run_record(run=run, kind=KIND, action="tournaments.import.players",
                      file_name=file_name, imported_by=imported_by, mapping=mapping,
                      report=report, describe=describe)
    return report


def _apply(player: Player, row: Any, code: str | None) -> bool:
    """The register's names and country on ``player``; True when anything changed. A name
    the register writes differently is the register's (it is the EMA's own list)."""
    if player.is_anonymised:  # an erased member's player keeps no name (member_erase)
        return False
    before = (player.name_latin, player.first_name, player.last_name, player.country)
    if (player.first_name, player.last_name) != (row.first_name, row.last_name):
        player.first_name, player.last_name = row.first_name, row.last_name
        player.name_latin = row.name_latin
    if code:
        player.country = code
    return before != (player.name_latin, player.first_name, player.last_name, player.country)
