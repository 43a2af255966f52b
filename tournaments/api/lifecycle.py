"""The tournament API under /api/v1/ (the contract of issue 11: names are kept exactly).

Visibility first (404 for a tournament the caller may not see: another organizer's draft),
then the role (403). Errors are 400 ``{"errors": [{"row", "session", "table", "seat",
"hand", "field", "code", "message"}]}`` with the keys that apply (a problem of the results:
``Problem.to_dict`` of the scoring core, the message in the caller's language).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django_countries import countries
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import error_context
from core.pagination import PAGE_INVALID, api_page, page_number
from core.tokens import CachedTokenAuthentication
from rulebook.scoring.standings import WINDS, Problem
from tournaments import ema_export, selectors, services
from tournaments.errors import (
    E_ILLEGAL_TRANSITION,
    E_PENALTY_NOT_GIVEN,
    E_REGISTRATION_CLOSED,
    E_TABLE_NOT_FLAGGED,
)
from tournaments.models import PUBLIC_STATES, Absence, Entry, Player, Session, Tournament
from tournaments.permissions import can_accredit, can_manage, can_organize, is_organizer
from tournaments.problem_texts import check_message, error_message, problem_message
from tournaments.rules.results_files import parse_results_json


class TournamentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = [
            "id", "state", "name", "start_date", "end_date", "city", "country", "venue", "club",
            "ruleset", "variant", "individual", "team", "sessions", "session_minutes",
            "planned_players", "fee", "currency", "contact", "website", "withdrawn_ranking",
            "mers", "mers_weight", "max_players", "fee_member", "fee_other", "fee_reduced",
            "reduced_for", "entries_open",
            "members_first_until", "refund_until", "payment_days", "absent_score",
            "absent_table_points", "absent_game_points", "hide_last_sessions",
            "standings_revealed_at",
        ]
        read_only_fields = ["id", "state", "mers", "mers_weight", "standings_revealed_at"]

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


class SeedSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    from_session = serializers.IntegerField(
        required=False, allow_null=True, min_value=1,
        help_text="keep the sessions before this one, redraw the rest")
    separate_countries = serializers.BooleanField(
        required=False,
        help_text="players of one country meet as rarely as possible (after repeat "
                  "meetings); kept as the tournament's setting, which applies when absent")


class WithdrawSerializer(serializers.Serializer):
    from_session = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300,
                                   default="")


# Schema-only serializers: they document the JSON shapes for the OpenAPI schema; the
# bodies themselves are read by tournaments.rules.results_files (which reports every problem at once).


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


class SeatingTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    seats = serializers.DictField(child=serializers.IntegerField(),
                                  help_text="wind (E, S, W, N) -> player id")


class SeatingSessionSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    tables = SeatingTableSerializer(many=True)


class SeatingOutSerializer(serializers.Serializer):
    sessions = SeatingSessionSerializer(many=True)
    repeat_pairs = serializers.IntegerField(allow_null=True)
    country_pairs = serializers.IntegerField(
        allow_null=True,
        help_text="pairs of compatriots seated at one table, counted over the sessions")
    separate_countries = serializers.BooleanField()
    seed = serializers.IntegerField(allow_null=True)


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


class ResultSessionSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    tables = ResultTableSerializer(many=True)


class ResultsInSerializer(serializers.Serializer):
    sessions = ResultSessionSerializer(many=True)


class CorrectionInSerializer(ResultsInSerializer):
    reason = serializers.CharField()


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


class TournamentAPIView(APIView):
    """Token first: an anonymous write gets 401 with ``WWW-Authenticate: Token``."""

    authentication_classes = [CachedTokenAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]


def _errors(items: list[dict[str, Any]], code: int = 400) -> Response:
    return Response({"errors": items}, status=code)


def _serializer_errors(errors: Any, prefix: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(errors, list):
        for index, item in enumerate(errors, start=1):
            if item:
                out.extend(_serializer_errors(item, {**(prefix or {}), "row": index}))
        return out
    if errors and all(isinstance(key, int) for key in errors):  # a list's errors by index
        for index, item in sorted(errors.items()):
            out.extend(_serializer_errors(item, {**(prefix or {}), "row": index + 1}))
        return out
    for name, messages in errors.items():
        for message in messages if isinstance(messages, list) else [messages]:
            field = None if name == "non_field_errors" else name
            entry = {**(prefix or {})}
            if field:
                entry["field"] = field
            entry["code"] = getattr(message, "code", None) or "invalid"
            entry["message"] = str(message)
            out.append(entry)
    return out


def _visible(request: Request, pk: int) -> Tournament:
    return get_object_or_404(selectors.tournaments_visible_to(request.user), pk=pk)


def _own(request: Request, pk: int) -> Tournament:
    """The caller's own tournament: 404 if they cannot see it, 403 if it is not theirs."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    tournament = _visible(request, pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied()
    return tournament


