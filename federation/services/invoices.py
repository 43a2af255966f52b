"""Invoice writes: issue one, issue a year's, cancel one."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction

from federation import selectors
from federation.errors import (
    E_ALREADY_CANCELLED,
    E_AMOUNT_NOT_POSITIVE,
    E_INVOICE_EXISTS,
    E_INVOICE_HAS_PAYMENTS,
    MembershipError,
)
from federation.models import DuesInvoice, Member, MembershipFee, MembershipYear
from federation.rules import dues
from federation.services._common import (
    audit,
    next_number,
)
from federation.services.coverage import invoices_coverage_refresh, member_coverage_refresh


def billed_name(member: Member) -> str:
    """The name as the member writes it (native script, accents kept), else the Latin one."""
    return member.name_native or member.name_latin


def due_date(*, issued_on: date, membership_year: MembershipYear) -> date:
    """Payment term after issue, but never before the year starts (renewals issued early)."""
    term = issued_on + timedelta(days=settings.MEMBERSHIP_PAYMENT_TERM_DAYS)
    return max(term, membership_year.starts_on)


@transaction.atomic
def dues_invoice_issue(
    *,
    member: Member,
    membership_year: MembershipYear,
    issued_by: Any,
    today: date | None = None,
) -> DuesInvoice:
    """One invoice per payer and year. A family invoice covers the head and the members
    linked to them. Joining during the year is pro-rated when MEMBERSHIP_PRORATE is on."""
    today = today or selectors.today()
    member = Member.objects.select_for_update().select_related("membership_type").get(pk=member.pk)
    membership_type = member.membership_type
    amount = selectors.invoice_amount(member=member, membership_year=membership_year,
                                      today=today)
    if DuesInvoice.objects.filter(
        member=member, membership_year=membership_year, cancelled=False
    ).exists():
        raise MembershipError(E_INVOICE_EXISTS)
    full_fee = MembershipFee.objects.get(
        membership_year=membership_year, membership_type=membership_type
    ).amount
    sequence = next_number(f"invoice-{membership_year.year}")
    invoice = DuesInvoice.objects.create(
        number=f"{membership_year.year}-{sequence:05d}",
        membership_year=membership_year,
        member=member,
        membership_type=membership_type,
        billed_name=billed_name(member),
        amount=amount,
        currency=membership_year.currency,
        issued_on=today,
        due_on=due_date(issued_on=today, membership_year=membership_year),
        prorated=amount != dues.money(full_fee),
    )
    covered = [member]
    if membership_type.covers_family:
        covered += list(member.family_members.filter(anonymised_at__isnull=True))
    invoice.covered_members.set(covered)
    member_coverage_refresh(member_ids=[m.pk for m in covered])
    audit(
        invoice,
        "federation.invoice.issue",
        issued_by,
        {"amount": str(amount), "covered": [m.pk for m in covered]},
    )
    return invoice


@transaction.atomic
def invoice_issue(
    *,
    user: Any,
    billed_name: str,
    amount: Decimal,
    purpose: str,
    due_on: date | None,
    issued_by: Any,
    currency: str | None = None,
    today: date | None = None,
) -> DuesInvoice:
    """An invoice that is not dues (a tournament's entry fee): billed to an account, numbered
    in the same yearly sequence as the dues (so the bank import matches it), paid and
    reversed like any other. The currency is the current membership year's."""
    today = today or selectors.today()
    amount = dues.money(Decimal(amount))
    if amount < 0:
        raise MembershipError(E_AMOUNT_NOT_POSITIVE)
    if currency is None:
        year = selectors.membership_year_for(today)
        currency = year.currency if year else settings.MEMBERSHIP_CURRENCY
    sequence = next_number(f"invoice-{today.year}")
    invoice = DuesInvoice.objects.create(
        number=f"{today.year}-{sequence:05d}",
        user=user,
        purpose=purpose[:300],
        billed_name=billed_name[:200],
        amount=amount,
        currency=currency,
        issued_on=today,
        due_on=due_on,
    )
    audit(invoice, "federation.invoice.issue", issued_by,
          {"amount": str(amount), "user": getattr(user, "pk", None)})
    return invoice


@transaction.atomic
def dues_invoices_issue_for_year(
    *, membership_year: MembershipYear, issued_by: Any, today: date | None = None
) -> list[DuesInvoice]:
    """Issue the year's invoices to every approved paying member who has none yet (what
    selectors.dues_invoices_preview lists). Safe to re-run."""
    issued = []
    for line in selectors.dues_invoices_preview(membership_year=membership_year, today=today):
        if line.error is None:
            issued.append(
                dues_invoice_issue(
                    member=line.member,
                    membership_year=membership_year,
                    issued_by=issued_by,
                    today=today,
                )
            )
    return issued


@transaction.atomic
def dues_invoice_cancel(*, invoice: DuesInvoice, cancelled_by: Any) -> DuesInvoice:
    """Cancel an invoice issued by mistake. An invoice with payments is never cancelled
    silently: the treasurer reverses its payments first (payment_reverse, with a reason)."""
    invoice = DuesInvoice.objects.select_for_update().get(pk=invoice.pk)
    if invoice.cancelled:
        raise MembershipError(E_ALREADY_CANCELLED)
    receipts = list(
        invoice.payments.filter(reversed_at__isnull=True).values_list("receipt_number", flat=True)
    )
    if receipts:
        raise MembershipError(E_INVOICE_HAS_PAYMENTS, ", ".join(receipts))
    invoice.cancelled = True
    invoice.save(update_fields=["cancelled"])
    invoices_coverage_refresh(invoice_ids=[invoice.pk])
    audit(invoice, "federation.invoice.cancel", cancelled_by, {"number": invoice.number})
    return invoice
