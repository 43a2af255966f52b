"""Importing a past tournament's final standings (docs/decisions/0810-final-standings-imports.md):
``POST /api/v1/imports/tournaments`` (multipart: ``file`` and the tournament's fields;
``?dry_run=true`` previews; ``choices`` and ``mapping`` JSON objects). Its reports are every import's
(``GET /api/v1/imports/{id}/report``, decision 0815)."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api._common import TournamentAPIView
from tournaments.permissions import can_accredit
from tournaments.services.imports import ImportRefused, ImportReport, tournament_import

FIELDS = ("name", "ruleset", "start_date", "end_date", "city", "country", "mers",
          "mers_weight", "abroad", "rated")


def _officer_only(request: Request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    if not can_accredit(request.user):
        raise PermissionDenied()


def choices_read(text: Any, report: ImportReport) -> dict[int, int | None]:
    """``choices``: a JSON object row -> player id, or null / "new" for a new player."""
    if not text:
        return {}
    try:
        raw = json.loads(text) if isinstance(text, str) else text
        return {int(row): (None if value in (None, "new", 0) else int(value))
                for row, value in dict(raw).items()}
    except (TypeError, ValueError):
        report.error(None, "choices", "bad_field", value=str(text)[:100])
        raise ImportRefused(report) from None


def mapping_read(text: Any, report: ImportReport) -> dict[str, str]:
    """``mapping``: a JSON object, the file's header -> a column of the import."""
    if not text:
        return {}
    try:
        raw = json.loads(text) if isinstance(text, str) else text
        if not isinstance(raw, dict):
            raise TypeError
        return {str(k): str(v) for k, v in raw.items()}
    except (TypeError, ValueError):
        report.error(None, "mapping", "bad_json_object")
        raise ImportRefused(report) from None


class TournamentImportView(TournamentAPIView):
    @extend_schema(request=None, responses=None)
    def post(self, request: Request) -> Response:
        _officer_only(request)
        upload = request.FILES.get("file")
        report = ImportReport()
        if upload is None:
            report.error(None, "file", "field_required")
            raise ImportRefused(report)
        content = upload.read()  # the body's size is bounded by ApiErrorsMiddleware
        choices = choices_read(request.data.get("choices"), report)
        mapping = mapping_read(request.data.get("mapping"), report)
        dry_run = str(request.query_params.get("dry_run", "")).lower() in {"1", "true", "yes"}
        data = {name: request.data.get(name) for name in FIELDS if name in request.data}
        result = tournament_import(user=request.user, data=data, content=content,
                                   filename=upload.name or "", dry_run=dry_run,
                                   choices=choices, mapping=mapping)
        return Response(result.as_json(), status=200 if dry_run else 201)
