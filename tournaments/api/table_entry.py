"""A session as the organizer (or an officer) follows it: each table missing, entered at the
table or agreed, with the problems the scoring core found.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api._common import TournamentAPIView, _own, _visible
from tournaments.models import Session, TableEntry
from tournaments.permissions import can_manage
from tournaments.problem_texts import problem_message
from tournaments.services.table_entry import KEEP_ORGANIZER, KEEP_TABLE


class SessionTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["missing", "entered", "agreed"])
    source = serializers.CharField(
        allow_null=True, help_text='how this table\'s stored results came in: "form", "csv", '
                                   '"api" or "table" (the players agreed at the table)')
    version = serializers.IntegerField(
        help_text="the stored results' version (0: none); a post of results carries it "
                  "as the table's \"version\"")
    held = serializers.DictField(
        allow_null=True, help_text="the players agreed a different sheet after the "
                                   "organizer entered the table: their version, waiting for "
                                   "the organizer's choice (POST .../choice)")
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
                 "version": row.version,
                 "held": _held(row.entry) if row.held and row.entry else None,
                 "problems": [{**p.to_dict(), "message": problem_message(p)}
                              for p in row.problems],
                 "unbalanced": ({"total": flags[row.table].total,
                                 "confirmed": flags[row.table].confirmed_at is not None}
                                if row.table in flags else None)}
                for row in selectors.session_tables(tournament, session)
            ],
        })


def _held(entry: TableEntry) -> dict[str, Any] | None:
    version = selectors.table_sheet_version(entry)
    return version.to_dict() if version is not None else None


class TableChoiceInSerializer(serializers.Serializer):
    keep = serializers.ChoiceField(choices=[KEEP_ORGANIZER, KEEP_TABLE])


class TableChoiceView(TournamentAPIView):
    """The organizer's choice for a table whose players agreed after the organizer had
    entered it: keep the organizer's results ("organizer") or take the players' ("table")."""

    @extend_schema(request=TableChoiceInSerializer, responses=SessionTableSerializer)
    def post(self, request: Request, pk: int, session: int, table: int) -> Response:
        tournament = _own(request, pk)
        entry = TableEntry.objects.filter(tournament=tournament, session=session,
                                          table=table).first()
        if entry is None:
            raise Http404
        services.table_entry_hold_resolve(entry=entry, user=request.user,
                                          keep=str(request.data.get("keep", "")))
        row = next(r for r in selectors.session_tables(tournament, session) if r.table == table)
        return Response({"table": row.table, "state": row.state, "source": row.source,
                         "version": row.version, "held": None,
                         "problems": [], "unbalanced": None})
