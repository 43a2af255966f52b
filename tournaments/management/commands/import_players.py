"""manage.py import_players FILE [--mapping JSON] [--dry-run]: the EMA player register
(CSV or XLSX), as the admin's import page and POST /api/v1/imports/players. Prints the
report as JSON; a file with errors imports nothing and exits with status 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.imports import ImportFailed
from tournaments import services
from tournaments.services.player_import import describe


class Command(BaseCommand):
    help = "Import the EMA player register from a CSV or XLSX file (preview with --dry-run)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")
        parser.add_argument("--mapping", default="",
                            help='JSON object: header -> field, e.g. {"ID": "ema_number"}')
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            mapping = json.loads(options["mapping"]) if options["mapping"] else {}
        except ValueError as error:
            raise CommandError(f"--mapping is not JSON: {error}") from error
        try:
            report = services.players_import(
                data=path.read_bytes(), file_name=path.name, imported_by=None,
                mapping=mapping, dry_run=options["dry_run"])
        except ImportFailed as error:
            self.stdout.write(json.dumps(error.body(), ensure_ascii=False, indent=2))
            raise CommandError("the file has errors: nothing was imported") from error
        self.stdout.write(json.dumps(report.as_json(describe), ensure_ascii=False, indent=2))
