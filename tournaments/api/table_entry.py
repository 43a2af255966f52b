"""A session as the organizer (or an officer) follows it: each table missing, entered at the
table or agreed, with the problems the scoring core found.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors
from tournaments.api._common import TournamentAPIView, _visible
from tournaments.models import Session
from tournaments.permissions import can_manage
from tournaments.problem_texts import problem_message


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
