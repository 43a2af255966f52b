"""manage.py ratings_publish YYYY-MM: publish (freeze) a period's rating list."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services import RatingError, rating_period_publish


class Command(BaseCommand):
    help = "Publish the rating list of a period (YYYY-MM): it is frozen from then on."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("period", metavar="YYYY-MM")

    def handle(self, *args: Any, period: str, **options: Any) -> None:
        try:
            row = rating_period_publish(period=period)
        except RatingError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"The rating list of {row.period} is published ({row.rows.count()} players)."
            )
        )