def _officer(request: Request, pk: int) -> Tournament:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    tournament = _visible(request, pk)
    if not can_accredit(request.user):
        raise PermissionDenied()
    return tournament


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
        return Response(tournament_json(_visible(request, pk)))

    @extend_schema(request=TournamentSerializer, responses=TournamentSerializer)
    def patch(self, request: Request, pk: int) -> Response:
        """The organizer changes their draft or rejected tournament (the fields given)."""
        tournament = _own(request, pk)
        serializer = TournamentSerializer(tournament, data=request.data, partial=True)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        tournament = services.tournament_update(
            tournament=tournament, user=request.user, data=serializer.validated_data)
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
        return Response(tournament_json(tournament))


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
        if tournament.state != Tournament.State.RESULTS_CONFIRMED:
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
                tournament=tournament, user=request.user, entries=entries, rows=rows)
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


def seating_json(tournament: Tournament) -> dict[str, Any]:
    sessions: dict[int, dict[int, dict[str, int]]] = {}
    for row in tournament.seating.all():
        sessions.setdefault(row.session, {}).setdefault(row.table, {})[row.seat] = row.player_id
    return {
        "sessions": [
            {"session": s, "tables": [
                {"table": t, "seats": {w: seats[w] for w in WINDS if w in seats}}
                for t, seats in sorted(tables.items())
            ]}
            for s, tables in sorted(sessions.items())
        ],
        "repeat_pairs": tournament.seating_repeat_pairs,
        "country_pairs": tournament.seating_country_pairs,
        "separate_countries": tournament.seating_separate_countries,
        "seed": tournament.seating_seed,
    }


