"""The tournaments' job for the task queue (decision 0907): what
``manage.py release_unpaid_entries`` does, on the schedule stored in the database."""

from __future__ import annotations

from datetime import date

from celery import shared_task

from tournaments.services import entries_release_unpaid


@shared_task(name="tournaments.release_unpaid_entries")
def release_unpaid_entries(today: str | None = None) -> dict[str, int]:
    """Remind entries past their fee's due date, release those still unpaid three days after
    (safe to re-run: each entry is reminded once, released once)."""
    report = entries_release_unpaid(today=date.fromisoformat(today) if today else None)
    return {"reminded": len(report.reminded), "released": len(report.released)}
