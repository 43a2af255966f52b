"""What the tournament pages share: the tournament as the reader may reach it (visible, or
their own), its players by id, and a refusal of results in words with each problem's
place.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from core.errors import DomainError
from tournaments import selectors, services
from tournaments.models import Seat, Tournament
from tournaments.permissions import is_organizer
from tournaments.problem_texts import field_label, problem_message


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


def player_labels(tournament: Tournament) -> dict[int, str]:
    """How a page names a player in a problem: "No. 10 Natalia Kovaleva" (the start number
    and the name), not the player's id (issue 38). One query."""
    return {r.player_id: _("No. %(number)s %(name)s") % {"number": r.number, "name": r.player}
            for r in tournament.registrations.select_related("player")}


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def problems_with_place(error: DomainError, *, players: dict[int, Any] | None = None
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


def _format_problem(problem: Any, names: dict[int, str] | None = None) -> str:
    """A problem in words with its place; ``names``: how to call players (player_labels)."""
    if names and problem.params.get("player") in names:
        problem = dataclasses.replace(
            problem, params={**problem.params, "player": names[problem.params["player"]]})
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
