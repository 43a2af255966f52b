"""Create the demo administrator named in the README (local development only)."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

DEMO_EMAIL = "admin@example.org"
DEMO_PASSWORD = "mahjong-admin"


class Command(BaseCommand):
    help = "Create a superuser admin@example.org / mahjong-admin with a verified email."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("The demo admin is only created with DEBUG on (dev settings).")
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            email=DEMO_EMAIL,
            defaults={"username": "admin", "is_staff": True, "is_superuser": True},
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        EmailAddress.objects.update_or_create(
            user=user, email=DEMO_EMAIL, defaults={"verified": True, "primary": True}
        )
        state = "created" if created else "already present"
        self.stdout.write(self.style.SUCCESS(f"Demo admin {DEMO_EMAIL} {state}."))
