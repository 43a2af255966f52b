"""Fail when a catalogue has an untranslated or fuzzy entry (run after makemessages in CI)."""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Check that every message of ours is translated in every language."

    def handle(self, *args, **options):
        problems: list[str] = []
        languages = {code.replace("-hans", "_Hans") for code, _ in settings.LANGUAGES}
        for locale_dir in settings.LOCALE_PATHS:
            found = {p.name for p in Path(locale_dir).iterdir() if p.is_dir()}
            problems += [f"{lang}: no catalogue" for lang in sorted(languages - found)]
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/django.po")):
                catalogue = polib.pofile(str(po_path))
                language = po_path.parts[-3]
                for entry in catalogue:
                    if entry.obsolete:
                        continue
                    where = entry.occurrences[0][0] if entry.occurrences else "?"
                    if entry.fuzzy:
                        problems.append(f"{language}: fuzzy: {entry.msgid!r} ({where})")
                    elif not entry.translated():
                        problems.append(f"{language}: untranslated: {entry.msgid!r} ({where})")
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(problems)} missing translation(s).")
        self.stdout.write(self.style.SUCCESS("Every message is translated in every language."))
