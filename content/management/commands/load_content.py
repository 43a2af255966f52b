"""Load the site's content from the project's data files. Safe to re-run."""

from django.core.management.base import BaseCommand

from content.services import site_skeleton_load


class Command(BaseCommand):
    help = "Create or update the per-language home pages (and later the rulebook content)."

    def handle(self, *args, **options):
        home = site_skeleton_load()
        self.stdout.write(self.style.SUCCESS(f"Site content loaded (home page id {home.pk})."))
