"""The federation's qualification lists (issue 39, decision 0842): the public pages of the
published lists and their exports (CSV, XLSX; formula-safe writers). The accreditation
officers edit them in the admin (``ratings.viewsets``) and see them before publication."""

from __future__ import annotations

import io

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from core import csv_export
from ratings.models import QualificationList, StoredRanking
from ratings.rankings import ema_ranking_store
from ratings.selectors import ema_ranking_stored, ruleset_name
from ratings.selectors.qualification import QualificationRow, qualification_rows
from tournaments.xlsx import CONTENT_TYPE, sheet_write

EDIT_PERMISSION = "ratings.change_qualificationlist"


def may_edit(user: object) -> bool:
    """An accreditation officer (or a superuser): edits the lists, sees them unpublished."""
    return bool(getattr(user, "is_authenticated", False)
                and user.has_perm(EDIT_PERMISSION))  # type: ignore[attr-defined]


def _visible(request: HttpRequest, pk: int) -> QualificationList:
    ql = get_object_or_404(QualificationList, pk=pk)
    if not ql.published and not may_edit(request.user):
        raise Http404
    return ql


def _stored(ql: QualificationList) -> StoredRanking | None:
    if ql.rule != QualificationList.Rule.EMA:
        return None
    today = timezone.localdate()
    return ema_ranking_stored(ql.ruleset, today) or ema_ranking_store(ruleset=ql.ruleset,
                                                                       on=today)


def _status(row: QualificationRow) -> str:
    return _("qualified") if row.status == "qualified" else _("reserve")


def qualification_index(request: HttpRequest) -> HttpResponse:
    lists = QualificationList.objects.all()
    if not may_edit(request.user):
        lists = lists.filter(published=True)
    return render(request, "ratings/qualification_index.html", {"lists": list(lists)})


def qualification_page(request: HttpRequest, pk: int) -> HttpResponse:
    ql = _visible(request, pk)
    rows = qualification_rows(ql, _stored(ql))
    return render(request, "ratings/qualification.html", {
        "ql": ql, "rows": [(r, _status(r)) for r in rows],
        "ruleset_name": ruleset_name(ql.ruleset), "can_edit": may_edit(request.user),
    })


def _export(ql: QualificationList) -> tuple[list[str], list[list[object]]]:
    header = ["position", "status", "player", "name", "country", "ema_number", ql.rule]
    rows = [[r.position, r.status, r.player.pk, str(r.player), r.player.country,
             r.player.ema_number, r.figure] for r in qualification_rows(ql, _stored(ql))]
    return header, rows


def _filename(ql: QualificationList, ext: str) -> str:
    return f"qualification-{slugify(ql.name) or ql.pk}.{ext}"


def qualification_csv(request: HttpRequest, pk: int) -> HttpResponse:
    ql = _visible(request, pk)
    header, rows = _export(ql)
    return csv_export.csv_response(_filename(ql, "csv"), header, rows)


def qualification_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    ql = _visible(request, pk)
    header, rows = _export(ql)
    out = io.BytesIO()
    sheet_write(out, ql.name, header, rows)
    response = HttpResponse(out.getvalue(), content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{_filename(ql, "xlsx")}"'
    return response
