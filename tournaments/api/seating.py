"""The seating: as drawn, and the organizer's draw (all sessions, or from a session on).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from rulebook.scoring.standings import WINDS
from tournaments import selectors, services
from tournaments.api._common import TournamentAPIView, _errors, _own, _serializer_errors, _visible
from tournaments.models import Tournament
from tournaments.rules.seating_draw import SEED_MAX, SEED_MIN


class SeedSerializer(serializers.Serializer):
    seed = serializers.IntegerField(min_value=SEED_MIN, max_value=SEED_MAX)
    from_session = serializers.IntegerField(
        required=False, allow_null=True, min_value=1,
        help_text="keep the sessions before this one, redraw the rest")
    separate_countries = serializers.BooleanField(
        required=False,
        help_text="players of one country meet as rarely as possible (after repeat "
                  "meetings); kept as the tournament's setting, which applies when absent")


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
    published = serializers.IntegerField(
        help_text="the seating is public up to this session (0: none); others than the "
                  "organizer and the officers get only these sessions")


def seating_json(tournament: Tournament, through: int | None = None) -> dict[str, Any]:
    """The seating (the sessions up to ``through``; None: every session)."""
    sessions: dict[int, dict[int, dict[str, int]]] = {}
    rows = tournament.seating.all()
    if through is not None:
        rows = rows.filter(session__lte=through)
    for row in rows:
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
        "published": selectors.seating_published(tournament),
    }


class SeatingView(TournamentAPIView):
    @extend_schema(responses=SeatingOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        return Response(seating_json(
            tournament, selectors.seating_visible_through(tournament, request.user)))

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
