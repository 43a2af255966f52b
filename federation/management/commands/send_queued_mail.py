from django.core.management.base import BaseCommand

from federation import outbox


class Command(BaseCommand):
    help = (
        "Send again the transactional mails the mail server refused (run every few minutes). "
        "A mail waits 5 minutes after its first failure, twice as long after each further "
        f"one (6 hours at most), and is given up after {outbox.MAX_ATTEMPTS} attempts."
    )

    def handle(self, *args, **options):
        report = outbox.send_queued()
        if report.busy:
            self.stdout.write("another run is sending: nothing done")
            return
        self.stdout.write(f"{report.sent} sent, {report.failed} failed again, "
                          f"{report.given_up} given up")
