"""Restore a backup (manage.py backup) into the configured database and MEDIA_ROOT."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.backup import BackupError, backup_find, database_restore, media_restore


class Command(BaseCommand):
    help = ("Restore a backup into the configured database (which must be empty, unless "
            "--force drops everything in it first) and its media files into MEDIA_ROOT.")

    def add_arguments(self, parser):
        parser.add_argument("backup", nargs="?", default=None,
                            help="a backup folder or its time stamp (default: the newest "
                                 "in BACKUP_DIR)")
        parser.add_argument("--dir", type=Path, default=None,
                            help="where the backups are (default: BACKUP_DIR)")
        parser.add_argument("--database", default="default", help="database alias")
        parser.add_argument("--force", action="store_true",
                            help="drop every table of a database that is not empty first")
        parser.add_argument("--no-media", action="store_true", help="the database only")

    def handle(self, *args, **options):
        try:
            backup = backup_find(options["backup"], options["dir"])
            database_restore(backup.database, alias=options["database"], force=options["force"])
            self.stdout.write(f"Database restored from {backup.database}")
            if not options["no_media"] and backup.media.is_file():
                count = media_restore(backup.media, Path(settings.MEDIA_ROOT))
                self.stdout.write(f"{count} media files restored into {settings.MEDIA_ROOT}")
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"Restored {backup.path}"))
