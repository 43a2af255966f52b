"""The standings (page, CSV, PDF; the last sessions hidden from the public until revealed)
and the EMA's results sheet of a confirmed tournament (CSV, XLSX).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core import csv_export
from tournaments import ema_export, pdf, selectors, services, xlsx
from tournaments.models import Player, Tournament
from tournaments.permissions import can_manage
from tournaments.problem_texts import error_message
from tournaments.rules import states
from tournaments.views._common import _visible


def _ema_sheet(request: HttpRequest, pk: int) -> tuple[Tournament, list[ema_export.Row]] | HttpResponse:
    """The EMA results sheet of a confirmed tournament, for its organizer and officers; a
    redirect to the sheet's page listing the players to fix when it is refused."""
    tournament = _visible(request, pk)
    if not can_manage(request.user, tournament):
        raise PermissionDenied
    if not states.allows("ema-results", tournament.state):
        raise Http404(_("The results are not confirmed yet."))
    standings = selectors.tournament_ema_standings(tournament)
    missing = ema_export.players_to_fix(standings, mers=tournament.mers)
    if missing:
        names = {p.pk: str(p) for p in Player.objects.filter(pk__in=missing)}
        messages.error(request, error_message(
            "ema_ids_missing", {"players": ", ".join(names[i] for i in missing)}))
        return redirect("tournaments:ema_sheet", pk=pk)
    # the organizer took the sheet: the officer corrects the players from now on
    services.tournament_ema_sheet_taken(tournament=tournament, user=request.user)
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
