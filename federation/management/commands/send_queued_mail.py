from django.core.management.base import BaseCommand

from federation import emails, outbox


class Command(BaseCommand):
    help = (
        "Send again the transactional mails the mail server refused, and the receipts of a "
        "bank statement's payments (run every few minutes). "
        "A mail waits 5 minutes after its first failure, twice as long after each further "
        f"one (6 hours at most), and is given up after {outbox.MAX_ATTEMPTS} attempts."
    )

    def handle(self, *args, **options):
        receipts = emails.send_waiting_receipts()
        if receipts:
            self.stdout.write(f"{receipts} receipts of imported payments mailed")
        report = outbox.send_queued()
        self.stdout.write(f"{report.sent} sent, {report.failed} failed again, "
                          f"{report.given_up} given up")
