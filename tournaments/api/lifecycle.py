"""The tournament itself: the public calendar, creating and changing a tournament,
submitting it for accreditation (with the checks), the officer's decision and MERS.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django_countries import countries
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import error_context
from core.pagination import PAGE_INVALID, api_page, page_number
from tournaments import selectors, services
from tournaments.api._common import (
    TournamentAPIView,
    _errors,
    _officer,
    _own,
    _serializer_errors,
    _visible,
)
from tournaments.models import PUBLIC_STATES, Tournament
from tournaments.permissions import can_organize
from tournaments.problem_texts import check_message, error_message
from tournaments.selectors.mers import mers_weight_computed, mers_weight_json


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = [
            "id", "state", "name", "start_date", "end_date", "city", "country", "venue", "club",
            "ruleset", "variant", "individual", "team", "sessions", "session_minutes",
            "planned_players", "fee", "currency", "contact", "website", "withdrawn_ranking",
            "mers", "mers_weight", "max_players", "fee_member", "fee_other", "fee_reduced",
            "reduced_for", "entries_open", "entries_from", "entries_until",
            "members_first_until", "refund_until", "payment_days", "absent_score",
            "absent_table_points", "absent_game_points", "hide_last_sessions",
            "standings_revealed_at", "results_kind", "abroad",
        ]
        read_only_fields = ["id", "state", "mers", "mers_weight", "standings_revealed_at",
                            "results_kind", "abroad"]

    mers_weight = serializers.DecimalField(
        max_digits=4, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )

    def validate_country(self, value: str) -> str:
        code = countries.alpha2(value.strip())
        if not code:
            raise serializers.ValidationError(error_message("bad_country"))
        return code

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("start_date"), attrs.get("end_date")
        if start and end and end < start:
            raise serializers.ValidationError({"end_date": "end_date is before start_date"})
        return attrs


class MersSerializer(serializers.Serializer):
    mers = serializers.BooleanField()
    mers_weight = serializers.DecimalField(
        max_digits=4, decimal_places=2, min_value=Decimal("0.01"), required=False,
        allow_null=True, default=None,
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="",
                                   max_length=2000)
    qualification = serializers.BooleanField(required=False, allow_null=True, default=None)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("mers") and attrs.get("mers_weight") is None:
            raise serializers.ValidationError({"mers_weight": error_message("mers_weight")})
        return attrs


class DecisionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["accredit", "reject"])
    reason = serializers.CharField(required=False, allow_blank=True, default="")
    mers = serializers.BooleanField(required=False, allow_null=True, default=None)
    mers_weight = serializers.DecimalField(
        max_digits=4, decimal_places=2, min_value=Decimal("0.01"), required=False,
        allow_null=True, default=None,
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("mers") and attrs.get("mers_weight") is None:
            raise serializers.ValidationError({"mers_weight": error_message("mers_weight")})
        return attrs


def _mers_computed(tournament: Tournament) -> dict[str, Any]:
    """Beside ``mers_weight`` (the weight in force): the weight computed from the
    tournament as played with its parts, the qualification and the officer's reason when
    the two differ (decision 0830)."""
    return {"mers_weight_computed": mers_weight_json(mers_weight_computed(tournament)),
            "mers_qualification": tournament.mers_qualification,
            "mers_weight_reason": tournament.mers_weight_reason}


def tournament_json(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    data = dict(TournamentSerializer(tournament).data)
    data["players"] = tournament.registrations.count()
    data.update(extra)
    return data


CALENDAR_PAGE_SIZE = 100


_DATETIME = serializers.DateTimeField()


CALENDAR_FIELDS = TournamentSerializer.Meta.fields


def calendar_json(rows: QuerySet[Tournament]) -> list[dict[str, Any]]:
    """The calendar's rows as ``TournamentSerializer`` writes them, from one query of plain
    values (a serializer per row cost ~5 ms a tournament): dates in ISO form, the fee as a
    string with its two decimals, the club as its id."""
    out = []
    for row in rows.values(*(f if f != "club" else "club_id" for f in CALENDAR_FIELDS)):
        row["club"] = row.pop("club_id")
        for name in ("start_date", "end_date"):
            row[name] = row[name].isoformat()
        if row["fee"] is not None:
            row["fee"] = f"{row['fee']:.2f}"
        if row["standings_revealed_at"] is not None:
            row["standings_revealed_at"] = _DATETIME.to_representation(
                row["standings_revealed_at"])
        out.append({name: row[name] for name in CALENDAR_FIELDS})
    return out


def checks_json(checks: list[services.Check]) -> list[dict[str, Any]]:
    return [
        {"code": c.code, "level": c.level, "message": check_message(c.code, c.level, c.params)}
        for c in checks
    ]


class TournamentListView(TournamentAPIView):
    @extend_schema(
        request=None,
        responses=TournamentSerializer(many=True),
        parameters=[
            OpenApiParameter("state", str, enum=[s.value for s in PUBLIC_STATES]),
            OpenApiParameter("page", int, description=f"from 1; {CALENDAR_PAGE_SIZE} a page; "
                             "the next and previous pages in the Link header"),
        ],
    )
    def get(self, request: Request) -> Response:
        """The public calendar (``?state=accredited`` etc.), 100 tournaments a page
        (``?page=``): the body stays a list; ``Link`` (rel next, prev) and
        ``X-Total-Count`` headers carry the rest (decision 0713)."""
        number = page_number(request)
        if number is None:
            return _errors([{"field": "page", "message": str(PAGE_INVALID)}])
        state = request.query_params.get("state")
        if state and state not in PUBLIC_STATES:
            return Response([])
        rows = selectors.public_calendar(state=state)
        page = api_page(request, number=number, count=rows.count(), size=CALENDAR_PAGE_SIZE)
        return page.apply(Response(calendar_json(rows[page.start:page.stop])))

    @extend_schema(request=TournamentSerializer, responses={201: TournamentSerializer})
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not can_organize(request.user):
            raise PermissionDenied()
        serializer = TournamentSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        tournament = services.tournament_create(
            organizer=request.user, data=serializer.validated_data
        )
        return Response(tournament_json(tournament), status=status.HTTP_201_CREATED)


class TournamentDetailView(TournamentAPIView):
    @extend_schema(responses=TournamentSerializer)
    def get(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        return Response(tournament_json(tournament, **_mers_computed(tournament)))

    @extend_schema(request=TournamentSerializer, responses=TournamentSerializer)
    def patch(self, request: Request, pk: int) -> Response:
        """The organizer changes their tournament (the fields given): a draft or a rejected
        one freely; an accredited one in what the accreditation did not decide, the rest only
        with ``"resubmit": true`` (back to the officer; decision 0721)."""
        tournament = _own(request, pk)
        serializer = TournamentSerializer(tournament, data=request.data, partial=True)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        tournament = services.tournament_update(
            tournament=tournament, user=request.user, data=serializer.validated_data,
            resubmit=request.data.get("resubmit") is True)
        return Response(tournament_json(tournament))


class SubmitView(TournamentAPIView):
    @extend_schema(request=None, responses=TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        # refused: the checks that stand in the way, beside the error
        with error_context(extra=lambda error: {
                "checks": checks_json(services.tournament_checks(tournament))}):
            tournament, checks = services.tournament_submit(
                tournament=tournament, user=request.user
            )
        return Response(tournament_json(tournament, checks=checks_json(checks)))


class DecisionView(TournamentAPIView):
    @extend_schema(request=DecisionSerializer, responses=TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        tournament = _officer(request, pk)
        serializer = DecisionSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        tournament = services.tournament_decide(
            tournament=tournament, user=request.user, **serializer.validated_data
        )
        return Response(tournament_json(tournament))


class MersView(TournamentAPIView):
    @extend_schema(request=MersSerializer, responses=TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        """The officer records the EMA's MERS certification and weight."""
        tournament = _officer(request, pk)
        serializer = MersSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        tournament = services.tournament_mers_set(
            tournament=tournament, user=request.user, **serializer.validated_data
        )
        return Response(tournament_json(tournament, **_mers_computed(tournament)))
