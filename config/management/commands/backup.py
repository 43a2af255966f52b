"""Back up the database (pg_dump) and the media files into BACKUP_DIR, then apply retention."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from config.backup import BackupError, backup_create, backups_prune


class Command(BaseCommand):
    help = ("Back up the database (pg_dump, custom format) and MEDIA_ROOT (tar) into "
            "BACKUP_DIR/backup-<UTC time>/, then delete the backups retention does not keep "
            "(BACKUP_KEEP_DAILY days, BACKUP_KEEP_WEEKLY weeks).")

    def add_arguments(self, parser):
        parser.add_argument("--dir", type=Path, default=None,
                            help="where to write the backup (default: BACKUP_DIR)")
        parser.add_argument("--database", default="default", help="database alias")
        parser.add_argument("--no-media", action="store_true", help="the database only")
        parser.add_argument("--no-prune", action="store_true",
                            help="keep every earlier backup (no retention)")

    def handle(self, *args, **options):
        directory = options["dir"] or Path(settings.BACKUP_DIR)
        try:
            backup = backup_create(directory, alias=options["database"],
                                   media=not options["no_media"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"Backup written: {backup.path}"))
        if not options["no_prune"]:
            removed = backups_prune(directory, daily=settings.BACKUP_KEEP_DAILY,
                                    weekly=settings.BACKUP_KEEP_WEEKLY)
            for path in removed:
                self.stdout.write(f"Removed (retention): {path}")
