"""The admin's import pages (issue 35; decision 0316), one set for every kind of import:
upload a file, map its columns to the import's fields, see the preview (created, updated,
unchanged, for review, errors with row and column), decide the rows for review, commit;
the report of every committed import stays downloadable (CSV).

Each app registers its kinds (``import_kind_register``): membership the members import
here, tournaments the EMA player register. The uploaded file waits in its ``ImportRun``
between the preview and the commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db.models.fields.json import KT
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from core import csv_export
from core.errors import errors_collected
from core.imports import (
    CREATED,
    ERROR,
    REVIEW,
    UNCHANGED,
    UPDATED,
    ImportFailed,
    ImportField,
    ImportReport,
    mapping_columns,
    mapping_posted,
    report_csv_rows,
)
from core.spreadsheets import MAX_BYTES, SpreadsheetError, spreadsheet_read
from federation.models import ImportRun


@dataclass(frozen=True)
class ImportKind:
    kind: str
    title: Promise
    help: Promise
    fields: Sequence[ImportField]
    field_labels: dict[str, Promise]
    allowed: Callable[[Any], bool]
    run_import: Callable[..., ImportReport] | None
    describe: Callable[[str, dict[str, Any]], str]
    page: str = ""
    """The URL name of the import's own page, when it has one (the tournament import asks
    for the tournament's fields too): the generic upload page sends there."""


KINDS: dict[str, ImportKind] = {}


def import_kind_register(kind: ImportKind) -> None:
    KINDS[kind.kind] = kind


class UploadForm(forms.Form):
    file = forms.FileField(label=_("Spreadsheet (CSV or XLSX)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            limit = MAX_BYTES // (1024 * 1024)
            raise forms.ValidationError(ngettext("The file is larger than %(limit)s MB.",
                                                 "The file is larger than %(limit)s MB.",
                                                 limit) % {"limit": limit})
        return upload


RUNS_PER_PAGE = 25


def import_report_allowed(kind: str, user: Any) -> bool:
    """May ``user`` read the reports of imports of ``kind``: the roles that own the data
    (the kind's ``allowed``: the membership officer for members, the accreditation or
    membership officer for the EMA player register, the accreditation officer for
    tournaments) and superusers."""
    found = KINDS.get(kind)
    return bool(user.is_authenticated and found is not None and found.allowed(user))


def _kind(kind: str, user: Any) -> ImportKind:
    found = KINDS.get(kind)
    if found is None:
        raise Http404
    if not found.allowed(user):
        raise PermissionDenied
    return found


def import_runs_page(kind: str, page: Any) -> Page:
    """The committed imports of a kind, latest first, a page of them (the stored report
    and file left unread)."""
    runs = (ImportRun.objects.filter(kind=kind, committed_at__isnull=False)
            .select_related("created_by").defer("data", "report")
            .annotate(tournament_ref=KT("report__tournament"))
            .order_by("-committed_at", "-pk"))
    return Paginator(runs, RUNS_PER_PAGE).get_page(page)


@require_http_methods(["GET", "POST"])
def import_upload(request: HttpRequest, kind: str) -> HttpResponse:
    """The upload form and the imports of this kind committed before."""
    found = _kind(kind, request.user)
    if found.page:
        return redirect(found.page)
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        run = ImportRun.objects.create(kind=found.kind, file_name=upload.name[:255],
                                       data=upload.read(), created_by=request.user)
        return redirect("import_run", pk=run.pk)
    return render(request, "federation/admin/import_upload.html",
                  {"form": form, "import_kind": found,
                   "runs": import_runs_page(found.kind, request.GET.get("page"))})


@require_http_methods(["GET", "POST"])
def import_run(request: HttpRequest, pk: int) -> HttpResponse:
    """One uploaded file: the mapping and the preview, then the commit; once committed,
    its report."""
    run = get_object_or_404(ImportRun, pk=pk)
    found = _kind(run.kind, request.user)
    if run.committed_at is not None:
        return render(request, "federation/admin/import_run.html",
                      {"run": run, "import_kind": found, "stored": run.report})
    if run.created_by_id != request.user.pk or found.run_import is None:
        raise PermissionDenied  # another officer's upload waits for them
    problems: list[Any] = []
    header: tuple[str, ...] = ()
    with errors_collected(problems, describe=lambda error: [error]):
        header = spreadsheet_read(bytes(run.data)).header
    mapping = mapping_posted(header, found.fields,
                             request.POST if request.method == "POST" else {}, run.mapping)
    decisions: dict[int, str] = {}
    if request.method == "POST":
        for key, value in request.POST.items():
            if key.startswith("decision-") and key[9:].isdigit() and value:
                decisions[int(key[9:])] = value
        run.mapping = mapping
        run.save(update_fields=["mapping"])
    commit = request.method == "POST" and request.POST.get("action") == "commit"
    report: ImportReport | None = None
    if not problems:
        failed: list[Any] = []
        with errors_collected(failed, describe=lambda error: [error]):
            report = found.run_import(
                data=bytes(run.data), file_name=run.file_name, imported_by=request.user,
                mapping=mapping, decisions=decisions, dry_run=not commit, run=run)
        if failed and isinstance(failed[0], ImportFailed):
            report = failed[0].report
        if commit and not failed:
            return redirect("import_run", pk=run.pk)
    spreadsheet_errors = [e.message for e in problems if isinstance(e, SpreadsheetError)]
    columns = mapping_columns(header, mapping)
    preview = report.stored(found.describe) if report is not None else None
    if preview is not None:
        labels = _outcome_labels()
        for row in preview["rows"]:
            row["outcome_label"] = labels.get(row["outcome"], row["outcome"])
        for item in preview["review"]:
            item["message"] = found.describe(item["reason"], {})
    return render(request, "federation/admin/import_run.html", {
        "run": run, "import_kind": found, "columns": columns, "preview": preview,
        "spreadsheet_errors": spreadsheet_errors,
        "field_choices": [(f.name, found.field_labels.get(f.name, f.name))
                          for f in found.fields],
        "decisions": decisions,
    })


def _outcome_labels() -> dict[str, Any]:
    return {CREATED: _("New"), UPDATED: _("Changed"), UNCHANGED: _("Unchanged"),
            REVIEW: _("For review"), ERROR: _("Error")}


def import_report_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """A committed import's report as CSV."""
    run = get_object_or_404(ImportRun, pk=pk, committed_at__isnull=False)
    _kind(run.kind, request.user)
    rows = list(report_csv_rows(run.report))
    return csv_export.csv_response(f"import-{run.pk}-{run.kind}-report.csv", rows[0], rows[1:])


def import_admin_urls() -> list[Any]:
    from django.urls import path

    return [
        path("imports/<str:kind>/", import_upload, name="import_upload"),
        path("imports/run/<int:pk>/", import_run, name="import_run"),
        path("imports/run/<int:pk>/report.csv", import_report_csv, name="import_report_csv"),
    ]


def import_url(kind: str) -> str:
    return reverse("import_upload", args=[kind])
