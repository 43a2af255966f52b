"""manage.py import_tournament FILE --user U --name ... [--mapping JSON] [--decisions JSON]
[--dry-run]: a past tournament from its final standings (decision 0810), as the admin's
import page and POST /api/v1/imports/tournaments (the shared options:
``core.import_command``; ``--choices`` is the former name of ``--decisions``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from core.import_command import ImportCommand
from tournaments.services.imports import tournament_import


class Command(ImportCommand):
    help = (
        "Import a past tournament from its final standings (the EMA results sheet or "
        "mahjong-portal's place;name;scores). --dry-run previews; the same file imported "
        "twice changes nothing. Prints the report as JSON."
    )
    mapping_example = '{"Rank": "place"}'
    user_required = True
    decision_aliases = ("--choices",)

    def add_import_arguments(self, parser: CommandParser) -> None:
        for name in ("name", "ruleset", "start-date", "end-date", "city", "country"):
            parser.add_argument(f"--{name}", required=True)
        parser.add_argument("--mers-weight", default="")
        parser.add_argument("--mers", action="store_true")
        parser.add_argument("--abroad", action="store_true")
        parser.add_argument("--rated", choices=["yes", "no"], default=None,
                            help="Count in our rating list (default: yes at home, no abroad).")

    def run_import(self, *, data: bytes, file_name: str, user: Any, mapping: dict[str, str],
                   decisions: dict[int, str], dry_run: bool, options: dict[str, Any]) -> Any:
        fields = {
            "name": options["name"], "ruleset": options["ruleset"],
            "start_date": options["start_date"], "end_date": options["end_date"],
            "city": options["city"], "country": options["country"],
            "mers": "true" if options["mers"] else "", "mers_weight": options["mers_weight"],
            "abroad": "true" if options["abroad"] else "",
        }
        if options["rated"]:
            fields["rated"] = "true" if options["rated"] == "yes" else "false"
        if not all(v == "new" or v.isdigit() for v in decisions.values()):
            raise CommandError('--decisions: each row is "new" or a player id')
        choices = {row: None if v == "new" else int(v) for row, v in decisions.items()}
        return tournament_import(user=user, data=fields, content=data, filename=file_name,
                                 dry_run=dry_run, choices=choices, mapping=mapping)