class SeatingView(TournamentAPIView):
    @extend_schema(responses=SeatingOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(seating_json(_visible(request, pk)))

    @extend_schema(request=SeedSerializer, responses=SeatingOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        tournament = _own(request, pk)
        serializer = SeedSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        services.seating_draw(
            tournament=tournament, user=request.user, seed=serializer.validated_data["seed"],
            from_session=serializer.validated_data.get("from_session"),
            separate_countries=serializer.validated_data.get("separate_countries"),
        )
        tournament.refresh_from_db()
        return Response(seating_json(tournament))


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
    @extend_schema(request=ResultsInSerializer, responses=StandingSerializer(many=True))
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


def _one_penalty(penalty: Any) -> dict[str, Any]:
    row = selectors.PenaltyRow(penalty, str(penalty.player),
                               str(penalty.to_player) if penalty.to_player_id else "")
    return penalty_json(row, manager=True)


def absence_json(absence: Any) -> dict[str, Any]:
    return {"id": absence.pk, "session": absence.session, "player": absence.player_id,
            "reason": absence.reason, "late_minutes": absence.late_minutes}


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


class SessionTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["missing", "entered", "agreed"])
    source = serializers.CharField(allow_null=True)
    problems = serializers.ListField(child=serializers.DictField())
    unbalanced = serializers.DictField(
        allow_null=True, help_text="imported totals that do not sum to zero: "
                                   '{"total", "confirmed"} (kept as recorded once confirmed)')


class SessionOutSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    source = serializers.CharField(allow_null=True)
    tables = SessionTableSerializer(many=True)


class SessionView(TournamentAPIView):
    """The organizer's (or an officer's) view of a session: each table missing, entered at
    the table (not yet agreed by all four) or agreed (stored), with the problems the scoring
    core found in the lines entered."""

    @extend_schema(responses=SessionOutSerializer)
    def get(self, request: Request, pk: int, session: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = _visible(request, pk)
        if not can_manage(request.user, tournament):
            raise PermissionDenied()
        if not 1 <= session <= tournament.sessions:
            raise Http404
        record = Session.objects.filter(tournament=tournament, number=session).first()
        flags = {f.table: f for f in selectors.unbalanced_tables(tournament, session)}
        return Response({
            "session": session,
            "source": record.source if record else None,
            "tables": [
                {"table": row.table, "state": row.state, "source": row.source,
                 "problems": [{**p.to_dict(), "message": problem_message(p)}
                              for p in row.problems],
                 "unbalanced": ({"total": flags[row.table].total,
                                 "confirmed": flags[row.table].confirmed_at is not None}
                                if row.table in flags else None)}
                for row in selectors.session_tables(tournament, session)
            ],
        })


class EntryInSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    country = serializers.CharField(max_length=100)
    ema_number = serializers.CharField(required=False, allow_blank=True, max_length=20,
                                       default="")
    team = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    reduced = serializers.BooleanField(required=False, default=False,
                                       help_text="the person claims the reduced fee")


class EntryOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    fee = serializers.CharField(help_text="decimal string")
    reduced = serializers.BooleanField()
    paid = serializers.BooleanField()
    invoice = serializers.CharField(allow_null=True, help_text="the invoice number")


class EntryListItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()
    status = serializers.CharField()
    paid = serializers.BooleanField()
    email = serializers.CharField(required=False, help_text="its organizer only")


class EntryListSerializer(serializers.Serializer):
    entries = EntryListItemSerializer(many=True)


def entry_json(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk, "status": entry.status, "fee": str(entry.fee),
        "reduced": entry.reduced, "paid": selectors.entry_is_paid(entry),
        "invoice": entry.invoice.number if entry.invoice_id else None,
    }


def entry_list_json(row: selectors.EntryRow, *, contact: bool) -> dict[str, Any]:
    entry = row.entry
    out: dict[str, Any] = {
        "id": entry.pk, "name": entry.name, "country": entry.country, "status": entry.status,
        "paid": row.paid,
    }
    if contact:
        out["email"] = (entry.member.email if entry.member and entry.member.email
                        else entry.user.email)
        out["phone"] = entry.member.phone if entry.member else ""
        out["ema_number"] = entry.ema_number
        out["team"] = entry.team
        out["fee"] = str(entry.fee)
        out["reduced"] = entry.reduced
        out["invoice"] = entry.invoice.number if entry.invoice_id else None
    return out


class EntriesView(TournamentAPIView):
    @extend_schema(request=None, responses=EntryListSerializer)
    def get(self, request: Request, pk: int) -> Response:
        """The public entrants list; contact details only for the tournament's organizer."""
        tournament = _visible(request, pk)
        contact = is_organizer(request.user, tournament)
        rows = selectors.tournament_entries(tournament, public=not contact)
        return Response({"entries": [entry_list_json(r, contact=contact) for r in rows]})

    @extend_schema(request=EntryInSerializer, responses={201: EntryOutSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Enter the signed-in person."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = _visible(request, pk)
        serializer = EntryInSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        entry = services.entry_create(tournament=tournament, user=request.user,
                                      **serializer.validated_data)
        return Response(entry_json(entry), status=status.HTTP_201_CREATED)


class EntryWithdrawView(TournamentAPIView):
    @extend_schema(request=None, responses=EntryOutSerializer)
    def post(self, request: Request, pk: int, entry: int) -> Response:
        """Withdraw an entry: the person who entered, or the tournament's organizer."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = _visible(request, pk)
        row = get_object_or_404(Entry, pk=entry, tournament=tournament)
        if row.user_id != request.user.pk and not is_organizer(request.user, tournament):
            raise PermissionDenied()
        row = services.entry_withdraw(entry=row, user=request.user)
        return Response(entry_json(row))
