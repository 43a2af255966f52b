"""manage.py ratings_recompute [--from YYYY-MM]: recompute the rating history."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services import RatingError, RecomputeRunning, ratings_recompute


class Command(BaseCommand):
    help = (
        "Recompute the ratings from all confirmed tournament results (or from one period on). "
        "Safe to re-run; refuses to start while another recompute is running. Published "
        "lists stay as they were published."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--from",
            dest="from_period",
            metavar="YYYY-MM",
            help="recompute from this rating period on (default: from the first)",
        )

    def handle(self, *args: Any, from_period: str | None = None, **options: Any) -> None:
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
            result = ratings_recompute(from_period=from_period, progress=progress)
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
                f"Ratings recomputed {where}: {result.periods} periods with results, "
                f"{result.entries} history rows in {seconds:.1f} s."
            )
        )
