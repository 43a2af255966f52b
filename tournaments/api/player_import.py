"""``POST /api/v1/imports/players``: the EMA player register imported (issue 35, item 2),
by an accreditation or a membership officer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from core.imports import upload_read
from tournaments import services
from tournaments.api._common import TournamentAPIView
from tournaments.permissions import can_import_players
from tournaments.services.player_import import describe


class PlayersImportView(TournamentAPIView):
    """Multipart ``file`` (CSV or XLSX: EMA number, last name, first name, country),
    optional ``mapping`` and ``decisions`` (JSON objects); ``?dry_run=true`` previews.
    Answers the import's report; a file with any error answers it with 400 and writes
    nothing."""

    @extend_schema(request=None, responses=None)
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not can_import_players(request.user):
            raise PermissionDenied()
        upload = upload_read(request.FILES, request.data, request.query_params)
        report = services.players_import(
            data=upload.data, file_name=upload.file_name, imported_by=request.user,
            mapping=upload.mapping, decisions=upload.decisions, dry_run=upload.dry_run)
        return Response(report.as_json(describe))
