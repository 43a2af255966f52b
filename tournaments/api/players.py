"""The registered players: the list (member and EMA numbers for the organizer and the
officers), registering players in bulk (every problem of every row at once), removing one
registered by mistake, withdrawing one from a session on.

A row naming a member number is not matched when it is posted: it waits, answered alike
whether the number and the name belong together or not, until the organizer confirms it
(``players/pending``, ``players/pending/confirm``); only the confirmation matches it and
names the member (issue 37, item 2; decision 0909).
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
from tournaments.forms import MEMBER_NUMBER_MAX
from tournaments.models import PendingRegistration
from tournaments.permissions import can_manage
from tournaments.problem_texts import error_message, problem_message

MAX_PLAYERS_PER_CALL = 1000  # docs/reliability.md, item 7


class PlayerInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    country = serializers.CharField(max_length=100)  # checked by the service, row by row
    member_number = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                             max_value=MEMBER_NUMBER_MAX)
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
    status = serializers.ChoiceField(
        choices=["registered", "pending"],
        help_text="pending: a row naming a member number, waiting for the organizer's "
                  "confirmation (players/pending/confirm); its other fields are the row as "
                  "given")
    pending = serializers.IntegerField(required=False,
                                       help_text="the waiting row's id (status pending)")
    id = serializers.IntegerField(allow_null=True, help_text="the player (null while pending)")
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    country = serializers.CharField()
    member_number = serializers.IntegerField(allow_null=True, required=False,
                                             help_text="organizer and officers only")
    ema_number = serializers.CharField(required=False, help_text="organizer and officers only")
    team = serializers.CharField()
    substitute = serializers.BooleanField()
    withdrawn_from = serializers.IntegerField(allow_null=True)
    withdrawal_reason = serializers.CharField(help_text="organizer and officers only")


class PendingOutSerializer(serializers.Serializer):
    pending = serializers.IntegerField()
    status = serializers.CharField()
    name = serializers.CharField()
    country = serializers.CharField()
    member_number = serializers.IntegerField()
    date_of_birth = serializers.DateField(allow_null=True)
    ema_number = serializers.CharField()
    team = serializers.CharField()
    substitute = serializers.BooleanField()


class PendingConfirmSerializer(serializers.Serializer):
    pending = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1), required=False,
        allow_null=True, max_length=MAX_PLAYERS_PER_CALL,
        help_text="the waiting rows to confirm; all of them when left out")


class WithdrawSerializer(serializers.Serializer):
    from_session = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300,
                                   default="")


def registration_json(registration: Any, *, identifiers: bool = True) -> dict[str, Any]:
    """A registered player; member and EMA numbers only for the organizer and officers."""
    if isinstance(registration, PendingRegistration):
        return pending_json(registration)
    player = registration.player
    out = {
        "status": "registered", "id": player.pk, "number": registration.number, "name": str(player),
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


def pending_json(row: PendingRegistration) -> dict[str, Any]:
    """A row waiting for the organizer's confirmation: the row as given, nothing more (the
    same answer whether its member number and name belong together or not)."""
    return {
        "status": "pending", "pending": row.pk, "id": None, "number": None,
        "name": row.name, "country": row.country, "member_number": row.member_number,
        "date_of_birth": row.date_of_birth.isoformat() if row.date_of_birth else None,
        "ema_number": row.ema_number, "team": row.team, "substitute": row.substitute,
        "withdrawn_from": None, "withdrawal_reason": "",
    }


def _member_lookups_check(request: Request, view: Any, lookups: int) -> None:
    """Each row naming a member number uses one lookup of the organizer's budget
    (core.throttles.MemberLookupRateThrottle), checked before anything is matched."""
    request.member_lookups = lookups  # type: ignore[attr-defined]
    throttle = MemberLookupRateThrottle()
    if not throttle.allow_request(request, view):
        view.throttled(request, throttle.wait())


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
        _member_lookups_check(request, self, sum(
            1 for item in data
            if isinstance(item, dict) and item.get("member_number") not in (None, "")))
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
                confirm_name_matches=True, hold_member_numbers=True)
            if shape_errors:
                raise services.ResultsError([])
        return Response([registration_json(r) for r in registrations])


class PendingPlayersView(TournamentAPIView):
    """The rows naming a member number that wait for the organizer's confirmation (the
    organizer only)."""

    @extend_schema(responses=PendingOutSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        return Response([pending_json(row)
                         for row in tournament.pending_registrations.order_by("pk")])


class PendingConfirmView(TournamentAPIView):
    """The organizer confirms waiting rows: each is matched now (the member's name or date
    of birth must agree) and registered. All or nothing: a row whose number and name do
    not belong together is an error naming the waiting row (``pending``), and every row
    keeps waiting. Each row uses one lookup of the organizer's member-number budget."""

    @extend_schema(request=PendingConfirmSerializer, responses=PlayerOutSerializer(many=True))
    def post(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        serializer = PendingConfirmSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        wanted = serializer.validated_data.get("pending")
        waiting = tournament.pending_registrations.order_by("pk")
        rows = list(waiting if wanted is None else waiting.filter(pk__in=wanted))
        unknown = sorted(set(wanted or ()) - {row.pk for row in rows})
        if unknown:
            return _errors([{"field": "pending", "code": "not_found", "pending": number,
                             "message": error_message("pending_not_found",
                                                      {"pending": number})}
                            for number in unknown])
        if not rows:
            return Response([])
        _member_lookups_check(request, self, len(rows))
        with error_context(extra=lambda error: {"errors": [
                {("pending" if key == "row" else key): value for key, value in item.items()}
                for item in error.items()]} if isinstance(error, services.ResultsError) else {}):
            registrations = services.registrations_pending_confirm(
                tournament=tournament, user=request.user, pending=rows)
        return Response([registration_json(r) for r in registrations])


class PendingPlayerView(TournamentAPIView):
    """The organizer drops a waiting row (a wrong member number or name)."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, pending: int) -> Response:
        tournament = _own(request, pk)
        row = get_object_or_404(tournament.pending_registrations, pk=pending)
        services.registration_pending_remove(pending=row, user=request.user)
        return Response(status=204)


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
