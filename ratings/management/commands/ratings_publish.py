"""manage.py ratings_publish YYYY-MM [--ruleset mcr|hkos|red]: publish (freeze) a period's
rating list of one ruleset (default mcr: publishing is a deliberate act, one list at a time)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.models import DEFAULT_RULESET
from ratings.selectors import RULESETS
from ratings.services import RatingError, rating_period_publish


class Command(BaseCommand):
    help = "Publish the rating list of a period (YYYY-MM): it is frozen from then on."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("period", metavar="YYYY-MM")
        parser.add_argument(
            "--ruleset",
            choices=RULESETS,
            default=DEFAULT_RULESET,
            help=f"the ruleset whose list is published (default: {DEFAULT_RULESET})",
        )

    def handle(
        self, *args: Any, period: str, ruleset: str = DEFAULT_RULESET, **options: Any
    ) -> None:
        try:
            row = rating_period_publish(period=period, ruleset=ruleset)
        except RatingError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"The {row.ruleset} rating list of {row.period} is published ({row.rows.count()} players)."
            )
        )
