"""Tournament pages. Thin: check visibility and role, call one service or selector, render.

Public: the calendar, a tournament (players, seating, results), its standings (page, CSV,
PDF) and the printable table distribution of a session. The organizer's own pages: new
tournament, manage (checks, submit, players, seating, confirm), the score-sheet form and the
CSV upload. Officers decide in the Wagtail admin (tournaments.viewsets).
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import csv_export
from core.errors import DomainError, errors_as_messages, errors_collected, errors_on_form
from rulebook.scoring.standings import WINDS
from tournaments import ema_export, pdf, selectors, services, xlsx
from tournaments.forms import (
    EntryDecisionForm,
    EntryForm,
    PlayerForm,
    ScoreSheetForm,
    SeatingForm,
    TournamentForm,
    UploadForm,
    WithdrawForm,
)
from tournaments.models import (
    Entry,
    Player,
    Seat,
    SeatingAssignment,
    Session,
    TableResult,
    Tournament,
)
from tournaments.permissions import can_manage, can_organize, is_organizer
from tournaments.problem_texts import (
    check_message,
    error_message,
    field_label,
    problem_message,
    seating_advice,
)
from tournaments.rules.results_files import (
    CSV_COLUMNS,
    CSV_TEMPLATE_ROWS,
    parse_results_csv,
    parse_results_json,
    renumber_players,
    seat_players,
)
from tournaments.rules.seating_draw import drawn_repeat_pairs_bound, round_seats


def _visible(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(
        selectors.tournaments_visible_to(request.user).select_related("club", "organizer"),
        pk=pk,
    )


def _own(request: HttpRequest, pk: int) -> Tournament:
    tournament = _visible(request, pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied
    return tournament


def _names(tournament: Tournament) -> dict[int, Any]:
    return {r.player_id: r for r in selectors.tournament_registrations(tournament)}


PAST_PAGE_SIZE = 30
RESULTS_CACHE_SECONDS = 7 * 24 * 3600


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


def _results_sessions(tables, names: dict[int, Any]) -> list[dict[str, Any]]:
    from rulebook.scoring.standings import WINDS, table_points

    sessions: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
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


LEADERS_SHOWN = 10


def _results_html(request: HttpRequest, tournament: Tournament, names: dict[int, Any],
                  up_to: int | None = None) -> str:
    """The results by session (up to session ``up_to`` while the last are hidden), rendered
    once and kept in the cache under a digest of everything they show (every seat's result
    with the penalties given since, and every player's name, in the page's language): a
    correction, a penalty or a renamed player is a new key, so that nothing stale is ever
    served. About 80 tables at 40 players and 8 sessions: most of the page's cost
    (issue 26)."""
    tables = selectors.tournament_tables(tournament, up_to)
    if not tables:
        return ""
    shown = (tables, sorted((pk, str(r.player), r.player_id) for pk, r in names.items()))
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()
    key = f"tournaments:results:{tournament.pk}:{get_language()}:{digest}"
    html = cache.get(key)
    if html is None:
        html = render_to_string("tournaments/_results_by_session.html", {
            "results": _results_sessions(tables, names),
        }, request)
        cache.set(key, html, timeout=RESULTS_CACHE_SECONDS)
    return mark_safe(html)


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    names = _names(tournament)
    up_to = selectors.standings_cutoff(tournament, request.user)
    results = _results_html(request, tournament, names, up_to)
    return render(request, "tournaments/tournament.html", {
        "tournament": tournament,
        "registrations": sorted(names.values(), key=lambda r: r.number),
        "seated_sessions": selectors.tournament_sessions_seated(tournament),
        "results": results,
        "standings": selectors.tournament_leaders(tournament, limit=LEADERS_SHOWN, up_to=up_to)
        if results else [],
        "hidden_after": up_to,
        "flags": [f for f in selectors.unbalanced_tables(tournament)
                  if f.confirmed_at is None] if can_manage(request.user, tournament) else [],
        "is_organizer": is_organizer(request.user, tournament),
        "can_export_ema": (tournament.state == Tournament.State.RESULTS_CONFIRMED
                           and can_manage(request.user, tournament)),
    })


def _ema_sheet(request: HttpRequest, pk: int) -> tuple[Tournament, list[ema_export.Row]] | HttpResponse:
    """The EMA results sheet of a confirmed tournament, for its organizer and officers; a
    redirect to the tournament page naming the players to fix when it is refused."""
    tournament = _visible(request, pk)
    if not can_manage(request.user, tournament):
        raise PermissionDenied
    if tournament.state != Tournament.State.RESULTS_CONFIRMED:
        raise Http404(_("The results are not confirmed yet."))
    standings = selectors.tournament_ema_standings(tournament)
    missing = ema_export.players_to_fix(standings, mers=tournament.mers)
    if missing:
        names = {p.pk: str(p) for p in Player.objects.filter(pk__in=missing)}
        messages.error(request, error_message(
            "ema_ids_missing", {"players": ", ".join(names[i] for i in missing)}))
        return redirect("tournaments:detail", pk=pk)
    return tournament, ema_export.ema_rows(standings)


def ema_results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = _ema_sheet(request, pk)
    if isinstance(sheet, HttpResponse):
        return sheet
    tournament, rows = sheet
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="tournament-{tournament.pk}-ema-results.csv"'
    )
    writer = csv_export.writer(response)
    writer.writerow(ema_export.HEADER)
    for row in rows:
        writer.writerow(row.values())
    return response


def ema_results_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    sheet = _ema_sheet(request, pk)
    if isinstance(sheet, HttpResponse):
        return sheet
    tournament, rows = sheet
    response = HttpResponse(content_type=xlsx.CONTENT_TYPE)
    response["Content-Disposition"] = (
        f'attachment; filename="tournament-{tournament.pk}-ema-results.xlsx"'
    )
    xlsx.ema_results_write(response, tournament.name, ema_export.HEADER,
                           [row.values() for row in rows])
    return response


def _standings_context(tournament: Tournament, user: Any) -> dict[str, Any]:
    """The standings as ``user`` may see them (after session sessions - N while the last
    N are hidden), with the penalties and the sessions missed."""
    up_to = selectors.standings_cutoff(tournament, user)
    rows = selectors.tournament_standings(tournament, up_to)
    grid = selectors.session_grid(tournament, up_to)
    absences = selectors.tournament_absences(tournament, up_to)
    absent = {(a.player_id, a.session) for a in absences}
    sessions = sorted({s for cells in grid.values() for s in cells}
                      | {a.session for a in absences})
    penalties = selectors.tournament_penalties(tournament, up_to)
    return {
        "tournament": tournament,
        "rows": [
            {"row": row, "cells": [
                grid.get(row.player, {}).get(s) or ("absent" if (row.player, s) in absent
                                                     else None)
                for s in sessions]}
            for row in rows
        ],
        "sessions": sessions,
        "teams": selectors.tournament_team_standings(tournament, up_to),
        "penalties": penalties,
        "absences": absences,
        "hidden_after": up_to,
        "is_manager": can_manage(user, tournament),
    }


def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    return render(request, "tournaments/standings.html",
                  _standings_context(tournament, request.user))


def _penalty_text(row: selectors.PenaltyRow) -> str:
    p = row.penalty
    text = _("session %(s)s: %(points)s (%(kind)s)") % {
        "s": p.session, "points": p.points, "kind": p.get_kind_display()}
    return f"{text} {row.reason}".strip()


def _number(value: Any) -> str:
    return formats.number_format(value, decimal_pos=None, use_l10n=True)


def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    context = _standings_context(tournament, request.user)
    penalties: dict[int, list[str]] = {}
    for p in context["penalties"]:
        penalties.setdefault(p.penalty.player_id, []).append(_penalty_text(p))
    absent: dict[int, list[str]] = {}
    for a in context["absences"]:
        absent.setdefault(a.player_id, []).append(str(a.session))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
    )
    writer = csv_export.writer(response)
    header = ["rank", "number", "player", "name", "country", "team", "table_points",
              "game_points", "penalties", "substitute", "withdrawn_from"]
    for s in context["sessions"]:
        header += [f"s{s}_table_points", f"s{s}_game_points"]
    header += ["penalty_details", "absent_sessions"]
    if context["hidden_after"] is not None:
        header += ["standings_after_session"]
    writer.writerow(header)
    for item in context["rows"]:
        row = item["row"]
        line = [row.rank, row.number, row.player, row.name, row.country, row.team,
                row.table_points_number, row.game_points, row.penalties,
                int(row.substitute), row.withdrawn_from]
        for cell in item["cells"]:
            line += ([selectors.table_points_number(cell.table_points), cell.game_points]
                     if cell and cell != "absent" else ["", ""])
        line += ["; ".join(penalties.get(row.player, [])),
                 " ".join(absent.get(row.player, []))]
        if context["hidden_after"] is not None:
            line.append(context["hidden_after"])
        writer.writerow(line)
    return response


def standings_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    response = HttpResponse(
        pdf.standings_pdf(tournament, _standings_context(tournament, request.user)),
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
        with errors_on_form(form, None) as outcome:
            tournament = services.tournament_create(organizer=request.user,
                                                    data=form.cleaned_data)
        if outcome.ok:
            messages.success(request, _("The tournament is saved as a draft."))
            return redirect("tournaments:manage", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=pk))
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form, None) as outcome:
            services.tournament_update(tournament=tournament, user=request.user,
                                       data=form.cleaned_data)
        if outcome.ok:
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
    registrations = sorted(_names(tournament).values(), key=lambda r: r.number)
    # the players of the first session: neither substitutes nor withdrawn from it
    regular = sum(1 for r in registrations if not r.substitute and r.withdrawn_from != 1)
    free = sum(1 for r in registrations if r.substitute and r.withdrawn_from != 1)
    seated = SeatingAssignment.objects.filter(tournament=tournament)
    tables = seated.values("session", "table").distinct().count()
    drawn = tables > 0
    # the fewest repeat pairs possible for the seating as drawn (a changed field included)
    minimum = (drawn_repeat_pairs_bound(tables, seated.values("player_id").distinct().count())
               if drawn else 0)
    return render(request, "tournaments/manage.html", {
        "tournament": tournament,
        "checks": checks,
        "registrations": registrations,
        "seating_advice": seating_advice(regular, free) if registrations else "",
        "seating_minimum": minimum,
        "can_remove": not drawn and tournament.state != "results confirmed",
        "player_form": PlayerForm(),
        "seating_form": SeatingForm(initial={
            "seed": tournament.seating_seed or 1,
            "separate_countries": tournament.seating_separate_countries,
        }),
        "session_numbers": [
            {"number": n, "entered": n in entered} for n in range(1, tournament.sessions + 1)
        ],
        "decisions": tournament.decisions.select_related("decided_by"),
        "flags": [f for f in selectors.unbalanced_tables(tournament) if f.confirmed_at is None],
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
    with errors_as_messages(request):
        services.tournament_submit(tournament=tournament, user=request.user)
        messages.success(request, _("The tournament is submitted for accreditation."))
    return redirect("tournaments:manage", pk=pk)


@login_required
@require_POST
def reveal(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer reveals the standings of the hidden last sessions."""
    tournament = _own(request, pk)
    services.standings_reveal(tournament=tournament, user=request.user)
    messages.success(request, _("The standings are revealed."))
    return redirect("tournaments:manage", pk=pk)


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    with errors_as_messages(request, describe=problems_with_place):
        services.tournament_confirm(tournament=tournament, user=request.user)
        messages.success(request, _("The results are confirmed."))
    return redirect("tournaments:manage", pk=pk)


