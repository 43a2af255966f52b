"""The membership's jobs for the task queue (decision 0907), run in the test process (the
test settings make Celery run a task where it is queued): each calls the service its
management command calls, and running one twice does nothing more. The real worker's tests
are tests/federation/test_tasks_mailing_worker.py."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.utils import timezone

from federation import tasks
from federation.models import (
    DuesInvoice,
    Mailing,
    MailingDelivery,
    MailingTranslation,
    MailKind,
    MembershipFee,
    MembershipType,
    MembershipYear,
    OutgoingMail,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def years(db):
    this = date.today().year
    made = {}
    for year in (this - 1, this):
        made[year] = MembershipYear.objects.create(
            year=year, starts_on=date(year, 1, 1), ends_on=date(year, 12, 31), currency="EUR")
        MembershipFee.objects.create(membership_year=made[year], amount="120.00",
                                     membership_type=MembershipType.objects.get(kind="regular"))
    return made


def test_the_invoice_job_issues_the_current_years_invoices_once(years, make_member) -> None:
    this = date.today().year
    member = make_member(joined_on=date(this - 1, 1, 1))  # invoiced for last year
    assert tasks.issue_dues_invoices.delay().get() == 1
    assert DuesInvoice.objects.filter(member=member, membership_year=years[this]).count() == 1
    assert tasks.issue_dues_invoices.delay().get() == 0
    assert tasks.issue_dues_invoices.delay(year=this - 1).get() == 0
    assert tasks.issue_dues_invoices.delay(year=1990).get() == 0  # no such year


def test_the_reminder_job_sends_each_stage_once(years, make_member) -> None:
    this = date.today().year
    make_member(joined_on=date(this - 1, 1, 1))  # last year's invoice, never paid
    later = date(this, 6, 1).isoformat()
    assert tasks.send_dues_reminders.delay(today=later).get() >= 1
    assert tasks.send_dues_reminders.delay(today=later).get() == 0


def test_the_mailing_job_sends_every_batch_each_queuing_the_next(settings,
                                                                 make_member) -> None:
    settings.MAILING_BATCH_SIZE = 2
    members = [make_member() for _ in range(5)]
    mailing = Mailing.objects.create(kind=MailKind.NEWS, audience=Mailing.Audience.CLUB,
                                     state=Mailing.State.SENDING)
    MailingTranslation.objects.create(mailing=mailing, language="ru", subject="Новости",
                                      body="Весной.")
    for member in members:
        MailingDelivery.objects.create(mailing=mailing, member=member, email=member.email or
                                       member.user.email, language=member.language)
    assert tasks.send_mailings.delay().get() is True  # three batches, each queuing the next
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        d.email for d in mailing.deliveries.all())
    mailing.refresh_from_db()
    assert mailing.state == Mailing.State.SENT
    assert tasks.send_mailings.delay().get() is False  # nothing waits: no batch queued
    assert len(mail.outbox) == 5


def test_the_queued_mail_job_sends_what_is_due(settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    raw = EmailMessage(
        "Hello", "Body", None, ["a@example.org"]).message().as_bytes(linesep="\r\n")
    OutgoingMail.objects.create(
        to="a@example.org", subject="Hello", from_email="federation@example.org",
        recipients=["a@example.org"], message=raw,
        next_attempt_at=timezone.now() - timedelta(minutes=1))
    assert tasks.send_queued_mail.delay().get() == {"receipts": 0, "sent": 1, "failed": 0,
                                                    "given_up": 0}
    assert tasks.send_queued_mail.delay().get()["sent"] == 0
    assert len(mail.outbox) == 1
