"""Membership's endpoints: the members import (issue 35). The membership officer only."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core import csv_export
from core.imports import STORED_KEYS, report_csv_rows, upload_read
from core.tokens import CachedTokenAuthentication
from federation import services
from federation.models import ImportRun
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


def import_report_json(run: ImportRun) -> dict[str, Any]:
    """A committed import's report (decision 0815): who, when, which file, and the stored
    report in the one format of every import (``core.imports.STORED_KEYS``)."""
    by = run.created_by
    return {
        "id": run.pk, "kind": run.kind, "file_name": run.file_name,
        "imported_by": ({"id": by.pk, "name": by.get_full_name() or by.get_username()}
                        if by is not None else None),
        "imported_at": run.committed_at.isoformat() if run.committed_at else None,
        **{key: run.report.get(key, None if key == "tournament" else [])
           for key in STORED_KEYS},
    }


class ImportReportView(APIView):
    """``GET /api/v1/imports/{id}/report`` (JSON) and ``.../report.csv``: the report of a
    committed import of any kind, for the roles that own its data
    (``federation.import_views.import_report_allowed``)."""

    authentication_classes = [CachedTokenAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]
    kind = ""  # the old ``/imports/tournaments/{id}/report`` answers that kind only
    as_csv = False

    @extend_schema(request=None, responses=None)
    def get(self, request: Request, pk: int) -> Response | HttpResponse:
        from federation.import_views import import_report_allowed

        if not request.user.is_authenticated:
            raise NotAuthenticated()
        runs = ImportRun.objects.filter(committed_at__isnull=False).select_related(
            "created_by").defer("data")
        if self.kind:
            runs = runs.filter(kind=self.kind)
        run = get_object_or_404(runs, pk=pk)
        if not import_report_allowed(run.kind, request.user):
            raise PermissionDenied()
        name = f"import-{run.pk}-{run.kind}-report"
        if self.as_csv:
            rows = list(report_csv_rows(run.report))
            return csv_export.csv_response(f"{name}.csv", rows[0], rows[1:])
        response = Response(import_report_json(run))
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response
