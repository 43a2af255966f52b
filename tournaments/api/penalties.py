"""Penalties, late arrivals and absences (3.11.2), revealing the hidden standings, and an
imported table that does not sum to zero kept as recorded: the organizer's, during the
tournament.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import error_context
from tournaments import selectors, services
from tournaments.api._common import TournamentAPIView, _errors, _own, _serializer_errors, _visible
from tournaments.api.lifecycle import TournamentSerializer, tournament_json
from tournaments.errors import E_PENALTY_NOT_GIVEN, E_TABLE_NOT_FLAGGED
from tournaments.models import PUBLIC_STATES, Absence
from tournaments.permissions import can_manage


class PenaltyInSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    player = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["deducted", "transferred"])
    points = serializers.IntegerField()
    reason = serializers.CharField(max_length=300, allow_blank=True, required=False,
                                   default="")
    to_player = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="transferred: the player who receives the points (at the same table); "
                  "empty: the three others share them (divisible by 3)")


class PenaltyOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    session = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["deducted", "transferred"])
    points = serializers.IntegerField()
    to_player = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    late_minutes = serializers.IntegerField(allow_null=True)
    source = serializers.ChoiceField(choices=["results", "organizer"])
    given_by = serializers.CharField(required=False,
                                     help_text="the organizer and the officers only")
    given_at = serializers.DateTimeField(required=False,
                                         help_text="the organizer and the officers only")


class LateInSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    minutes = serializers.IntegerField()


class AbsentInSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    reason = serializers.CharField(max_length=300, allow_blank=True, required=False,
                                   default="")


def penalty_json(row: selectors.PenaltyRow, *, manager: bool) -> dict[str, Any]:
    p = row.penalty
    data = {
        "id": p.pk, "session": p.session, "table": p.table, "player": p.player_id,
        "name": row.name, "kind": p.kind, "points": p.points, "to_player": p.to_player_id,
        "reason": row.reason, "late_minutes": p.late_minutes, "source": p.source,
    }
    if manager:
        data["given_by"] = p.given_by.get_username()
        data["given_at"] = p.given_at.isoformat()
    return data


def _one_penalty(penalty: Any) -> dict[str, Any]:
    row = selectors.PenaltyRow(penalty, str(penalty.player),
                               str(penalty.to_player) if penalty.to_player_id else "")
    return penalty_json(row, manager=True)


def absence_json(absence: Any) -> dict[str, Any]:
    return {"id": absence.pk, "session": absence.session, "player": absence.player_id,
            "reason": absence.reason, "late_minutes": absence.late_minutes}


class PenaltiesView(TournamentAPIView):
    """Every penalty of a tournament (who gave it and when: its organizer and the officers
    only); the organizer gives one with its reason."""

    @extend_schema(responses=PenaltyOutSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        manager = can_manage(request.user, tournament)
        if tournament.state not in PUBLIC_STATES and not manager:
            raise Http404
        up_to = selectors.standings_cutoff(tournament, request.user)
        return Response([penalty_json(row, manager=manager)
                         for row in selectors.tournament_penalties(tournament, up_to)])

    @extend_schema(request=PenaltyInSerializer, responses={201: PenaltyOutSerializer})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        serializer = PenaltyInSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        penalty = services.penalty_give(tournament=tournament, user=request.user,
                                        **serializer.validated_data)
        return Response(_one_penalty(penalty), status=status.HTTP_201_CREATED)


class PenaltyView(TournamentAPIView):
    """The organizer takes back a penalty they gave."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, penalty: int) -> Response:
        tournament = _own(request, pk)
        with error_context(not_found={E_PENALTY_NOT_GIVEN}):
            services.penalty_remove(tournament=tournament, user=request.user, penalty=penalty)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LateView(TournamentAPIView):
    """The organizer records a late arrival (3.11.2): up to 10 minutes, 10 game points
    deducted; 11 to 15, 20; beyond 15 minutes the player misses the session."""

    @extend_schema(request=LateInSerializer, responses={201: dict})
    def post(self, request: Request, pk: int, player: int) -> Response:
        tournament = _own(request, pk)
        get_object_or_404(tournament.registrations, player_id=player)
        serializer = LateInSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        result = services.player_late(tournament=tournament, user=request.user,
                                      player=player, **serializer.validated_data)
        if isinstance(result, Absence):
            return Response({"absence": absence_json(result)}, status=status.HTTP_201_CREATED)
        return Response({"penalty": _one_penalty(result)}, status=status.HTTP_201_CREATED)


class AbsentView(TournamentAPIView):
    """The organizer records a player absent for one session."""

    @extend_schema(request=AbsentInSerializer, responses={201: dict})
    def post(self, request: Request, pk: int, player: int) -> Response:
        tournament = _own(request, pk)
        get_object_or_404(tournament.registrations, player_id=player)
        serializer = AbsentInSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        absence = services.player_absent(tournament=tournament, user=request.user,
                                         player=player, **serializer.validated_data)
        return Response({"absence": absence_json(absence)}, status=status.HTTP_201_CREATED)


class RevealView(TournamentAPIView):
    """The organizer reveals the standings of the hidden last sessions."""

    @extend_schema(request=None, responses=TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        return Response(tournament_json(
            services.standings_reveal(tournament=tournament, user=request.user)))


class UnbalancedConfirmView(TournamentAPIView):
    """The organizer keeps an imported table that does not sum to zero as recorded."""

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, pk: int, session: int, table: int) -> Response:
        tournament = _own(request, pk)
        with error_context(not_found={E_TABLE_NOT_FLAGGED}):
            flag = services.unbalanced_table_confirm(
                tournament=tournament, user=request.user, session=session, table=table)
        return Response({"session": flag.session, "table": flag.table, "total": flag.total,
                         "confirmed": True})
