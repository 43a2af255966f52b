"""Load the site's content from the project's data files. Safe to re-run.

manage.py load_content            # create what is missing, update what the data changed
manage.py load_content --force    # also overwrite what editors changed in the admin
"""

from django.core.management.base import BaseCommand

from content.services import site_skeleton_load
from rulebook.services import rulebook_data_load


class Command(BaseCommand):
    help = (
        "Create or update the home pages, the rulebook's fans and worked examples and the "
        "rule pages in every language. Editors' later edits are kept unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Overwrite fans, examples and pages that editors changed since they were loaded.",
        )

    def handle(self, *args, force=False, **options):
        home = site_skeleton_load()
        self.stdout.write(f"Home pages ready (id {home.pk}).")
        for report in rulebook_data_load(force=force, progress=self._progress):
            self.stdout.write(f"\r{report}{' ' * 10}")
        self.stdout.write(self.style.SUCCESS("Site content loaded."))

    def _progress(self, what: str, done: int, total: int) -> None:
        if done == total or done % 50 == 0:
            self.stdout.write(f"\r{what}: {done}/{total}", ending="")
            self.stdout.flush()
