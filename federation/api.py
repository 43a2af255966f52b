"""Membership's endpoints: the members import (issue 35). The membership officer only."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.imports import upload_read
from core.tokens import CachedTokenAuthentication
from federation import services
from federation.services.member_import import describe

IMPORT_MEMBERS = "federation.import_members"


class MembersImportView(APIView):
    """``POST /api/v1/imports/members``: multipart ``file`` (CSV or XLSX), optional
    ``mapping`` (JSON: header -> field) and ``decisions`` (JSON: row -> "new" or a member's
    id); ``?dry_run=true`` previews. Answers the import's report; a file with any error
    answers it with 400 and writes nothing."""

    authentication_classes = [CachedTokenAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses=None)
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not request.user.has_perm(IMPORT_MEMBERS):
            raise PermissionDenied()
        upload = upload_read(request.FILES, request.data, request.query_params)
        report = services.members_import(
            data=upload.data, file_name=upload.file_name, imported_by=request.user,
            mapping=upload.mapping, decisions=upload.decisions, dry_run=upload.dry_run)
        return Response(report.as_json(describe))
