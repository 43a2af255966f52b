"""Entering results: the score-sheet form of a session, table by table, and the CSV upload
(with its template); all or nothing, every problem shown at its place.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core import csv_export
from core.errors import DomainError, errors_collected
from rulebook.scoring.standings import WINDS
from tournaments import selectors, services
from tournaments.errors import TableConflict, TableVersion
from tournaments.forms import ScoreSheetForm, UploadForm
from tournaments.models import Seat, Session, TableRecord, TableResult, Tournament
from tournaments.rules import states
from tournaments.rules.results_files import (
    CSV_COLUMNS,
    CSV_TEMPLATE_ROWS,
    parse_results_csv,
    parse_results_json,
    renumber_players,
    seat_players,
)
from tournaments.views._common import (
    _format_problem,
    _names,
    _own,
    player_labels,
    problems_with_place,
)


def _initial_seats(tournament: Tournament, session: int) -> dict[tuple[int, str], dict]:
    """Each seat as the form starts: the seating draw's player, or, for a table whose
    results are stored, the stored player, game points and penalty."""
    seats: dict[tuple[int, str], dict[str, Any]] = {}
    for a in tournament.seating.filter(session=session):
        seats[(a.table, a.seat)] = {"player": str(a.player_id)}
    for r in TableResult.objects.filter(tournament=tournament, session=session):
        seats[(r.table, r.seat)] = {"player": str(r.player_id),
                                    "game_points": r.game_points, "penalty": r.penalty}
    return seats


def _versions(tournament: Tournament, session: int) -> dict[int, int]:
    return dict(TableRecord.objects.filter(tournament=tournament, session=session)
                .values_list("table", "version"))


def versions_shown(tournament: Tournament, *, table: int, yours: TableVersion,
                   theirs: TableVersion) -> dict[str, Any]:
    """Two versions of a table's results side by side, seat by seat, for the page."""
    names = _names(tournament)

    def seat(version: TableVersion, index: int) -> dict[str, Any]:
        if index >= len(version.seats):
            return {"name": "—", "points": "—", "penalty": ""}
        player, points, penalty = version.seats[index]
        registration = names.get(player)
        return {"name": (f"{registration.number}. {registration.player}" if registration
                         else str(player)), "points": points, "penalty": penalty}

    rows = []
    for index, (wind, label) in enumerate(Seat.choices):
        mine, other = seat(yours, index), seat(theirs, index)
        rows.append({"wind": wind, "label": label, "yours": mine, "theirs": other,
                     "differs": mine != other})
    return {"table": table, "rows": rows,
            "theirs_source": Session.Source(theirs.source).label,
            "theirs_version": theirs.version}


def _take_theirs(data: QueryDict, tournament: Tournament, session: int, tables: int
                 ) -> QueryDict:
    """The form's data with each table whose conflict the organizer settled by "take
    theirs" set to the stored results (which are then kept as they are)."""
    data = data.copy()
    for table in range(1, tables + 1):
        if data.get(f"t{table}_keep") != "theirs":
            continue
        stored = services.stored_table_version(tournament, session, table)
        if stored is None:
            continue
        for (wind, _label), (player, points, penalty) in zip(Seat.choices, stored.seats,
                                                              strict=False):
            data[f"t{table}_{wind}_player"] = str(player)
            data[f"t{table}_{wind}_game_points"] = str(points)
            data[f"t{table}_{wind}_penalty"] = str(penalty)
        for key in [k for k in data if k.startswith(f"t{table}_h")]:
            data[key] = ""
        data[f"t{table}_version"] = str(stored.version)
    return data


