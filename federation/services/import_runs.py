"""What every committed spreadsheet import records (decision 0316): its ``ImportRun`` (file
name, who, when, the mapping, the counts and the stored report, the uploaded file dropped)
and an entry in the audit log."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils import timezone

from core.imports import ImportReport
from federation.models import ImportRun
from federation.services._common import audit


def import_run_record(*, run: ImportRun | None, kind: str, action: str, file_name: str,
                      imported_by: Any, mapping: Mapping[str, str] | None,
                      report: ImportReport,
                      describe: Callable[[str, dict[str, Any]], str]) -> ImportRun:
    """Store a committed import (``run`` when the admin's pages made one) and log it."""
    run = run or ImportRun(kind=kind, file_name=file_name[:255], created_by=imported_by)
    run.data = b""
    run.mapping = dict(mapping or {})
    run.committed_at = timezone.now()
    run.created, run.updated, run.unchanged = report.created, report.updated, report.unchanged
    run.review, run.errors, run.report = len(report.review), 0, report.stored(describe)
    run.save()
    audit(run, action, imported_by,
          {"file": file_name, "created": report.created, "updated": report.updated,
           "unchanged": report.unchanged, "review": len(report.review)})
    return run
