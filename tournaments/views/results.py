"""Entering results: the score-sheet form of a session, table by table, and the CSV upload
(with its template); all or nothing, every problem shown at its place.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core import csv_export
from core.errors import DomainError, errors_collected
from tournaments import selectors, services
from tournaments.forms import ScoreSheetForm, UploadForm
from tournaments.models import Session, TableResult, Tournament
from tournaments.rules import states
from tournaments.rules.results_files import (
    CSV_COLUMNS,
    CSV_TEMPLATE_ROWS,
    parse_results_csv,
    parse_results_json,
    renumber_players,
    seat_players,
)
from tournaments.views._common import _format_problem, _names, _own, problems_with_place


def _initial_seats(tournament: Tournament, session: int) -> dict[tuple[int, str], dict]:
    seats: dict[tuple[int, str], dict[str, Any]] = {}
    results = TableResult.objects.filter(tournament=tournament, session=session)
    if results.exists():
        for r in results:
            seats[(r.table, r.seat)] = {"player": str(r.player_id),
                                        "game_points": r.game_points, "penalty": r.penalty}
        return seats
    for a in tournament.seating.filter(session=session):
        seats[(a.table, a.seat)] = {"player": str(a.player_id)}
    return seats


def _sheet_problems(error: DomainError, form: ScoreSheetForm) -> list[tuple[int | None, str]]:
    """The refusal of a score sheet, each problem with the table it is about (None: the
    sheet as a whole) and its place, a hand named by its row of the form."""
    if not isinstance(error, services.ResultsError):
        return [(None, text) for text in error.messages()]
    out: list[tuple[int | None, str]] = []
    for problem in error.problems:
        if problem.table is not None and problem.hand is not None:
            problem = dataclasses.replace(
                problem, hand=form.hand_row(problem.table, problem.hand))
        out.append((problem.table, _format_problem(problem)))
    return out


@login_required
def score_sheet(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """The score-sheet form of one session, table by table."""
    tournament = _own(request, pk)
    if not 1 <= session <= tournament.sessions:
        raise Http404
    registrations = sorted(_names(tournament).values(), key=lambda r: r.number)
    tables = max(1, len(registrations) // 4)
    form = ScoreSheetForm(request.POST or None, registrations=registrations, tables=tables,
                          initial_seats=_initial_seats(tournament, session))
    form.table_errors = {}
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        sessions, parse_problems = parse_results_json(form.session_payload(session))
        # each problem under its table of the form (its hand as the form's row), or above
        refused: list[tuple[int | None, str]] = []
        with errors_collected(refused, describe=lambda error: _sheet_problems(error, form)
                              ) as outcome:
            if parse_problems:
                raise services.ResultsError(services.results_problems(
                    tournament=tournament, sessions=sessions, parse_problems=parse_problems))
            services.results_record(tournament=tournament, user=request.user,
                                    sessions=sessions, source=Session.Source.FORM)
        if outcome.ok:
            messages.success(request, _("Session %(n)s is saved.") % {"n": session})
            return redirect("tournaments:manage", pk=pk)
        for table, text in refused:
            if table is None:
                problems.append(text)
            else:
                form.table_errors.setdefault(table, []).append(text)
    return render(request, "tournaments/score_sheet.html", {
        "tournament": tournament, "session": session, "form": form, "problems": problems,
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
            number_by_id = {pid: n for n, pid in number_of.items()}
            with errors_collected(problems, describe=lambda error: problems_with_place(
                    error, players=number_by_id)) as outcome:
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
