"""Results and standings: the organizer posts results and confirms them, an officer
corrects confirmed ones; the standings (the last sessions hidden from the public until
revealed) and the EMA's results sheet.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import ema_export, selectors, services
from tournaments.api._common import TournamentAPIView, _errors, _officer, _own, _visible
from tournaments.api.lifecycle import TournamentSerializer, tournament_json
from tournaments.api.penalties import PenaltyOutSerializer, penalty_json
from tournaments.errors import E_ILLEGAL_TRANSITION
from tournaments.models import PUBLIC_STATES, Player, Session, Tournament
from tournaments.permissions import can_manage
from tournaments.problem_texts import error_message
from tournaments.rules import states
from tournaments.rules.results_files import parse_results_json

# Schema-only serializers: they document the JSON shapes for the OpenAPI schema; the bodies
# themselves are read by tournaments.rules.results_files (which reports every problem at once).


class ResultSeatSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    game_points = serializers.IntegerField(required=False)
    penalty = serializers.IntegerField(required=False, default=0)


class ResultHandSerializer(serializers.Serializer):
    winner = serializers.IntegerField(required=False)
    # "from" is a Python keyword: the field is put into the class namespace by name
    locals()["from"] = serializers.IntegerField(
        required=False, allow_null=True, help_text="the discarder; null when self-drawn")
    points = serializers.IntegerField(required=False)
    fans = serializers.ListField(child=serializers.CharField(), required=False)
    tiles = serializers.CharField(required=False)
    context = serializers.DictField(required=False)
    draw = serializers.BooleanField(required=False)
    penalty = serializers.IntegerField(required=False, help_text="offender of a transferred "
                                       "penalty")


class ResultTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    seats = ResultSeatSerializer(many=True)
    hands = ResultHandSerializer(many=True, required=False)
    version = serializers.IntegerField(
        required=False, min_value=0,
        help_text="the version of this table's stored results you saw (GET .../sessions/{n}; "
                  "0: none stored). Another version stored meanwhile answers 409 with both "
                  "versions; without it, only results the players agreed at the table are "
                  "protected")


class ResultSessionSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    tables = ResultTableSerializer(many=True)


class ResultsInSerializer(serializers.Serializer):
    sessions = ResultSessionSerializer(many=True)


class CorrectionInSerializer(ResultsInSerializer):
    reason = serializers.CharField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True,
                                    help_text="null: a substitute, or a withdrawn player "
                                              "when the tournament does not rank them")
    substitute = serializers.BooleanField()
    withdrawn_from = serializers.IntegerField(allow_null=True)
    player = serializers.IntegerField()
    name = serializers.CharField()
    table_points = serializers.FloatField()
    game_points = serializers.IntegerField()
    penalties = serializers.IntegerField()
    penalty_details = PenaltyOutSerializer(many=True, help_text="this player's penalties")
    absent_sessions = serializers.ListField(child=serializers.IntegerField())


def standings_json(tournament: Tournament, *, up_to: int | None = None,
                   manager: bool = True) -> list[dict[str, Any]]:
    """The standings (after session ``up_to`` when the last sessions are hidden), each
    row with the player's penalties and the sessions they missed."""
    penalties: dict[int, list[dict[str, Any]]] = {}
    for row in selectors.tournament_penalties(tournament, up_to):
        penalties.setdefault(row.penalty.player_id, []).append(
            penalty_json(row, manager=manager))
    absent: dict[int, list[int]] = {}
    for absence in selectors.tournament_absences(tournament, up_to):
        absent.setdefault(absence.player_id, []).append(absence.session)
    return [
        {
            "rank": row.rank, "player": row.player, "name": row.name,
            "table_points": row.table_points_number, "game_points": row.game_points,
            "penalties": row.penalties, "substitute": row.substitute,
            "withdrawn_from": row.withdrawn_from,
            "penalty_details": penalties.get(row.player, []),
            "absent_sessions": absent.get(row.player, []),
        }
        for row in selectors.tournament_standings(tournament, up_to)
    ]


class ResultsView(TournamentAPIView):
    @extend_schema(request=ResultsInSerializer, responses={
        200: StandingSerializer(many=True),
        409: dict})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        services.results_open(tournament)
        sessions, problems = parse_results_json(request.data)
        if problems:
            raise services.ResultsError(services.results_problems(
                tournament=tournament, sessions=sessions, parse_problems=problems,
                allow_unbalanced=True))
        services.results_record(tournament=tournament, user=request.user,
                                sessions=sessions, source=Session.Source.API,
                                allow_unbalanced=True)
        return Response(standings_json(tournament))


class CorrectionView(TournamentAPIView):
    """An accreditation officer corrects confirmed results: the results body plus a
    ``reason``."""

    @extend_schema(request=CorrectionInSerializer, responses=TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        tournament = _officer(request, pk)
        services.correction_open(tournament)
        sessions, problems = parse_results_json(request.data)
        if problems:
            raise services.ResultsError(services.results_problems(
                tournament=tournament, sessions=sessions, parse_problems=problems))
        with transaction.atomic():
            services.tournament_correct(
                tournament=tournament, user=request.user, sessions=sessions,
                reason=str(request.data.get("reason", "")), source=Session.Source.API,
            )
        tournament.refresh_from_db()
        return Response(tournament_json(tournament, standings=standings_json(tournament)))


class ConfirmView(TournamentAPIView):
    @extend_schema(request=None, responses=TournamentSerializer)
    def post(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        tournament = services.tournament_confirm(tournament=tournament, user=request.user)
        return Response(tournament_json(tournament))


class StandingsView(TournamentAPIView):
    @extend_schema(responses=StandingSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        if tournament.state not in PUBLIC_STATES and not can_manage(request.user, tournament):
            raise Http404
        up_to = selectors.standings_cutoff(tournament, request.user)
        response = Response(standings_json(
            tournament, up_to=up_to, manager=can_manage(request.user, tournament)))
        if up_to is not None:
            # the last sessions are hidden until the organizer reveals them
            response["X-Standings-After-Session"] = str(up_to)
        return response


class EmaResultsView(TournamentAPIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, pk: int) -> Response:
        """The EMA's results sheet of a confirmed tournament (organizer and officers): refused
        with the players to fix while a ranked member of a MERS tournament has no EMA
        number."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = _visible(request, pk)
        if not can_manage(request.user, tournament):
            raise PermissionDenied()
        if not states.allows("ema-results", tournament.state):
            raise services.TournamentError(
                E_ILLEGAL_TRANSITION, state=tournament.state, action="ema-results")
        standings = selectors.tournament_ema_standings(tournament)
        missing = ema_export.players_to_fix(standings, mers=tournament.mers)
        if missing:
            names = {p.pk: str(p) for p in Player.objects.filter(pk__in=missing)}
            return _errors([{
                "field": "ema_number", "code": "ema_ids_missing",
                "message": error_message(
                    "ema_ids_missing", {"players": ", ".join(names[i] for i in missing)}),
                "players": [{"id": i, "name": names[i]} for i in missing],
            }])
        return Response({
            "tournament": tournament.pk,
            "mers": tournament.mers,
            "columns": list(ema_export.HEADER),
            "rows": [
                {
                    "place": r.place, "first_name": r.first_name, "last_name": r.last_name,
                    "ema_number": r.ema_number, "table_points": float(r.table_points),
                    "score": r.score, "ema_member": r.ema_member, "country": r.country,
                }
                for r in ema_export.ema_rows(standings)
            ],
        })
