"""The default schedules of the task queue's jobs (decision 0907), written to
django-celery-beat's tables after every ``migrate``: a schedule is created when none of its
name exists, and never changed afterwards, so what the administrator edits in the admin
(Settings > Periodic tasks) stays. A schedule deleted there comes back at the next migrate
with its default: switch one off by unticking "enabled" instead.

Times are the site's time zone (``TIME_ZONE``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings


@dataclass(frozen=True)
class DefaultSchedule:
    name: str
    task: str
    description: str
    every_seconds: int | None = None  # an interval, or else a crontab:
    crontab: dict[str, str] = field(default_factory=dict)
    enabled: bool = True


DEFAULT_SCHEDULES = (
    DefaultSchedule(
        "Worker heartbeat", "config.worker_heartbeat",
        "The worker shows it is alive (/healthz reads it).", every_seconds=60),
    DefaultSchedule(
        "Mailings", "federation.send_mailings",
        "Sends the waiting mailings in batches (manage.py send_mailings).", every_seconds=120),
    DefaultSchedule(
        "Queued mail and receipts", "federation.send_queued_mail",
        "Sends the receipts of imported payments and the mails the mail server refused, "
        "each after its wait (manage.py send_queued_mail).", every_seconds=300),
    DefaultSchedule(
        "Dues invoices", "federation.issue_dues_invoices",
        "Issues the current membership year's invoices to approved paying members who have "
        "none (manage.py issue_dues_invoices).", crontab={"minute": "0", "hour": "6"}),
    DefaultSchedule(
        "Dues and invoice reminders", "federation.send_dues_reminders",
        "Mails each reminder stage once (manage.py send_dues_reminders).",
        crontab={"minute": "0", "hour": "9"}),
    DefaultSchedule(
        "Release of unpaid entries", "tournaments.release_unpaid_entries",
        "Reminds entries past their fee's due date and releases those still unpaid "
        "(manage.py release_unpaid_entries).", crontab={"minute": "15"}),
    DefaultSchedule(
        "Monthly rating lists", "ratings.publish_rating_lists",
        "Publishes last month's rating list of each ruleset on the 15th, unless the "
        "accreditation officer published it before (manage.py ratings_publish).",
        crontab={"minute": "0", "hour": "3", "day_of_month": "15"}),
    DefaultSchedule(
        "Stored rankings", "ratings.store_rankings",
        "Stores each ruleset's EMA ranking of the new day (the results' ages move on) and "
        "its club ranking (decision 0821).", crontab={"minute": "5", "hour": "0"}),
    DefaultSchedule(
        "Full ratings recompute", "ratings.recompute",
        "Recomputes every ruleset's ratings from the start (manage.py ratings_recompute); "
        "off by default: confirmations re-rate by themselves.",
        crontab={"minute": "30", "hour": "4", "day_of_week": "1"}, enabled=False),
)


def task_schedules_setup(*, using: str = "default") -> list[str]:
    """Create the default schedules that do not exist; returns the names created."""
    from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask

    created = []
    tasks = PeriodicTask.objects.using(using)
    for default in DEFAULT_SCHEDULES:
        if tasks.filter(name=default.name).exists():
            continue
        values: dict[str, Any] = {"name": default.name, "task": default.task,
                                  "description": default.description,
                                  "enabled": default.enabled}
        if default.every_seconds is not None:
            values["interval"], _ = IntervalSchedule.objects.using(using).get_or_create(
                every=default.every_seconds, period=IntervalSchedule.SECONDS)
        else:
            values["crontab"], _ = CrontabSchedule.objects.using(using).get_or_create(
                **{"minute": "*", "hour": "*", "day_of_week": "*", "day_of_month": "*",
                   "month_of_year": "*", **default.crontab}, timezone=settings.TIME_ZONE)
        tasks.create(**values)
        created.append(default.name)
    return created
