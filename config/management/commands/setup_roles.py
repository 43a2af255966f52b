from django.core.management.base import BaseCommand

from config.roles import roles_setup_all


class Command(BaseCommand):
    help = "Create or update every role group (membership and tournament roles)."

    def handle(self, *args, **options):
        for name, group in roles_setup_all().items():
            self.stdout.write(f"{name}: {group.permissions.count()} permissions")
