"""The hand archive's endpoints (issue 40; decision 0735):

- ``GET /api/v1/players/{id}/stats?ruleset=mcr&year=2025``: a player's hands in one ruleset
  (one year, or the career without ``year``) beside the field's figures per player;
- ``GET /api/v1/players/{id}/head-to-head/{other}``: the sessions two players played at one
  table, newest first in pages of 100, and what they add up to;
- ``GET /api/v1/fans/{ruleset}/almanac``: per year, how often each fan was scored in the
  federation's confirmed tournaments, and the federation's records.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.pagination import PAGE_INVALID, api_page, page_number
from ratings.api import RULESET_PARAMETER, _ruleset
from ratings.selectors import RULESETS
from rulebook.fan_labels import fan_name_map
from tournaments.api.hands import fans_json, hand_json, player_json
from tournaments.models import Player
from tournaments.selectors.hand_stats import (
    GameFigures,
    fan_almanac,
    head_to_head,
    player_game,
    records,
)

YEAR_INVALID = _("The year is a number from 1900 to 2100.")
RULESET_UNKNOWN_PATH = _("No such rules.")
HEAD_TO_HEAD_PAGE_SIZE = 100


def _player_or_redirect(pk: int, name: str, *args: Any, request: Request) -> Any:
    player = get_object_or_404(Player, pk=pk)
    if player.merged_into_id is not None:  # a duplicate merged into another player
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        return HttpResponsePermanentRedirect(
            reverse(name, args=[player.merged_into_id, *args]) + query)
    return player


def _year(request: Request) -> int | Response | None:
    text = request.query_params.get("year")
    if not text:
        return None
    if not text.isdigit() or not 1900 <= int(text) <= 2100:
        return Response({"errors": [{"field": "year", "message": str(YEAR_INVALID)}]},
                        status=400)
    return int(text)


def _rate(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _figures(figures: GameFigures, *, per_player: bool = False) -> dict[str, Any]:
    counts = ("hands_played", "hands_won", "self_drawn", "dealt_in")
    values: dict[str, Any] = {
        name: (_rate(figures.per_player(name)) if per_player else getattr(figures, name))
        for name in counts}
    values.update({
        "average_points": _rate(figures.average_points),
        "win_rate": _rate(figures.win_rate),
        "self_drawn_share": _rate(figures.self_drawn_share),
        "deal_in_rate": _rate(figures.deal_in_rate),
    })
    if per_player:
        values["players"] = figures.players
    return values


class PlayerStatsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[RULESET_PARAMETER, OpenApiParameter(
        "year", int, description="one year (default: the whole career)")],
        responses={200: dict})
    def get(self, request: Request, pk: int) -> Response:
        """A player's hands: won, self-drawn, paid as discarder, the average and the largest
        hand, the fans scored most; ``field``: the same figures per player of everyone who
        played those rules that year (or ever)."""
        ruleset = _ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        year = _year(request)
        if isinstance(year, Response):
            return year
        player = _player_or_redirect(pk, "api-player-stats", request=request)
        if not isinstance(player, Player):
            return player  # type: ignore[no-any-return]
        game = player_game(player, ruleset=ruleset, year=year)
        names = fan_name_map(ruleset)
        largest = game.largest
        return Response({
            "player": player_json(player), "ruleset": ruleset, "year": year,
            "years": game.years,
            **_figures(game.figures),
            "largest_hand": (hand_json(largest.largest_hand, names) if largest and
                             largest.largest_hand else None),
            "fans": fans_json(game.fans, names),
            "field": _figures(game.field, per_player=True),
        })


class HeadToHeadView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("page", int, description=(
        f"the page of `sessions`, from 1; {HEAD_TO_HEAD_PAGE_SIZE} a page"))],
        responses={200: dict})
    def get(self, request: Request, pk: int, other: int) -> Response:
        """Every session the two played at one table (newest first), each one's table points
        and game points (after deducted penalties, as in the standings); ``summary``: how
        often together, how often the first finished ahead or behind, the sums."""
        number = page_number(request)
        if number is None:
            return Response(
                {"errors": [{"field": "page", "message": str(PAGE_INVALID)}]}, status=400)
        player = _player_or_redirect(pk, "api-player-head-to-head", other, request=request)
        if not isinstance(player, Player):
            return player  # type: ignore[no-any-return]
        rival = get_object_or_404(Player, pk=other)
        if rival.merged_into_id is not None:
            return HttpResponsePermanentRedirect(  # type: ignore[return-value]
                reverse("api-player-head-to-head", args=[player.pk, rival.merged_into_id]))
        h2h = head_to_head(player, rival)
        page = api_page(request, number=number, count=h2h.together,
                        size=HEAD_TO_HEAD_PAGE_SIZE)
        start = (number - 1) * HEAD_TO_HEAD_PAGE_SIZE
        shown = h2h.sessions[start:start + HEAD_TO_HEAD_PAGE_SIZE]
        return page.apply(Response({
            "player": player_json(player), "other": player_json(rival),
            "count": page.count, "next": page.next, "previous": page.previous,
            "sessions": [{
                "tournament": {"id": s.tournament.pk, "name": s.tournament.name,
                               "end_date": s.tournament.end_date},
                "session": s.session, "table": s.table,
                "table_points": [str(s.table_points[0]), str(s.table_points[1])],
                "game_points": list(s.game_points),
                "ahead": s.ahead,
            } for s in shown],
            "summary": {
                "together": h2h.together, "ahead": h2h.ahead, "behind": h2h.behind,
                "table_points": [str(h2h.table_points[0]), str(h2h.table_points[1])],
                "game_points": list(h2h.game_points),
                "tournaments": len(h2h.tournaments),
            },
        }))


class AlmanacView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, ruleset: str) -> Response:
        """Per year, newest first: the winning hands and each fan's count and share of them;
        ``records``: the largest hand ever, the most wins in a session and in a tournament,
        the longest run of wins."""
        if ruleset not in RULESETS:
            return Response({"errors": [{"field": "ruleset",
                                         "message": str(RULESET_UNKNOWN_PATH)}]}, status=404)
        names = fan_name_map(ruleset)
        return Response({
            "ruleset": ruleset,
            "years": [{
                "year": y.year, "winning_hands": y.winning_hands,
                "fans": [{"fan": f, "name": names.get(f, f), "count": n,
                          "share": _rate(y.share(n))} for f, n in y.fans],
            } for y in fan_almanac(ruleset)],
            "records": [{
                "record": r.code, "value": r.value, "player": player_json(r.row.player),
                "tournament": {"id": r.row.tournament.pk, "name": r.row.tournament.name,
                               "end_date": r.row.tournament.end_date},
                "hand": (hand_json(r.row.largest_hand, names)
                         if r.code == "largest_hand" and r.row.largest_hand else None),
            } for r in records(ruleset)],
        })
