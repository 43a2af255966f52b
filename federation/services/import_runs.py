"""What every committed spreadsheet import records (decisions 0316, 0815): its ``ImportRun``
(file name, who, when, the mapping, the counts and the stored report in the one format of
``core.imports.STORED_KEYS``, the uploaded file dropped) and an entry in the audit log.
The members, the EMA player register and the tournaments' final standings all keep their
reports here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils import timezone

from core.imports import STORED_KEYS, ImportReport
from federation.models import ImportRun
from federation.services._common import audit


def import_run_store(*, run: ImportRun | None, kind: str, file_name: str, imported_by: Any,
                     mapping: Mapping[str, str] | None, stored: Mapping[str, Any]
                     ) -> ImportRun:
    """Store a committed import's report (``stored``: the keys of ``STORED_KEYS``; a key
    left out is kept empty) in ``run`` when the admin's pages made one, else a new run."""
    report = {key: stored.get(key, None if key == "tournament" else [])
              for key in STORED_KEYS}
    for key in ("created", "updated", "unchanged"):
        report[key] = int(stored.get(key) or 0)
    run = run or ImportRun(kind=kind, file_name=file_name[:255], created_by=imported_by)
    run.data = b""
    run.mapping = dict(mapping or {})
    run.committed_at = timezone.now()
    run.created, run.updated = report["created"], report["updated"]
    run.unchanged, run.review, run.errors = report["unchanged"], len(report["review"]), 0
    run.report = report
    run.save()
    return run


def import_run_record(*, run: ImportRun | None, kind: str, action: str, file_name: str,
                      imported_by: Any, mapping: Mapping[str, str] | None,
                      report: ImportReport,
                      describe: Callable[[str, dict[str, Any]], str]) -> ImportRun:
    """Store a committed import (``run`` when the admin's pages made one) and log it."""
    run = import_run_store(run=run, kind=kind, file_name=file_name, imported_by=imported_by,
                           mapping=mapping, stored=report.stored(describe))
    audit(run, action, imported_by,
          {"file": file_name, "created": report.created, "updated": report.updated,
           "unchanged": report.unchanged, "review": len(report.review)})
    return run
