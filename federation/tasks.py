"""The membership's jobs for the task queue (decision 0907), each the service its
management command calls; the schedules are in the database (config.task_schedules).

Every job is safe to run twice or at once with itself: invoices are issued once per member
and year, each reminder stage once, and each mail is claimed before it is handed over."""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from celery import shared_task
from django.conf import settings

from federation import emails, outbox, selectors
from federation.models import MembershipYear
from federation.services import dues_invoices_issue_for_year, reminders_send
from federation.services.mailings import deliveries_waiting, mailings_deliver_batch

logger = logging.getLogger(__name__)


@shared_task(name="federation.issue_dues_invoices")
def issue_dues_invoices(year: int | None = None) -> int:
    """The invoices of the membership year ``year`` (default: the year covering today) to
    every approved paying member who has none yet. Returns how many were issued."""
    if year is None:
        membership_year = selectors.membership_year_for(selectors.today())
    else:
        membership_year = MembershipYear.objects.filter(year=year).first()
    if membership_year is None:
        logger.info("No membership year %s: no invoice issued", year or "covers today")
        return 0
    issued = dues_invoices_issue_for_year(membership_year=membership_year, issued_by=None)
    return len(issued)


@shared_task(name="federation.send_dues_reminders")
def send_dues_reminders(today: str | None = None) -> int:
    """Dues and invoice reminders, each stage once (``manage.py send_dues_reminders``)."""
    return reminders_send(today=date.fromisoformat(today) if today else None)


@shared_task(name="federation.send_mailings")
def send_mailings(batch_size: int | None = None) -> bool:
    """Start sending the waiting mailings: queue their first batch (each batch queues the
    next). Scheduled every few minutes, so a sending stopped by a worker's death resumes.
    Returns whether a batch was queued."""
    if not deliveries_waiting():
        return False
    send_mailing_batch.delay(batch_size)
    return True


@shared_task(name="federation.send_mailing_batch")
def send_mailing_batch(batch_size: int | None = None) -> dict[str, Any]:
    """One batch of mailing deliveries on one connection to the mail server; queues the next
    batch while deliveries wait."""
    report = mailings_deliver_batch(batch_size=batch_size or settings.MAILING_BATCH_SIZE)
    if report.more:
        send_mailing_batch.delay(batch_size)
    return {"sent": report.sent, "failed": report.failed, "more": report.more}


@shared_task(name="federation.send_queued_mail")
def send_queued_mail() -> dict[str, int]:
    """The receipts a bank import left waiting, then the transactional mails the mail server
    refused, each after its wait (``manage.py send_queued_mail``)."""
    receipts = emails.send_waiting_receipts()
    report = outbox.send_queued()
    return {"receipts": receipts, "sent": report.sent, "failed": report.failed,
            "given_up": report.given_up}
