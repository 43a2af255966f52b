"""Rating API (issue 12): GET /api/v1/ratings?period=YYYY-MM and GET /api/v1/players/{id}."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.method import parse_period
from ratings.selectors import (
    latest_period_with_results,
    period_list,
    player_current,
    player_history,
    player_tournaments,
)
from ratings.services import PERIOD_INVALID
from tournaments.models import Player


class RatingListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("period", str, description="YYYY-MM (default: latest)")],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        period = request.query_params.get("period") or latest_period_with_results()
        if period is None:
            return Response({"period": None, "ratings": []})
        try:
            parse_period(period)
        except ValueError:
            return Response(
                {"errors": [{"field": "period", "message": str(PERIOD_INVALID)}]}, status=400
            )
        rows = period_list(period)
        players = Player.objects.in_bulk([r.player_id for r in rows])
        return Response(
            {
                "period": period,
                "ratings": [
                    {
                        "rank": r.rank,
                        "player": r.player_id,
                        "name": str(players[r.player_id]),
                        "country": players[r.player_id].country,
                        "rating": r.rating,
                        "rd": r.rd,
                        "volatility": r.vol,
                        "games": r.games,
                        "provisional": r.provisional,
                        "change": r.change,
                    }
                    for r in rows
                ],
            }
        )


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        current = player_current(player)
        return Response(
            {
                "id": player.pk,
                "name": str(player),
                "country": player.country,
                "rating": current.rating.rating if current else None,
                "rd": current.rating.rd if current else None,
                "volatility": current.rating.vol if current else None,
                "provisional": current.provisional if current else None,
                "history": [
                    {
                        "period": e.period,
                        "rating": e.rating,
                        "rd": e.rd,
                        "volatility": e.vol,
                        "games": e.games,
                    }
                    for e in player_history(player)
                ],
                "tournaments": [
                    {
                        "id": t.tournament_id,
                        "name": t.name,
                        "rank": t.rank,
                        "table_points": t.table_points,
                        "game_points": t.game_points,
                    }
                    for t in player_tournaments(player)
                ],
            }
        )
