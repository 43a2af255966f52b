"""Rating API (issue 12): GET /api/v1/ratings?period=YYYY-MM and GET /api/v1/players/{id},
each with ?ruleset=mcr|hkos|red (default mcr): one rating list per ruleset (decision 0805).
The list comes in pages of 500 (``?page=``; ``count``, ``next``, ``previous``; decision
0713), a player's tournaments in pages of 100 (decision 0809), the EMA ranking in pages
of 500 (decision 0823)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from django.http import HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.countries import country_name
from core.dates import implausible_date_message
from core.pagination import PAGE_INVALID, api_page, page_number
from ratings.rankings import ema_country_ranking, ema_ranking_store
from ratings.rules import ema
from ratings.rules.method import parse_period
from ratings.selectors import (
    RULESETS,
    ema_ranking,
    ema_ranking_stored,
    latest_period_with_results,
    period_list,
    player_current,
    player_history,
    player_months,
    player_rulesets,
    player_tournament_results,
    player_tournaments,
    ruleset_or_none,
)
from ratings.services import DATE_INVALID, PERIOD_INVALID, RULESET_UNKNOWN
from tournaments.models import Player

RULESET_PARAMETER = OpenApiParameter(
    "ruleset", str, enum=list(RULESETS), description="the rating list's rules (default: mcr)"
)

RATINGS_PAGE_SIZE = 500
PLAYER_TOURNAMENTS_PAGE_SIZE = 100
# the EMA ranking's rows a page of /api/v1/rankings/ema (decision 0823): the rating list's
EMA_PAGE_SIZE = RATINGS_PAGE_SIZE


def _ruleset(request: Request) -> str | Response:
    """The ruleset the request asks for, or the 400 answer naming the field."""
    ruleset = ruleset_or_none(request.query_params.get("ruleset"))
    if ruleset is None:
        return Response(
            {"errors": [{"field": "ruleset", "message": str(RULESET_UNKNOWN)}]}, status=400
        )
    return ruleset


class RatingListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("period", str, description="YYYY-MM (default: latest)"),
            OpenApiParameter("page", int, description=f"from 1; {RATINGS_PAGE_SIZE} a page"),
            RULESET_PARAMETER,
        ],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        ruleset = _ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        number = page_number(request)
        if number is None:
            return Response(
                {"errors": [{"field": "page", "message": str(PAGE_INVALID)}]}, status=400
            )
        period = request.query_params.get("period") or latest_period_with_results(ruleset)
        if period is None:
            return Response({"period": None, "ruleset": ruleset, "count": 0, "next": None,
                             "previous": None, "ratings": []})
        try:
            parse_period(period)
        except ValueError:
            return Response(
                {"errors": [{"field": "period", "message": str(PERIOD_INVALID)}]}, status=400
            )
        every = period_list(period, ruleset)
        page = api_page(request, number=number, count=len(every), size=RATINGS_PAGE_SIZE)
        rows = every[page.start:page.stop]
        players = Player.objects.in_bulk([r.player_id for r in rows])
        return page.apply(Response(
            {
                "period": period,
                "ruleset": ruleset,
                "count": page.count,
                "next": page.next,
                "previous": page.previous,
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
        ))


def _float(value: Fraction) -> float:
    return float(ema.rounded(value))


class EmaRankingView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("date", str, description="YYYY-MM-DD (default: today)"),
            OpenApiParameter("page", int, description=f"from 1; {EMA_PAGE_SIZE} a page"),
            RULESET_PARAMETER,
        ],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        """The EMA ranking (MERS) of a ruleset on a date (decision 0806), in pages of
        ``EMA_PAGE_SIZE`` (``?page=``; ``count``, ``next``, ``previous``; decision 0823).
        ``updating``: true while the queued job stores today's ranking again after a change
        of the results (the rows are the ones stored before it; decision 0828)."""
        ruleset = _ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        number = page_number(request)
        if number is None:
            return Response(
                {"errors": [{"field": "page", "message": str(PAGE_INVALID)}]}, status=400
            )
        text = request.query_params.get("date")
        try:
            on = date.fromisoformat(text) if text else timezone.localdate()
        except ValueError:
            return Response(
                {"errors": [{"field": "date", "message": str(DATE_INVALID)}]}, status=400
            )
        implausible = implausible_date_message("tournament", on)
        if implausible:  # year 2: the ranking's two-year window cannot even be computed
            return Response({"errors": [{"field": "date", "code": "implausible_date",
                                         "message": implausible}]}, status=400)
        updating = False
        if on == timezone.localdate():  # the stored ranking (decision 0821)
            stored = ema_ranking_stored(ruleset, on) or ema_ranking_store(ruleset=ruleset, on=on)
            updating = stored.updating_since is not None  # decision 0828
            page = api_page(request, number=number, count=stored.ema_rows.count(),
                            size=EMA_PAGE_SIZE)
            rankings = [
                {"rank": rank, "player": player, "name": name_latin or name_native,
                 "country": country, "score": float(score), "part_a": float(part_a),
                 "part_b": float(part_b), "tournaments": tournaments}
                for rank, player, name_latin, name_native, country, score, part_a, part_b,
                tournaments in stored.ema_rows.order_by("rank", "player_id").values_list(
                    "rank", "player_id", "player__name_latin", "player__name_native",
                    "player__country", "score", "part_a", "part_b", "tournaments",
                )[page.start:page.stop]
            ]
        else:
            every = ema_ranking(ruleset, on)
            page = api_page(request, number=number, count=len(every), size=EMA_PAGE_SIZE)
            rows = every[page.start:page.stop]
            players = Player.objects.in_bulk([r.score.player for r in rows])
            rankings = [
                {
                    "rank": r.rank,
                    "player": r.score.player,
                    "name": str(players[r.score.player]),
                    "country": players[r.score.player].country,
                    "score": _float(r.score.score),
                    "part_a": _float(r.score.part_a),
                    "part_b": _float(r.score.part_b),
                    "tournaments": r.score.tournaments,
                }
                for r in rows
            ]
        return page.apply(Response({
            "date": on.isoformat(), "ruleset": ruleset, "count": page.count,
            "next": page.next, "previous": page.previous, "updating": updating,
            "rankings": rankings,
        }))


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("page", int, description=(
                f"the page of `tournaments`, from 1; {PLAYER_TOURNAMENTS_PAGE_SIZE} a page")),
            RULESET_PARAMETER,
        ],
        responses={200: dict},
    )
    def get(self, request: Request, pk: int) -> Response:
        """A player's rating, monthly history (whole: one row a month) and tournaments,
        newest first in pages (``?page=``; ``count``, ``next``, ``previous`` of the
        tournaments; decision 0809)."""
        ruleset = _ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        number = page_number(request)
        if number is None:
            return Response(
                {"errors": [{"field": "page", "message": str(PAGE_INVALID)}]}, status=400
            )
        player = get_object_or_404(Player, pk=pk)
        if player.merged_into_id is not None:  # a duplicate merged into another player
            return HttpResponsePermanentRedirect(  # type: ignore[return-value]
                reverse("api-player", args=[player.merged_into_id])
                + (f"?{request.GET.urlencode()}" if request.GET else ""))
        current = player_current(player, ruleset=ruleset)
        history = player_history(player, ruleset)
        results = player_tournament_results(player, ruleset)
        page = api_page(request, number=number, count=results.count(),
                        size=PLAYER_TOURNAMENTS_PAGE_SIZE)
        return page.apply(Response(
            {
                "id": player.pk,
                "ruleset": ruleset,
                "rulesets": player_rulesets(player),
                "name": str(player),
                "country": player.country,
                "rating": current.rating.rating if current else None,
                "rd": current.rating.rd if current else None,
                "volatility": current.rating.vol if current else None,
                "provisional": current.provisional if current else None,
                "history": [
                    {
                        "period": m.period,
                        "rating": m.rating,
                        "rd": m.rd,
                        "volatility": m.vol,
                        "games": m.games,
                    }
                    for m in player_months(history, current.period if current else None)
                ],
                "count": page.count,
                "next": page.next,
                "previous": page.previous,
                "tournaments": [
                    {
                        "id": t.tournament_id,
                        "name": t.name,
                        "rank": t.rank,
                        "table_points": t.table_points,
                        "game_points": t.game_points,
                    }
                    for t in player_tournaments(
                        player, ruleset, rows=results[page.start:page.stop])
                ],
            }
        ))


class EmaCountriesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("date", str, description="YYYY-MM-DD (default: today)"),
            RULESET_PARAMETER,
        ],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        """The EMA country ranking of a ruleset on a date: each country's score is the mean
        of its three best players' EMA scores, a missing player counting 0 (decision
        0832); ``name`` is the country's name in the request's language."""
        ruleset = _ruleset(request)
        if isinstance(ruleset, Response):
            return ruleset
        text = request.query_params.get("date")
        try:
            on = date.fromisoformat(text) if text else timezone.localdate()
        except ValueError:
            return Response(
                {"errors": [{"field": "date", "message": str(DATE_INVALID)}]}, status=400
            )
        implausible = implausible_date_message("tournament", on)
        if implausible:
            return Response({"errors": [{"field": "date", "code": "implausible_date",
                                         "message": implausible}]}, status=400)
        return Response({
            "date": on.isoformat(),
            "ruleset": ruleset,
            "countries": [
                {"rank": c.rank, "country": c.country, "name": country_name(c.country),
                 "score": float(c.score),
                 "players": [{"player": pid, "name": name, "score": float(score)}
                             for pid, name, score in players]}
                for c, players in ema_country_ranking(ruleset, on)
            ],
        })
