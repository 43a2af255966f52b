"""The one base of every spreadsheet import's management command (``import_members``,
``import_players``, ``import_tournament``; decision 0316): ``FILE``, ``--mapping`` (the
file's header -> a field), ``--decisions`` (row -> "new" or the id of a candidate, for the
rows a person must decide), ``--dry-run`` (the preview) and ``--user`` (who imports).
The report is printed as JSON; a refused file (any domain error: nothing imported) prints
its errors as JSON and exits with status 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import DomainError


class ImportCommand(BaseCommand):
    """Subclasses say what they import (``run_import``) and how its report is answered
    (``report_json``); ``user_required`` when the import needs who imports it."""

    mapping_example = '{"Mail": "email"}'
    user_required = False
    decision_aliases: tuple[str, ...] = ()

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--mapping", default="",
                            help=f"JSON object: header -> field, e.g. {self.mapping_example}")
        parser.add_argument("--decisions", *self.decision_aliases, dest="decisions",
                            default="",
                            help='JSON object: row -> "new" or the id of a candidate '
                                 "(the rows for review).")
        parser.add_argument("--dry-run", action="store_true", help="Preview: write nothing.")
        parser.add_argument("--user", required=self.user_required, default="",
                            help="Who imports: a username or e-mail.")
        self.add_import_arguments(parser)

    def add_import_arguments(self, parser: CommandParser) -> None:
        """The import's own options."""

    def run_import(self, *, data: bytes, file_name: str, user: Any, mapping: dict[str, str],
                   decisions: dict[int, str], dry_run: bool, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def report_json(self, report: Any) -> dict[str, Any]:
        return dict(report.as_json())

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from error
        mapping = {str(k): str(v) for k, v in self._json_object(options, "mapping").items()}
        raw = self._json_object(options, "decisions")
        if not all(str(k).isdigit() for k in raw):
            raise CommandError("--decisions: the keys are row numbers")
        decisions = {int(k): "new" if v is None else str(v) for k, v in raw.items()}
        user = self._user(options["user"]) if options["user"] else None
        try:
            report = self.run_import(data=data, file_name=path.name, user=user,
                                     mapping=mapping, decisions=decisions,
                                     dry_run=options["dry_run"], options=options)
        except DomainError as refused:
            self.stdout.write(json.dumps(refused.body(), ensure_ascii=False, indent=2))
            raise CommandError("the file has errors: nothing was imported") from refused
        self.stdout.write(json.dumps(self.report_json(report), ensure_ascii=False, indent=2))

    @staticmethod
    def _json_object(options: dict[str, Any], name: str) -> dict[Any, Any]:
        text = options[name]
        if not text:
            return {}
        try:
            value = json.loads(text)
        except ValueError as error:
            raise CommandError(f"--{name} is not JSON: {error}") from error
        if not isinstance(value, dict):
            raise CommandError(f"--{name} must be a JSON object")
        return value

    @staticmethod
    def _user(login: str) -> Any:
        users = get_user_model()._default_manager
        user = users.filter(username=login).first() or users.filter(email=login).first()
        if user is None:
            raise CommandError(f"no user {login!r}")
        return user
