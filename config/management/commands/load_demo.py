"""Load the demo federation into an empty site (local development: ``make demo``)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings

from config.demo import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    DEMO_MEMBER,
    DEMO_PASSWORD,
    VOLUNTEERS,
    DemoError,
    demo_federation_load,
)


class Command(BaseCommand):
    help = ("Load a demo federation (clubs, members, dues, tournaments with results, ratings) "
            "into an empty site. DEBUG only; a second run changes nothing.")

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("The demo federation is only loaded with DEBUG on (dev settings).")
        # The demo's people have example.org addresses: the mail the services send them
        # (application received, approved, invoice) stays in memory.
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
            try:
                report = demo_federation_load()
            except DemoError as error:
                raise CommandError(str(error)) from error
        if not report.created:
            self.stdout.write("The demo federation is already loaded.")
            return
        self.stdout.write(self.style.SUCCESS(
            f"Demo federation loaded: {report.clubs} clubs, {report.members} members, "
            f"{report.tournaments} tournaments, {report.hands} hands scored by the core."))
        for email, role in VOLUNTEERS.items():
            self.stdout.write(f"  {role}: {email} / {DEMO_PASSWORD}")
        self.stdout.write(f"  Member: {DEMO_MEMBER} / {DEMO_PASSWORD}")
        self.stdout.write(f"  Administrator: {ADMIN_EMAIL} / {ADMIN_PASSWORD}")
