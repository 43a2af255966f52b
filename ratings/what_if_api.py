"""GET /api/v1/tournaments/{id}/what-if?player={id} (issue 39, decision 0840): every final
place of a tournament the player has entered and what it would do to their EMA score and
rating; and the page that shows the same table."""

from __future__ import annotations

import re
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.rules import ema
from ratings.selectors import ruleset_name
from ratings.selectors.what_if import WhatIf, own_player_id, registration_of, what_if
from tournaments.models import Player, Tournament
from tournaments.permissions import can_accredit, is_organizer

TOURNAMENT_NOT_FOUND = gettext_lazy("There is no tournament %(id)s.")
PLAYER_INVALID = gettext_lazy("Give the player's number in the parameter “player”.")
PLAYER_NOT_FOUND = gettext_lazy("There is no player %(id)s.")
NOT_ENTERED = gettext_lazy("Player %(id)s has not entered this tournament.")
SUBSTITUTE = gettext_lazy("Player %(id)s is a substitute here: substitutes are not ranked.")
CONFIRMED = gettext_lazy("The results of this tournament are confirmed: its places are known.")
FORBIDDEN = gettext_lazy("Only the player, the tournament's organizer and the accreditation "
                         "officers see what a place would do.")


def may_see(user: Any, tournament: Tournament, player: Player) -> bool:
    """The player themself, the tournament's organizer, an accreditation officer, staff
    (decision 0840)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or is_organizer(user, tournament) or can_accredit(user)
                or own_player_id(user, tournament) == player.pk)


class WhatIfProblem(Exception):
    def __init__(self, status: int, field: str, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.field, self.code, self.message = status, field, code, message

    def response(self) -> Response:
        return Response({"errors": [{"field": self.field, "code": self.code,
                                     "message": self.message}]}, status=self.status)


def _checked(user: Any, tournament_id: int, player_text: str | None) -> WhatIf:
    """The what-if table, or the first problem with the request (nothing is written)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise WhatIfProblem(404, "tournament", "not_found",
                            str(TOURNAMENT_NOT_FOUND) % {"id": tournament_id})
    if not re.fullmatch(r"[0-9]{1,9}", player_text or ""):
        raise WhatIfProblem(400, "player", "invalid", str(PLAYER_INVALID))
    player = Player.objects.filter(pk=int(player_text or 0)).first()
    if player is None:
        raise WhatIfProblem(404, "player", "not_found",
                            str(PLAYER_NOT_FOUND) % {"id": player_text})
    if not may_see(user, tournament, player):
        raise WhatIfProblem(403, "player", "forbidden", str(FORBIDDEN))
    registration = registration_of(tournament, player)
    if registration is None or registration.withdrawn_from is not None:
        raise WhatIfProblem(400, "player", "not_entered", str(NOT_ENTERED) % {"id": player.pk})
    if registration.substitute:
        raise WhatIfProblem(400, "player", "substitute", str(SUBSTITUTE) % {"id": player.pk})
    if tournament.state == Tournament.State.RESULTS_CONFIRMED:
        raise WhatIfProblem(400, "tournament", "results_confirmed", str(CONFIRMED))
    return what_if(tournament, player)


def _score(value: Any) -> float | None:
    return None if value is None else float(ema.rounded(value))


class WhatIfView(APIView):
    permission_classes = [AllowAny]  # who may see: may_see (decision 0840)

    @extend_schema(
        parameters=[OpenApiParameter("player", int, required=True,
                                     description="the player's id (an entrant)")],
        responses={200: dict},
    )
    def get(self, request: Request, pk: int) -> Response:
        """Each final place 1..N and the player's EMA score (null: the tournament is not
        MERS) and rating in the tournament's rules (null: not rated) after it."""
        try:
            table = _checked(request.user, pk, request.query_params.get("player"))
        except WhatIfProblem as problem:
            return problem.response()
        return Response({
            "tournament": table.tournament.pk,
            "player": table.player.pk,
            "ruleset": table.tournament.ruleset,
            "entrants": table.entrants,
            "ema_date": table.ema_on.isoformat(),
            "ema_score_now": _score(table.ema_now),
            "rating_now": table.rating_now.rating if table.rating_now else None,
            "places": [
                {"place": p.place, "ema_score": _score(p.ema_score),
                 "rating": p.rating.rating if p.rating else None,
                 "rd": p.rating.rd if p.rating else None}
                for p in table.places
            ],
        })


def what_if_page(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    """The same table as a page: the player's own page for a tournament they entered."""
    try:
        table = _checked(request.user, pk, str(player))
    except WhatIfProblem as problem:
        if problem.status == 404:
            raise Http404(problem.message) from problem
        if problem.status == 403 and not request.user.is_authenticated:
            from django.contrib.auth.views import redirect_to_login

            return redirect_to_login(request.get_full_path())
        return render(request, "ratings/what_if.html", {"problem": problem.message},
                      status=problem.status)
    rows = [{"place": p.place,
             "ema_score": ema.rounded(p.ema_score) if p.ema_score is not None else None,
             "rating": round(p.rating.rating, 1) if p.rating else None,
             "change": round(p.rating.rating - table.rating_now.rating, 1)
             if p.rating and table.rating_now else None}
            for p in table.places]
    return render(request, "ratings/what_if.html", {
        "table": table, "rows": rows,
        "ema_now": ema.rounded(table.ema_now) if table.ema_now is not None else None,
        "rating_now": round(table.rating_now.rating, 1) if table.rating_now else None, "ruleset_name": ruleset_name(table.tournament.ruleset),
        "title": _("What would a place do: %(tournament)s") % {
            "tournament": table.tournament.name},
    })
