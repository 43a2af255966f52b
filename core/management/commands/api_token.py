"""`manage.py api_token EMAIL`: print a user's API token, creating it if needed."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.tokens import api_token_get_or_create


class Command(BaseCommand):
    help = "Print the API token of the user with this email address (created if needed)."

    def add_arguments(self, parser):
        parser.add_argument("email")

    def handle(self, *args, email: str, **options):
        users = get_user_model().objects.filter(email__iexact=email.strip())
        if not users.exists():
            raise CommandError(f"No user has the email address {email!r}.")
        if users.count() > 1:
            raise CommandError(f"Several users have the email address {email!r}.")
        self.stdout.write(api_token_get_or_create(user=users.get()).key)
