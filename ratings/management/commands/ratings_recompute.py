"""manage.py ratings_recompute [--ruleset mcr|hkos|red] [--from YYYY-MM]: recompute the
rating history of one ruleset, or of every ruleset one after the other (the default)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.selectors import RULESETS
from ratings.services import RatingError, RecomputeRunning, ratings_recompute


class Command(BaseCommand):
    help = (
        "Recompute the ratings from all confirmed tournament results (or from one period on), "
        "each ruleset's list from its own tournaments; every ruleset unless --ruleset is given. "
        "Safe to re-run; refuses to start while another recompute is running. Published "
        "lists stay as they were published."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--ruleset",
            choices=RULESETS,
            help="recompute only this ruleset's list (default: every ruleset)",
        )
        parser.add_argument(
            "--from",
            dest="from_period",
            metavar="YYYY-MM",
            help="recompute from this rating period on (default: from the first)",
        )

    def handle(
        self,
        *args: Any,
        from_period: str | None = None,
        ruleset: str | None = None,
        **options: Any,
    ) -> None:
        for one in [ruleset] if ruleset else list(RULESETS):
            self._recompute(one, from_period)

    def _recompute(self, ruleset: str, from_period: str | None) -> None:
        started = time.monotonic()
        interactive = self.stdout.isatty() if hasattr(self.stdout, "isatty") else False
        width = 30

        def progress(done: int, total: int) -> None:
            filled = width * done // total if total else width
            line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} periods"
            if interactive:
                self.stdout.write("\r" + line, ending="")
                self.stdout.flush()
            elif done == total or done % max(1, total // 10) == 0:
                self.stdout.write(line)

        try:
            result = ratings_recompute(
                ruleset=ruleset, from_period=from_period, progress=progress
            )
        except RecomputeRunning as error:
            raise CommandError(str(error)) from error
        except RatingError as error:
            raise CommandError(str(error)) from error
        if interactive:
            self.stdout.write("")
        seconds = time.monotonic() - started
        where = f"from {result.from_period}" if result.from_period else "from the start"
        self.stdout.write(
            self.style.SUCCESS(
                f"Ratings ({result.ruleset}) recomputed {where}: {result.periods} periods with results, "
                f"{result.entries} history rows in {seconds:.1f} s."
            )
        )
