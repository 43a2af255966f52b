"""The EMA's championship quotas (issue 39, decision 0841): GET /api/v1/rankings/ema/quotas
and the page /<lang>/ratings/ema/quotas/, from the stored EMA ranking of today."""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.models import StoredRanking
from ratings.rankings import ema_ranking_store
from ratings.rules import ema
from ratings.rules.quotas import THRESHOLD
from ratings.selectors import RULESETS, ema_ranking_stored, ruleset_name, ruleset_or_none
from ratings.selectors.quotas import MAX_SEATS, default_seats, ema_quotas
from ratings.services import RULESET_UNKNOWN

SEATS_INVALID = gettext_lazy("The seats must be a whole number from 1 to %(max)s.")


def _stored(ruleset: str) -> StoredRanking:
    today = timezone.localdate()
    return ema_ranking_stored(ruleset, today) or ema_ranking_store(ruleset=ruleset, on=today)


def _seats(text: str | None) -> int | None:
    if not text:
        return default_seats()
    if not re.fullmatch(r"[0-9]{1,6}", text) or not 1 <= int(text) <= MAX_SEATS:
        return None
    return int(text)


def _float(value: object) -> float:
    return float(ema.rounded(value))  # type: ignore[arg-type]


class QuotasView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("ruleset", str, enum=list(RULESETS), description="default: mcr"),
            OpenApiParameter("seats", int, description="the championship's EMA seats"),
        ],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        """The seats of each member country (decision 0841), from today's EMA ranking."""
        ruleset = ruleset_or_none(request.query_params.get("ruleset"))
        if ruleset is None:
            return Response({"errors": [{"field": "ruleset", "code": "invalid",
                                         "message": str(RULESET_UNKNOWN)}]}, status=400)
        seats = _seats(request.query_params.get("seats"))
        if seats is None:
            return Response({"errors": [{"field": "seats", "code": "invalid",
                                         "message": str(SEATS_INVALID) % {"max": MAX_SEATS}}]},
                            status=400)
        stored = _stored(ruleset)
        q = ema_quotas(stored, seats)
        return Response({
            "date": stored.on.isoformat() if stored.on else None,
            "ruleset": ruleset,
            "seats": seats,
            "threshold": float(THRESHOLD),
            "average": _float(q.average),
            "unallocated": q.unallocated,
            "countries": [
                {"rank": i, "country": r.country, "seats": r.seats, "part_a": r.part_a,
                 "part_b": r.part_b, "cap": r.cap, "players": r.players,
                 "over_threshold": r.over_threshold, "above_average": r.above_average,
                 "share": round(float(r.share), 6)}
                for i, r in enumerate(q.rows, start=1)
            ],
        })


def quotas_page(request: HttpRequest) -> HttpResponse:
    ruleset = ruleset_or_none(request.GET.get("ruleset")) or "mcr"
    seats = _seats(request.GET.get("seats"))
    error = None
    if seats is None:
        error, seats = str(SEATS_INVALID) % {"max": MAX_SEATS}, default_seats()
    stored = _stored(ruleset)
    q = ema_quotas(stored, seats)
    base = reverse("ratings:ema_quotas")
    return render(request, "ratings/ema_quotas.html", {
        "ruleset": ruleset, "ruleset_name": ruleset_name(ruleset), "seats": seats,
        "error": error, "on": stored.on, "quotas": q, "average": ema.rounded(q.average),
        "threshold": int(THRESHOLD),
        "tabs": [{"code": r, "name": ruleset_name(r), "url": f"{base}?ruleset={r}&seats={seats}",
                  "active": r == ruleset} for r in RULESETS],
    }, status=400 if error else 200)
