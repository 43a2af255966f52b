from datetime import date

from django.core.management.base import BaseCommand

from tournaments.services import entries_release_unpaid


class Command(BaseCommand):
    help = (
        "Remind entries whose fee is past its due date, and release the places of those still "
        "unpaid three days after the reminder (run daily; re-running is safe)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", type=date.fromisoformat, help="Pretend today is this date.")

    def handle(self, *args, **options):
        report = entries_release_unpaid(today=options["date"])
        self.stdout.write(f"{len(report.reminded)} reminded, {len(report.released)} released")
