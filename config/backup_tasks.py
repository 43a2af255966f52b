"""The backup as a Celery task, routed to a queue of its own (``CELERY_TASK_ROUTES``:
``backups``, which the compose service ``backup`` consumes, with pg_dump and the backups
volume). Scheduled by beat; the ``backup`` management command does the same for a crontab."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from config.backup import backup_create, backups_prune


@shared_task(name="config.backup", ignore_result=True)
def backup() -> str:
    """Take a backup into BACKUP_DIR and apply retention; the backup's folder."""
    taken = backup_create()
    backups_prune(taken.path.parent, daily=settings.BACKUP_KEEP_DAILY,
                  weekly=settings.BACKUP_KEEP_WEEKLY)
    return str(taken.path)
