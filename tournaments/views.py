"""Tournament pages. Thin: check visibility and role, call one service or selector, render.

Public: the calendar, a tournament (players, seating, results), its standings (page, CSV,
PDF) and the printable table distribution of a session. The organizer's own pages: new
tournament, manage (checks, submit, players, seating, confirm), the score-sheet form and the
CSV upload. Officers decide in the Wagtail admin (tournaments.viewsets).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config import csv_export
from rulebook.scoring.standings import WINDS
from tournaments.permissions import can_organize

from . import pdf, selectors, services
from .forms import (
    PlayerForm,
    ScoreSheetForm,
    SeatingForm,
    TournamentForm,
    UploadForm,
)
from .importers import CSV_COLUMNS, CSV_TEMPLATE_ROWS, parse_results_csv, parse_results_json
from .models import Seat, Session, TableResult, Tournament
from .problem_texts import check_message, error_message, problem_message
from .seating import round_seats


def _visible(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(
        selectors.tournaments_visible_to(request.user).select_related("club", "organizer"),
        pk=pk,
    )


def _own(request: HttpRequest, pk: int) -> Tournament:
    tournament = _visible(request, pk)
    if tournament.organizer_id != request.user.pk:
        raise PermissionDenied
    return tournament


def _names(tournament: Tournament) -> dict[int, Any]:
    return {r.player_id: r for r in selectors.tournament_registrations(tournament)}


PAST_PAGE_SIZE = 30


def calendar(request: HttpRequest) -> HttpResponse:
    today = selectors.today()
    rows = selectors.public_calendar()
    upcoming = list(rows.filter(end_date__gte=today))
    past = Paginator(
        rows.filter(end_date__lt=today).order_by("-start_date", "name", "pk"), PAST_PAGE_SIZE
    ).get_page(request.GET.get("page"))
    mine = None
    if can_organize(request.user):
        mine = Tournament.objects.filter(organizer=request.user).order_by("-start_date")
    return render(request, "tournaments/calendar.html", {
        "upcoming": upcoming, "past": past, "mine": mine,
    })


def _seating_sessions(tournament: Tournament, names: dict[int, Any]) -> list[dict[str, Any]]:
    sessions: dict[int, dict[int, dict[str, Any]]] = {}
    for row in tournament.seating.all():
        sessions.setdefault(row.session, {}).setdefault(row.table, {})[row.seat] = names.get(
            row.player_id)
    return [
        {"session": s, "tables": [
            {"table": t, "seats": [seats.get(w) for w in WINDS]}
            for t, seats in sorted(tables.items())
        ]}
        for s, tables in sorted(sessions.items())
    ]


def _results_sessions(tournament: Tournament, names: dict[int, Any]) -> list[dict[str, Any]]:
    from rulebook.scoring.standings import WINDS, table_points

    sessions: dict[int, list[dict[str, Any]]] = {}
    for table in selectors.tournament_tables(tournament):
        points = table_points([s.game_points for s in table.seats])
        sessions.setdefault(table.session, []).append({
            "table": table.table,
            "seats": [
                {"wind": w, "player": names.get(s.player), "game_points": s.game_points,
                 "penalty": s.penalty, "table_points": selectors.table_points_number(p)}
                for w, s, p in zip(WINDS, table.seats, points, strict=True)
            ],
        })
    return [{"session": s, "tables": t} for s, t in sorted(sessions.items())]


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    names = _names(tournament)
    return render(request, "tournaments/tournament.html", {
        "tournament": tournament,
        "registrations": sorted(names.values(), key=lambda r: r.number),
        "seating": _seating_sessions(tournament, names),
        "results": _results_sessions(tournament, names),
        "standings": selectors.tournament_standings(tournament)[:10],
        "is_organizer": tournament.organizer_id == request.user.pk,
    })


def _standings_context(tournament: Tournament) -> dict[str, Any]:
    rows = selectors.tournament_standings(tournament)
    grid = selectors.session_grid(tournament)
    sessions = sorted({s for cells in grid.values() for s in cells})
    return {
        "tournament": tournament,
        "rows": [
            {"row": row, "cells": [grid.get(row.player, {}).get(s) for s in sessions]}
            for row in rows
        ],
        "sessions": sessions,
        "teams": selectors.tournament_team_standings(tournament),
    }


def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    return render(request, "tournaments/standings.html", _standings_context(tournament))


def _number(value: Any) -> str:
    return formats.number_format(value, decimal_pos=None, use_l10n=True)


def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    context = _standings_context(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
    )
    writer = csv_export.writer(response)
    header = ["rank", "number", "player", "name", "country", "team", "table_points",
              "game_points", "penalties"]
    for s in context["sessions"]:
        header += [f"s{s}_table_points", f"s{s}_game_points"]
    writer.writerow(header)
    for item in context["rows"]:
        row = item["row"]
        line = [row.rank, row.number, row.player, row.name, row.country, row.team,
                row.table_points_number, row.game_points, row.penalties]
        for cell in item["cells"]:
            line += ([selectors.table_points_number(cell.table_points), cell.game_points]
                     if cell else ["", ""])
        writer.writerow(line)
    return response


def standings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    response = HttpResponse(pdf.standings_pdf(tournament, _standings_context(tournament)),
                            content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="tournament-{tournament.pk}-standings.pdf"'
    )
    return response


def table_distribution(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """Appendix 3 for one session, with the seat rotation of Appendix 4; printable."""
    tournament = _visible(request, pk)
    names = _names(tournament)
    sessions = {s["session"]: s for s in _seating_sessions(tournament, names)}
    if session not in sessions:
        raise Http404
    tables = []
    for table in sessions[session]["tables"]:
        ids = [r.player_id if r else None for r in table["seats"]]
        rounds = round_seats(ids) if None not in ids else []
        tables.append({
            "table": table["table"], "seats": table["seats"],
            "rounds": [[names.get(r[w]) for w in WINDS] for r in rounds],
        })
    return render(request, "tournaments/distribution.html", {
        "tournament": tournament, "session": session, "tables": tables,
        "sessions": sorted(sessions),
    })


# --- The organizer's pages ----------------------------------------------------------------


def _organizer_required(request: HttpRequest) -> None:
    if not can_organize(request.user):
        raise PermissionDenied


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    _organizer_required(request)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(organizer=request.user,
                                                    data=form.cleaned_data)
        except services.TournamentError as err:
            form.add_error(None, error_message(err.code, err.params))
        else:
            messages.success(request, _("The tournament is saved as a draft."))
            return redirect("tournaments:manage", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=pk))
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, user=request.user,
                                       data=form.cleaned_data)
        except services.TournamentError as err:
            form.add_error(None, error_message(err.code, err.params))
        else:
            return redirect("tournaments:manage", pk=pk)
    return render(request, "tournaments/tournament_form.html",
                  {"form": form, "tournament": tournament})


@login_required
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    checks = [
        {"level": c.level, "message": check_message(c.code, c.level, c.params)}
        for c in services.tournament_checks(tournament)
    ]
    entered = set(Session.objects.filter(tournament=tournament).values_list("number",
                                                                             flat=True))
    return render(request, "tournaments/manage.html", {
        "tournament": tournament,
        "checks": checks,
        "registrations": sorted(_names(tournament).values(), key=lambda r: r.number),
        "player_form": PlayerForm(),
        "seating_form": SeatingForm(initial={"seed": tournament.seating_seed or 1}),
        "session_numbers": [
            {"number": n, "entered": n in entered} for n in range(1, tournament.sessions + 1)
        ],
        "decisions": tournament.decisions.select_related("decided_by"),
        "can_edit": tournament.state in ("draft", "rejected"),
        "can_submit": tournament.state in ("draft", "rejected"),
        "can_enter": tournament.state in ("accredited", "results submitted"),
        "can_confirm": tournament.state == "results submitted",
        "can_register": tournament.state != "results confirmed",
    })


@login_required
@require_POST
def submit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    try:
        services.tournament_submit(tournament=tournament, user=request.user)
        messages.success(request, _("The tournament is submitted for accreditation."))
    except services.TournamentError as err:
        messages.error(request, error_message(err.code, err.params))
    return redirect("tournaments:manage", pk=pk)


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    try:
        services.tournament_confirm(tournament=tournament, user=request.user)
        messages.success(request, _("The results are confirmed."))
    except services.TournamentError as err:
        messages.error(request, error_message(err.code, err.params))
    except services.ResultsError as err:
        for problem in err.problems:
            messages.error(request, _format_problem(problem))
    return redirect("tournaments:manage", pk=pk)


@login_required
@require_POST
def players_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = PlayerForm(request.POST)
    if form.is_valid():
        registered_before = set(tournament.registrations.values_list("pk", flat=True))
        try:
            (registration,) = services.players_register(
                tournament=tournament, user=request.user,
                entries=[services.PlayerEntry(**form.cleaned_data)],
            )
            if registration.pk in registered_before:
                messages.warning(request, _("This player is already registered (No. %(number)s).")
                                 % {"number": registration.number})
            else:
                messages.success(request, _("The player is registered."))
        except services.TournamentError as err:
            messages.error(request, error_message(err.code, err.params))
        except services.ResultsError as err:
            for problem in err.problems:
                messages.error(request, problem_message(problem))
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {' '.join(errors)}")
    return redirect(reverse("tournaments:manage", args=[pk]) + "#players")


@login_required
@require_POST
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = SeatingForm(request.POST)
    if form.is_valid():
        try:
            result = services.seating_draw(tournament=tournament, user=request.user,
                                           seed=form.cleaned_data["seed"])
            messages.success(request, _(
                "The seating is drawn: %(pairs)s pair(s) of players meet more than once."
            ) % {"pairs": result.repeat_pairs})
        except services.TournamentError as err:
            messages.error(request, error_message(err.code, err.params))
    return redirect(reverse("tournaments:manage", args=[pk]) + "#seating")


def _format_problem(problem: Any) -> str:
    where = []
    if problem.row is not None:
        where.append(_("row %(n)s") % {"n": problem.row})
    if problem.session is not None:
        where.append(_("session %(n)s") % {"n": problem.session})
    if problem.table is not None:
        where.append(_("table %(n)s") % {"n": problem.table})
    if problem.seat is not None:
        where.append(str(Seat(problem.seat).label))
    if problem.hand is not None:
        where.append(_("hand %(n)s") % {"n": problem.hand})
    if problem.field is not None:
        where.append(_("field “%(name)s”") % {"name": problem.field})
    text = problem_message(problem)
    return f"{', '.join(where)}: {text}" if where else text


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
        try:
            if parse_problems:
                raise services.ResultsError(services.results_problems(
                    tournament=tournament, sessions=sessions, parse_problems=parse_problems))
            services.results_record(tournament=tournament, user=request.user,
                                    sessions=sessions, source=Session.Source.FORM)
        except services.TournamentError as err:
            problems.append(error_message(err.code, err.params))
        except services.ResultsError as err:
            for problem in err.problems:
                if problem.table is not None and problem.hand is not None:
                    problem = dataclasses.replace(
                        problem, hand=form.hand_row(problem.table, problem.hand))
                if problem.table is not None:
                    form.table_errors.setdefault(problem.table, []).append(
                        _format_problem(problem))
                else:
                    problems.append(_format_problem(problem))
        else:
            messages.success(request, _("Session %(n)s is saved.") % {"n": session})
            return redirect("tournaments:manage", pk=pk)
    return render(request, "tournaments/score_sheet.html", {
        "tournament": tournament, "session": session, "form": form, "problems": problems,
        "sessions": range(1, tournament.sessions + 1),
        "can_enter": tournament.state in ("accredited", "results submitted"),
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
            try:
                if parse_problems:
                    raise services.ResultsError(services.results_problems(
                    tournament=tournament, sessions=sessions, parse_problems=parse_problems))
                numbers = services.results_record(
                    tournament=tournament, user=request.user, sessions=sessions,
                    source=Session.Source.CSV)
            except services.TournamentError as err:
                problems.append(error_message(err.code, err.params))
            except services.ResultsError as err:
                problems.extend(_format_problem(p) for p in err.problems)
            else:
                messages.success(request, _("Sessions saved: %(list)s.") % {
                    "list": ", ".join(str(n) for n in numbers)})
                return redirect("tournaments:manage", pk=pk)
    return render(request, "tournaments/upload.html", {
        "tournament": tournament, "form": form, "problems": problems,
    })


def results_template(request: HttpRequest) -> HttpResponse:
    return csv_export.csv_response("results-template.csv", CSV_COLUMNS, CSV_TEMPLATE_ROWS,
                                   lineterminator="\n")

