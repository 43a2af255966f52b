"""Import a past tournament's final standings from a CSV or XLSX file (decision 0810)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services.imports import ImportRefused, tournament_import


class Command(BaseCommand):
    help = (
        "Import a past tournament from its final standings (the EMA results sheet or "
        "mahjong-portal's place;name;scores). --dry-run previews; the same file imported "
        "twice changes nothing. Prints the report as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--user", required=True,
                            help="The accreditation officer's username or e-mail.")
        for name in ("name", "ruleset", "start-date", "end-date", "city", "country"):
            parser.add_argument(f"--{name}", required=True)
        parser.add_argument("--mers-weight", default="")
        parser.add_argument("--mers", action="store_true")
        parser.add_argument("--abroad", action="store_true")
        parser.add_argument("--rated", choices=["yes", "no"], default=None,
                            help="Count in our rating list (default: yes at home, no abroad).")
        parser.add_argument("--choices", default="",
                            help='JSON: row -> player id, or "new" (namesakes in the review).')
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        login = options["user"]
        user = users.filter(username=login).first() or users.filter(email=login).first()
        if user is None:
            raise CommandError(f"no user {login!r}")
        data = {
            "name": options["name"], "ruleset": options["ruleset"],
            "start_date": options["start_date"], "end_date": options["end_date"],
            "city": options["city"], "country": options["country"],
            "mers": "true" if options["mers"] else "", "mers_weight": options["mers_weight"],
            "abroad": "true" if options["abroad"] else "",
        }
        if options["rated"]:
            data["rated"] = "true" if options["rated"] == "yes" else "false"
        choices = {int(k): (None if v in (None, "new") else int(v))
                   for k, v in json.loads(options["choices"] or "{}").items()}
        path: Path = options["file"]
        try:
            report = tournament_import(user=user, data=data, content=path.read_bytes(),
                                       filename=path.name, dry_run=options["dry_run"],
                                       choices=choices)
        except ImportRefused as refused:
            self.stdout.write(json.dumps(refused.report.as_json(), ensure_ascii=False,
                                         indent=2))
            raise CommandError(f"{len(refused.report.errors)} error(s); nothing imported") from None
        self.stdout.write(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
