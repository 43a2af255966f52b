"""manage.py import_members FILE [--mapping JSON] [--dry-run]: members and clubs from a
spreadsheet (CSV or XLSX), as the admin's import page and POST /api/v1/imports/members.
Prints the report as JSON; a file with errors imports nothing and exits with status 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.imports import ImportFailed
from federation import services
from federation.services.member_import import describe


class Command(BaseCommand):
    help = "Import members and clubs from a CSV or XLSX file (preview with --dry-run)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")
        parser.add_argument("--mapping", default="",
                            help='JSON object: header -> field, e.g. {"Mail": "email"}')
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            mapping = json.loads(options["mapping"]) if options["mapping"] else {}
        except ValueError as error:
            raise CommandError(f"--mapping is not JSON: {error}") from error
        try:
            report = services.members_import(
                data=path.read_bytes(), file_name=path.name, imported_by=None,
                mapping=mapping, dry_run=options["dry_run"])
        except ImportFailed as error:
            self.stdout.write(json.dumps(error.body(), ensure_ascii=False, indent=2))
            raise CommandError("the file has errors: nothing was imported") from error
        self.stdout.write(json.dumps(report.as_json(describe), ensure_ascii=False, indent=2))