def _sheet_problems(error: DomainError, form: ScoreSheetForm,
                    names: dict[int, str] | None = None) -> list[tuple[int | None, str]]:
    """The refusal of a score sheet, each problem with the table it is about (None: the
    sheet as a whole) and its place, a hand named by its row of the form."""
    if isinstance(error, services.ResultsConflict):
        return [(item["table"], item["message"]) for item in error.items()]
    if not isinstance(error, services.ResultsError):
        return [(None, text) for text in error.messages()]
    out: list[tuple[int | None, str]] = []
    for problem in error.problems:
        if problem.table is not None and problem.hand is not None:
            problem = dataclasses.replace(
                problem, hand=form.hand_row(problem.table, problem.hand))
        out.append((problem.table, _format_problem(problem, names)))
    return out


def held_tables(tournament: Tournament, session: int) -> list[dict[str, Any]]:
    """The tables whose players agreed a different sheet after the organizer entered them,
    both versions side by side, waiting for the organizer's choice."""
    out = []
    for row in selectors.session_tables(tournament, session):
        if not row.held or row.entry is None:
            continue
        theirs = selectors.table_sheet_version(row.entry)
        yours = services.stored_table_version(tournament, session, row.table)
        if theirs is None or yours is None:
            continue
        out.append(versions_shown(tournament, table=row.table, yours=yours, theirs=theirs))
    return out


