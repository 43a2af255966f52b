from django.conf import settings
from django.core.management.base import BaseCommand

from federation.services import mailings_deliver


class Command(BaseCommand):
    help = (
        "Send the waiting mails of every mailing in batches (run every few minutes, or let "
        "the task queue do it). Each recipient is claimed before its mail is handed over and "
        "marked as soon as it was: a run stopped half-way is resumed by the next one, two runs "
        "at once never send one mail twice."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch-size", type=int, default=settings.MAILING_BATCH_SIZE,
                            help="Mails per batch (one connection to the mail server each).")
        parser.add_argument("--max-batches", type=int, default=None,
                            help="Stop after this many batches (the rest waits for next run).")

    def handle(self, *args, **options):
        if options["batch_size"] < 1:
            self.stderr.write("--batch-size must be at least 1")
            raise SystemExit(2)
        report = mailings_deliver(batch_size=options["batch_size"],
                                  max_batches=options["max_batches"])
        self.stdout.write(f"{report.sent} sent, {report.failed} failed in {report.batches} "
                          "batch(es)")
