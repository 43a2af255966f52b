"""The registered players: the list (member and EMA numbers for the organizer and the
officers), registering players in bulk (every problem of every row at once), removing one
registered by mistake, withdrawing one from a session on.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import error_context
from core.throttles import MemberLookupRateThrottle
from rulebook.scoring.standings import Problem
from tournaments import selectors, services
from tournaments.api._common import TournamentAPIView, _errors, _own, _serializer_errors, _visible
from tournaments.errors import E_REGISTRATION_CLOSED
from tournaments.permissions import can_manage
from tournaments.problem_texts import error_message, problem_message

MAX_PLAYERS_PER_CALL = 1000  # docs/reliability.md, item 7


class PlayerInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    country = serializers.CharField(max_length=100)  # checked by the service, row by row
    member_number = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    date_of_birth = serializers.DateField(
        required=False, allow_null=True, default=None,
        help_text="with member_number: matches the member when the name is written otherwise")
    ema_number = serializers.CharField(required=False, allow_blank=True, max_length=20,
                                       default="")
    team = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    substitute = serializers.BooleanField(required=False, default=False)
    first_name = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                       default="")
    last_name = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                      default="")
    confirm = serializers.BooleanField(
        required=False, default=False,
        help_text="a known player of this name and country is the one meant")
    new = serializers.BooleanField(
        required=False, default=False,
        help_text="a known player of this name and country is another person: a new player")


class PlayerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()
    member_number = serializers.IntegerField(allow_null=True, required=False,
                                             help_text="organizer and officers only")
    ema_number = serializers.CharField(required=False, help_text="organizer and officers only")
    team = serializers.CharField()
    substitute = serializers.BooleanField()
    withdrawn_from = serializers.IntegerField(allow_null=True)
    withdrawal_reason = serializers.CharField(help_text="organizer and officers only")


class WithdrawSerializer(serializers.Serializer):
    from_session = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300,
                                   default="")


def registration_json(registration: Any, *, identifiers: bool = True) -> dict[str, Any]:
    """A registered player; member and EMA numbers only for the organizer and officers."""
    player = registration.player
    out = {
        "id": player.pk, "number": registration.number, "name": str(player),
        "country": player.country, "team": registration.team,
        "substitute": registration.substitute,
        "withdrawn_from": registration.withdrawn_from,
    }
    if identifiers:
        out["withdrawal_reason"] = registration.withdrawal_reason
        out["member_number"] = (
            player.member.membership_number if player.member_id else None
        )
        out["ema_number"] = player.ema_number
    return out


class PlayersView(TournamentAPIView):
    @extend_schema(responses=PlayerOutSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        identifiers = can_manage(request.user, tournament)
        return Response([
            registration_json(r, identifiers=identifiers)
            for r in selectors.tournament_registrations(tournament)
        ])

    @extend_schema(request=PlayerInSerializer(many=True),
                   responses=PlayerOutSerializer(many=True))
    def post(self, request: Request, pk: int) -> Response:
        """Every row is checked, its shape and its player, and every problem listed at
        once; at most ``MAX_PLAYERS_PER_CALL`` rows."""
        tournament = _own(request, pk)
        data = request.data
        if not isinstance(data, list):
            return _errors([{"field": "players", "code": "not_list",
                             "message": problem_message(Problem("not_list", ""))}])
        if len(data) > MAX_PLAYERS_PER_CALL:
            return _errors([{"field": "players", "code": "too_many",
                             "limit": MAX_PLAYERS_PER_CALL,
                             "message": error_message("too_many_players_per_call",
                                                      {"limit": MAX_PLAYERS_PER_CALL})}])
        # each row naming a member number uses one lookup of the organizer's budget
        # (core.throttles.MemberLookupRateThrottle), checked before anything is matched
        request.member_lookups = sum(  # type: ignore[attr-defined]
            1 for item in data
            if isinstance(item, dict) and item.get("member_number") not in (None, ""))
        lookups = MemberLookupRateThrottle()
        if not lookups.allow_request(request, self):
            self.throttled(request, lookups.wait())
        entries, rows, shape_errors = [], [], []
        for row, item in enumerate(data, start=1):
            serializer = PlayerInSerializer(data=item)
            if serializer.is_valid():
                entries.append(services.PlayerEntry(**serializer.validated_data))
                rows.append(row)
            else:
                shape_errors.extend(_serializer_errors(serializer.errors, {"row": row}))
        # the rows' problems: those of their shape and those the service found, by row
        with transaction.atomic(), error_context(extra=lambda error: {"errors": sorted(
                shape_errors + error.items(), key=lambda item: item.get("row") or 0)}
                if isinstance(error, services.ResultsError) else {}):
            registrations = services.players_register(
                tournament=tournament, user=request.user, entries=entries, rows=rows,
                confirm_name_matches=True)
            if shape_errors:
                raise services.ResultsError([])
        return Response([registration_json(r) for r in registrations])


class PlayerView(TournamentAPIView):
    """The organizer removes a player registered by mistake, before the seating is drawn
    (afterwards: withdraw)."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, player: int) -> Response:
        tournament = _own(request, pk)
        registration = get_object_or_404(tournament.registrations, player_id=player)
        services.registration_remove(registration=registration, user=request.user)
        return Response(status=204)


class WithdrawView(TournamentAPIView):
    """The organizer withdraws a registered player from a session on."""

    @extend_schema(request=WithdrawSerializer, responses=PlayerOutSerializer)
    def post(self, request: Request, pk: int, player: int) -> Response:
        tournament = _own(request, pk)
        registration = get_object_or_404(
            tournament.registrations.select_related("player__member"), player_id=player)
        serializer = WithdrawSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        with error_context(field=lambda error: error.field
                           if error.code == E_REGISTRATION_CLOSED else "from_session"):
            registration = services.registration_withdraw(
                registration=registration, user=request.user, **serializer.validated_data)
        return Response(registration_json(registration))
