"""`manage.py heartbeat_check worker|beat`: exit 0 while the process's last heartbeat is
within its limit, 1 otherwise: the health check of a worker or beat container (decision
0907). `/healthz` reads the same heartbeats."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from core.health import heartbeat_report
from core.heartbeats import BEAT, WORKER


class Command(BaseCommand):
    help = ("Exit 0 when the task queue's worker (or beat) showed life within its limit "
            "(HEARTBEAT_WORKER_MAX_AGE, HEARTBEAT_BEAT_MAX_AGE), else 1.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("process", choices=[WORKER, BEAT])

    def handle(self, *args: Any, process: str, **options: Any) -> None:
        limit = (settings.HEARTBEAT_WORKER_MAX_AGE if process == WORKER
                 else settings.HEARTBEAT_BEAT_MAX_AGE)
        report = heartbeat_report(process, limit)
        self.stdout.write(f"{process}: {report['status']}, last heartbeat "
                          f"{report['last_heartbeat'] or 'never'}, limit {limit} s")
        if report["status"] != "ok":
            raise SystemExit(1)