@login_required
def score_sheet(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """The score-sheet form of one session, table by table. The form carries the version
    of each table's stored results it showed: a table saved meanwhile by someone else (the
    players at the table, another save) is shown beside the organizer's, who keeps theirs
    or takes the other."""
    tournament = _own(request, pk)
    if not 1 <= session <= tournament.sessions:
        raise Http404
    registrations = sorted(_names(tournament).values(), key=lambda r: r.number)
    tables = max(1, len(registrations) // 4)
    data = (_take_theirs(request.POST, tournament, session, tables)
            if request.method == "POST" else None)
    form = ScoreSheetForm(data, registrations=registrations, tables=tables,
                          initial_seats=_initial_seats(tournament, session),
                          versions=_versions(tournament, session))
    form.table_errors = {}
    form.table_conflicts = {}
    problems: list[str] = []
    conflicts: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        sessions, parse_problems = parse_results_json(form.session_payload(session))
        # each problem under its table of the form (its hand as the form's row), or above
        refused: list[tuple[int | None, str]] = []
        found: list[TableConflict] = []

        def describe(error: DomainError) -> list[tuple[int | None, str]]:
            if isinstance(error, services.ResultsConflict):
                found.extend(error.conflicts)
            return _sheet_problems(error, form, player_labels(tournament))

        with errors_collected(refused, describe=describe) as outcome:
            if parse_problems:
                raise services.ResultsError(services.results_problems(
                    tournament=tournament, sessions=sessions, parse_problems=parse_problems))
            services.results_record(tournament=tournament, user=request.user,
                                    sessions=sessions, source=Session.Source.FORM)
        if outcome.ok:
            messages.success(request, _("Session %(n)s is saved.") % {"n": session})
            return redirect("tournaments:manage", pk=pk)
        if found:
            # the form comes back with the versions now stored: saving again keeps mine
            data = (data or request.POST).copy()
            for conflict in found:
                data[f"t{conflict.table}_version"] = str(conflict.stored.version)
                conflicts.append(versions_shown(tournament, table=conflict.table,
                                                yours=conflict.yours, theirs=conflict.stored))
            form = ScoreSheetForm(data, registrations=registrations, tables=tables,
                                  initial_seats=_initial_seats(tournament, session),
                                  versions=_versions(tournament, session))
            form.is_valid()
            form.table_errors = {}
            form.table_conflicts = {c["table"]: c for c in conflicts}
        for table, text in refused:
            if table is None:
                problems.append(text)
            else:
                form.table_errors.setdefault(table, []).append(text)
    return render(request, "tournaments/score_sheet.html", {
        "tournament": tournament, "session": session, "form": form, "problems": problems,
        "held": held_tables(tournament, session),
        "sessions": range(1, tournament.sessions + 1),
        "can_enter": states.allows("results", tournament.state),
    })


def _grid_tables(tournament: Tournament, session: int) -> list[int]:
    seated = set(tournament.seating.filter(session=session).values_list("table", flat=True))
    stored = set(TableResult.objects.filter(tournament=tournament, session=session)
                 .values_list("table", flat=True))
    return sorted(seated | stored)


def _grid_payload(data: QueryDict, session: int, tables: list[int]) -> dict[str, Any]:
    """The rows whose totals were given (a row left empty is not sent), as the API's
    body."""
    out = []
    for table in tables:
        points = [data.get(f"t{table}_{w}_game_points", "").strip() for w in WINDS]
        if not any(points):
            continue
        out.append({"table": table, "version": data.get(f"t{table}_version") or 0, "seats": [
            {"player": data.get(f"t{table}_{w}_player"), "game_points": value,
             "penalty": data.get(f"t{table}_{w}_penalty") or 0}
            for w, value in zip(WINDS, points, strict=True)]})
    return {"sessions": [{"session": session, "tables": out}]}


def _grid_rows(tournament: Tournament, session: int, tables: list[int],
               data: QueryDict | None) -> list[dict[str, Any]]:
    """Each table as a row of the grid: its four seats (the stored player, or the seating
    draw's) with the totals shown (as posted, or stored) and their sum."""
    names = _names(tournament)
    seats = _initial_seats(tournament, session)
    versions = _versions(tournament, session)
    rows = []
    for table in tables:
        cells = []
        total = 0
        complete = True
        for wind, label in Seat.choices:
            seat = seats.get((table, wind), {})
            prefix = f"t{table}_{wind}"
            player = data.get(f"{prefix}_player") if data is not None else seat.get("player")
            value = (data.get(f"{prefix}_game_points", "") if data is not None
                     else seat.get("game_points", ""))
            value = "" if value is None else str(value)
            try:
                total += int(value)
            except ValueError:
                complete = False
            registration = names.get(int(player)) if str(player or "").isdigit() else None
            cells.append({
                "wind": wind, "label": label, "prefix": prefix, "player": player or "",
                "name": f"{registration.number}. {registration.player}" if registration else "—",
                "value": value,
                "penalty": (data.get(f"{prefix}_penalty") if data is not None
                            else seat.get("penalty", 0)) or 0,
            })
        version = (data.get(f"t{table}_version") if data is not None
                   else versions.get(table, 0))
        rows.append({"table": table, "cells": cells, "version": version or 0,
                     "sum": total if complete else None, "errors": [], "conflict": None,
                     "seated": all(c["player"] for c in cells)})
    return rows


@login_required
def totals_grid(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """The session's tables as a grid of totals, one row per table, typed from the
    keyboard (Tab or Enter moves on; the page's script shows each row's sum as it is
    typed). Only the rows given are saved, through ``results_record`` like the phones'
    tables and the score sheet, with the same versions: a table saved meanwhile by someone
    else is shown beside the organizer's row, who keeps theirs or takes the other."""
    tournament = _own(request, pk)
    if not 1 <= session <= tournament.sessions:
        raise Http404
    tables = _grid_tables(tournament, session)
    data = (_take_theirs(request.POST, tournament, session, max(tables, default=0))
            if request.method == "POST" else None)
    problems: list[str] = []
    by_table: dict[int, list[str]] = {}
    found: list[TableConflict] = []
    if data is not None:
        sessions, parse_problems = parse_results_json(_grid_payload(data, session, tables))
        if not sessions or (not sessions[0].tables and not parse_problems):
            problems.append(_("Give the four totals of at least one table."))
        else:
            refused: list[tuple[int | None, str]] = []

            def describe(error: DomainError) -> list[tuple[int | None, str]]:
                if isinstance(error, services.ResultsConflict):
                    found.extend(error.conflicts)
                    return [(item["table"], item["message"]) for item in error.items()]
                if isinstance(error, services.ResultsError):
                    names = player_labels(tournament)
                    return [(p.table, _format_problem(p, names)) for p in error.problems]
                return [(None, text) for text in error.messages()]

            with errors_collected(refused, describe=describe) as outcome:
                if parse_problems:  # and what the rows that did parse mean
                    raise services.ResultsError(services.results_problems(
                        tournament=tournament, sessions=sessions,
                        parse_problems=parse_problems))
                services.results_record(tournament=tournament, user=request.user,
                                        sessions=sessions, source=Session.Source.FORM,
                                        tables_only=True)
            if outcome.ok:
                messages.success(request, _("Session %(n)s is saved.") % {"n": session})
                return redirect("tournaments:totals", pk=pk, session=session)
            for table, text in refused:
                if table is None:
                    problems.append(text)
                else:
                    by_table.setdefault(table, []).append(text)
        if found:  # the row comes back with the version now stored: saving keeps mine
            data = data.copy()
            for conflict in found:
                data[f"t{conflict.table}_version"] = str(conflict.stored.version)
    rows = _grid_rows(tournament, session, tables, data)
    conflicts = {c.table: c for c in found}
    for row in rows:
        row["errors"] = by_table.get(row["table"], [])
        conflict = conflicts.get(row["table"])
        if conflict is not None:
            row["conflict"] = versions_shown(tournament, table=conflict.table,
                                             yours=conflict.yours, theirs=conflict.stored)
    return render(request, "tournaments/totals_grid.html", {
        "tournament": tournament, "session": session, "rows": rows, "problems": problems,
        "held": held_tables(tournament, session),
        "sessions": range(1, tournament.sessions + 1),
        "can_enter": states.allows("results", tournament.state),
    })


@login_required
def upload(request: HttpRequest, pk: int) -> HttpResponse:
    """Results as a CSV file (docs/tournaments.md); all or nothing."""
    tournament = _own(request, pk)
    form = UploadForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        raw = form.cleaned_data["file"].read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            problems.append(_("The file is not UTF-8 text."))
        else:
            sessions, parse_problems = parse_results_csv(text)
            # the player column gives start numbers (or, as before, player ids)
            number_of = dict(tournament.registrations.values_list("number", "player_id"))
            given = seat_players(sessions)
            if not given <= set(number_of.values()) or given <= set(number_of):
                sessions = renumber_players(sessions, number_of)
            # players named by their start numbers, as in the file
            names = player_labels(tournament)
            with errors_collected(problems, describe=lambda error: problems_with_place(
                    error, players=names)) as outcome:
                if parse_problems:
                    raise services.ResultsError(services.results_problems(
                        tournament=tournament, sessions=sessions,
                        parse_problems=parse_problems, allow_unbalanced=True))
                numbers = services.results_record(
                    tournament=tournament, user=request.user, sessions=sessions,
                    source=Session.Source.CSV, allow_unbalanced=True)
            if outcome.ok:
                messages.success(request, _("Sessions saved: %(list)s.") % {
                    "list": ", ".join(str(n) for n in numbers)})
                for flag in selectors.unbalanced_tables(tournament):
                    if flag.session in numbers and flag.confirmed_at is None:
                        messages.warning(request, _(
                            "Session %(s)s, table %(t)s: the game points sum to %(total)s "
                            "instead of zero. Kept as recorded and flagged: correct it, or "
                            "confirm it as recorded on the session page.") % {
                            "s": flag.session, "t": flag.table, "total": flag.total})
                return redirect("tournaments:manage", pk=pk)
    return render(request, "tournaments/upload.html", {
        "tournament": tournament, "form": form, "problems": problems,
    })


def results_template(request: HttpRequest) -> HttpResponse:
    return csv_export.csv_response("results-template.csv", CSV_COLUMNS, CSV_TEMPLATE_ROWS,
                                   lineterminator="\n")
