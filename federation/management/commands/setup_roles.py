from django.core.management.base import BaseCommand

from federation.services import roles_setup


class Command(BaseCommand):
    help = "Create or update the Treasurer, Membership officer and Club officer groups."

    def handle(self, *args, **options):
        for name, group in roles_setup().items():
            self.stdout.write(f"{name}: {group.permissions.count()} permissions")