@login_required
@require_POST
def players_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = PlayerForm(request.POST)
    if form.is_valid():
        registered_before = set(tournament.registrations.values_list("pk", flat=True))
        with errors_as_messages(request):
            (registration,) = services.players_register(
                tournament=tournament, user=request.user,
                entries=[services.PlayerEntry(**form.cleaned_data)],
            )
            if registration.pk in registered_before:
                messages.warning(request, _("This player is already registered (No. %(number)s).")
                                 % {"number": registration.number})
            else:
                messages.success(request, _("The player is registered."))
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {' '.join(errors)}")
    return redirect(reverse("tournaments:manage", args=[pk]) + "#players")


@login_required
def remove(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    """The organizer removes a player registered by mistake, before the seating is drawn
    (GET: the confirmation, with Cancel)."""
    tournament = _own(request, pk)
    registration = get_object_or_404(
        tournament.registrations.select_related("player"), player_id=player)
    refused: list[str] = []
    if request.method == "POST":
        with errors_collected(refused) as outcome:
            services.registration_remove(registration=registration, user=request.user)
        if outcome.ok:
            messages.success(request, _("%(name)s is removed from the tournament.")
                             % {"name": registration.player})
            return redirect(reverse("tournaments:manage", args=[pk]) + "#players")
    error = " ".join(refused)
    return render(request, "tournaments/remove.html", {
        "tournament": tournament, "registration": registration, "error": error,
    }, status=400 if error else 200)


@login_required
def withdraw(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    """The organizer withdraws a player from a session on (GET: the form, with Cancel)."""
    tournament = _own(request, pk)
    registration = get_object_or_404(
        tournament.registrations.select_related("player"), player_id=player)
    form = WithdrawForm(request.POST or None, initial={
        "from_session": registration.withdrawn_from,
        "reason": registration.withdrawal_reason,
    })
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form, "from_session") as outcome:
            services.registration_withdraw(
                registration=registration, user=request.user, **form.cleaned_data)
        if outcome.ok:
            messages.success(request, _(
                "%(name)s is withdrawn from session %(session)s on. Redraw the seating from "
                "that session."
            ) % {"name": registration.player, "session": registration.withdrawn_from})
            return redirect(reverse("tournaments:manage", args=[pk]) + "#players")
    return render(request, "tournaments/withdraw.html", {
        "tournament": tournament, "registration": registration, "form": form,
        "sessions": range(1, tournament.sessions + 1),
    })


@login_required
@require_POST
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = SeatingForm(request.POST)
    if form.is_valid():
        with errors_as_messages(request):
            result = services.seating_draw(
                tournament=tournament, user=request.user, seed=form.cleaned_data["seed"],
                from_session=form.cleaned_data.get("from_session"),
                separate_countries=form.cleaned_data["separate_countries"])
            messages.success(request, ngettext(
                "The seating is drawn: %(pairs)s pair of players meets more than once.",
                "The seating is drawn: %(pairs)s pairs of players meet more than once.",
                result.repeat_pairs,
            ) % {"pairs": result.repeat_pairs})
    return redirect(reverse("tournaments:manage", args=[pk]) + "#seating")


def problems_with_place(error: DomainError, *, players: dict[int, int] | None = None
                        ) -> list[str]:
    """A refusal in words for a page: each problem of the results with its place (row,
    session, table, seat, hand, field); ``players``: the numbers to call players by (the
    start numbers of an uploaded file) instead of their ids."""
    if not isinstance(error, services.ResultsError):
        return error.messages()
    players = players or {}
    return [_format_problem(
        dataclasses.replace(p, params={**p.params, "player": players[p.params["player"]]})
        if p.params.get("player") in players else p) for p in error.problems]


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
        where.append(_("field “%(name)s”") % {"name": field_label(problem.field)})
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



# --- entries (issue 24) ---------------------------------------------------------------


def _entry_initial(user: Any) -> dict[str, str]:
    from federation.selectors import member_for_user

    member = member_for_user(user)
    if member is None:
        return {"first_name": user.first_name, "last_name": user.last_name}
    first, _space, last = member.name_latin.partition(" ")
    country = countries_alpha2(member.country)
    return {"first_name": first, "last_name": last, "country": country}


def countries_alpha2(value: str) -> str:
    from django_countries import countries

    return countries.alpha2(value or "") or ""


def entrants(request: HttpRequest, pk: int) -> HttpResponse:
    """The public entrants list: name, country, club, paid or waiting (no amounts); the
    signed-in person's own entry with its invoice and a withdraw button; the entry form."""
    tournament = _visible(request, pk)
    rows = selectors.tournament_entries(tournament, public=True)
    own = None
    if request.user.is_authenticated:
        own = next((r for r in rows if r.entry.user_id == request.user.pk), None)
    form = None
    if request.user.is_authenticated and own is None and selectors.entries_open(tournament):
        form = EntryForm(initial=_entry_initial(request.user), tournament=tournament)
    return render(request, "tournaments/entrants.html", {
        "tournament": tournament, "rows": rows, "own": own, "form": form,
        "places": selectors.places_left(tournament),
    })


@login_required
@require_POST
def enter(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    form = EntryForm(request.POST, tournament=tournament)
    if form.is_valid():
        with errors_on_form(form) as outcome:
            entry = services.entry_create(tournament=tournament, user=request.user,
                                          **form.cleaned_data)
        if outcome.ok:
            if entry.status == "waiting":
                messages.info(request, _("The tournament is full: you are on the waiting list."))
            else:
                messages.success(request, _("Your entry is received: a place is held for you."))
            return redirect("tournaments:entrants", pk=tournament.pk)
    rows = selectors.tournament_entries(tournament, public=True)
    return render(request, "tournaments/entrants.html", {
        "tournament": tournament, "rows": rows, "own": None, "form": form,
        "places": selectors.places_left(tournament),
    }, status=400)


@login_required
@require_POST
def entry_withdraw(request: HttpRequest, pk: int, entry: int) -> HttpResponse:
    """The person who entered, or the tournament's organizer."""
    tournament = _visible(request, pk)
    row = get_object_or_404(Entry, pk=entry, tournament=tournament)
    if row.user_id != request.user.pk and not is_organizer(request.user, tournament):
        raise PermissionDenied
    with errors_as_messages(request) as outcome:
        services.entry_withdraw(entry=row, user=request.user)
    if outcome.ok:
        messages.success(request, _("The entry is withdrawn."))
    if is_organizer(request.user, tournament) and row.user_id != request.user.pk:
        return redirect("tournaments:entries", pk=tournament.pk)
    return redirect("tournaments:entrants", pk=tournament.pk)


@login_required
def entries_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer's view: every entry with contact details, fee and payment, actions,
    what was collected and what is open."""
    tournament = _own(request, pk)
    return render(request, "tournaments/entries.html", {
        "tournament": tournament,
        "rows": selectors.tournament_entries(tournament),
        "collected": selectors.entries_collected(tournament),
        "places": selectors.places_left(tournament),
    })


@login_required
@require_POST
def entry_decide(request: HttpRequest, pk: int, entry: int) -> HttpResponse:
    """The organizer confirms, refuses (with a reason), withdraws or records cash."""
    tournament = _own(request, pk)
    row = get_object_or_404(Entry, pk=entry, tournament=tournament)
    form = EntryDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose an action."))
        return redirect("tournaments:entries", pk=tournament.pk)
    action = form.cleaned_data["action"]
    with errors_as_messages(request) as outcome:
        if action == "cash":
            services.entry_cash_record(entry=row, user=request.user)
        elif action == "full_fee":
            services.entry_full_fee(entry=row, user=request.user)
        elif action == "withdraw":
            services.entry_withdraw(entry=row, user=request.user)
        else:
            services.entry_decide(entry=row, user=request.user, decision=action,
                                  reason=form.cleaned_data["reason"])
    if outcome.ok:
        messages.success(request, _("Done."))
    return redirect("tournaments:entries", pk=tournament.pk)


@login_required
@require_POST
def entries_register(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    # every problem of the entries in one message
    with errors_as_messages(request, describe=lambda error: ["; ".join(error.messages())]
                            ) as outcome:
        count = services.entries_register(tournament=tournament, user=request.user)
    if outcome.ok:
        messages.success(request, ngettext(
            "%(count)d confirmed entry is now registered.",
            "%(count)d confirmed entries are now registered.", count) % {"count": count})
    return redirect("tournaments:entries", pk=tournament.pk)


ENTRIES_EXPORT_HEADER = [
    "id", "status", "first_name", "last_name", "country", "club", "email", "phone",
    "ema_number", "team", "fee", "reduced", "paid", "outstanding", "invoice", "refund",
]


def _entries_export_rows(tournament: Tournament) -> list[list[Any]]:
    rows = []
    for row in selectors.tournament_entries(tournament):
        e = row.entry
        rows.append([
            e.pk, e.status, e.first_name, e.last_name, e.country,
            e.member.club.name if e.member and e.member.club_id else "",
            (e.member.email if e.member and e.member.email else e.user.email),
            e.member.phone if e.member else "", e.ema_number, e.team, e.fee,
            "yes" if e.reduced else "no", "yes" if row.paid else "no", row.outstanding,
            e.invoice.number if e.invoice_id else "", "" if e.refund is None else e.refund,
        ])
    return rows


@login_required
def entries_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer's export for the venue (through the site's one CSV writer)."""
    tournament = _own(request, pk)
    return csv_export.csv_response(f"tournament-{tournament.pk}-entries.csv",
                                   ENTRIES_EXPORT_HEADER, _entries_export_rows(tournament))


@login_required
def entries_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    """The same export as XLSX; formula-like names are stored as text."""
    tournament = _own(request, pk)
    response = HttpResponse(content_type=xlsx.CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-entries.xlsx"'
    # EMA numbers and phone numbers stay text
    xlsx.sheet_write(response, tournament.name, ENTRIES_EXPORT_HEADER,
                     _entries_export_rows(tournament), text_columns=(7, 8))
    return response


@login_required
def entry_fees(request: HttpRequest) -> HttpResponse:
    """The treasurer's view of entry fees: per tournament, collected and open."""
    if not request.user.has_perm("federation.view_duesinvoice"):
        raise PermissionDenied
    return render(request, "tournaments/entry_fees.html", {
        "rows": selectors.entry_fees_by_tournament(),
    })
