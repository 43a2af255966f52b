from datetime import date

from django.core.management.base import BaseCommand

from federation.services import reminders_send


class Command(BaseCommand):
    help = (
        "Email members whose membership ends soon or who are in grace (run daily; each "
        "reminder stage is sent once, so re-running is safe)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--date", type=date.fromisoformat, help="Pretend today is this date.")

    def handle(self, *args, **options):
        sent = reminders_send(today=options["date"])
        self.stdout.write(f"{sent} reminder(s) sent")
