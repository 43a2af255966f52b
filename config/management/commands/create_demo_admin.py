"""Create the demo administrator named in the README (local development only)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.demo import ADMIN_EMAIL, demo_admin_create


class Command(BaseCommand):
    help = "Create a superuser admin@example.org / mahjong-admin with a verified email."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("The demo admin is only created with DEBUG on (dev settings).")
        state = "created" if demo_admin_create() else "already present"
        self.stdout.write(self.style.SUCCESS(f"Demo admin {ADMIN_EMAIL} {state}."))
