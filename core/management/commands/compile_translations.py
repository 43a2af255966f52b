"""Compile locale/*/LC_MESSAGES/*.po into .mo without needing GNU gettext.

`make run` and `make test` use this so that a machine with only Python can start the site;
CI also runs Django's own `compilemessages` (GNU msgfmt) as a second opinion.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the project's .po catalogues to .mo files (pure Python, via polib)."

    def handle(self, *args, **options):
        count = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))
                count += 1
        self.stdout.write(self.style.SUCCESS(f"Compiled {count} catalogue(s)."))
