"""Dues reminders (manage.py send_dues_reminders, daily): each stage once, in the member's
language, with the amount, the due date, the bank details and a link to pay."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import transaction

from federation import emails, selectors
from federation.models import Member, ReminderSent
from federation.rules import dues


def _send_once(
    member: Member,
    period_ends_on: date,
    stage: str,
    invoice_pk: int | None,
    covered_until: date | None = None,
) -> bool:
    with transaction.atomic():
        _, created = ReminderSent.objects.get_or_create(
            member=member, period_ends_on=period_ends_on, stage=stage
        )
        if created:
            emails.dues_reminder(member.pk, stage, invoice_pk, covered_until)
    return created


def reminders_send(*, today: date | None = None) -> int:
    """Two kinds, each sent once per member, period and stage (safe to re-run):

    - renewal: the paid membership ends within MEMBERSHIP_REMINDER_DAYS days, or the member
      is in grace (dues.reminder_stage);
    - invoice: an open invoice is due within MEMBERSHIP_INVOICE_REMINDER_DAYS days or overdue
      (dues.invoice_reminder_stage) — this reaches newly approved members who have not paid.
    """
    today = today or selectors.today()
    sent = 0
    members = list(
        Member.objects.filter(
            application=Member.Application.APPROVED,
            anonymised_at__isnull=True,
            membership_type__is_free=False,
        ).select_related("membership_type", "user")
    )
    periods = selectors.invoice_periods_by_member([m.pk for m in members])
    open_invoices = selectors.open_invoices_by_payer([m.pk for m in members])
    for member in members:
        if not (member.email or (member.user and member.user.email)):
            continue
        paid = periods.paid.get(member.pk, [])
        invoices = open_invoices.get(member.pk, [])
        status = dues.membership_status(
            today=today, paid_periods=paid, grace_days=settings.MEMBERSHIP_GRACE_DAYS
        )
        covered_until = dues.coverage_end(today=today, paid_periods=paid)
        stage = dues.reminder_stage(
            today=today,
            status=status,
            covered_until=covered_until,
            days_before=settings.MEMBERSHIP_REMINDER_DAYS,
        )
        if stage is not None:
            period_end = covered_until or max(p.ends_on for p in paid if p.ends_on < today)
            renewal = next(
                (i for i, _b in invoices if i.membership_year.starts_on > period_end), None
            )
            if _send_once(
                member, period_end, stage, renewal.pk if renewal else None, covered_until
            ):
                sent += 1
            continue
        for invoice, balance in invoices:
            invoice_stage = dues.invoice_reminder_stage(
                today=today,
                due_on=invoice.due_on or invoice.issued_on,
                outstanding=balance.outstanding,
                days_before=settings.MEMBERSHIP_INVOICE_REMINDER_DAYS,
            )
            if invoice_stage is None:
                continue
            if _send_once(
                member, invoice.membership_year.ends_on, f"invoice-{invoice_stage}", invoice.pk
            ):
                sent += 1
    return sent
