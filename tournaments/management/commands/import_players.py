"""manage.py import_players FILE [--mapping JSON] [--decisions JSON] [--dry-run] [--user U]:
the EMA player register (CSV or XLSX), as the admin's import page and
POST /api/v1/imports/players (the options: ``core.import_command``)."""

from __future__ import annotations

from typing import Any

from core.import_command import ImportCommand
from tournaments import services
from tournaments.services.player_import import describe


class Command(ImportCommand):
    help = "Import the EMA player register from a CSV or XLSX file (preview with --dry-run)."
    mapping_example = '{"ID": "ema_number"}'

    def run_import(self, *, data: bytes, file_name: str, user: Any, mapping: dict[str, str],
                   decisions: dict[int, str], dry_run: bool, options: dict[str, Any]) -> Any:
        return services.players_import(data=data, file_name=file_name, imported_by=user,
                                       mapping=mapping, decisions=decisions, dry_run=dry_run)

    def report_json(self, report: Any) -> dict[str, Any]:
        return dict(report.as_json(describe))
