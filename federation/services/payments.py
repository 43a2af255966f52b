"""Payment writes: record (treasurer, bank import, online provider), reverse a mistaken one."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from federation import emails, selectors
from federation.errors import (
    E_ALREADY_REVERSED,
    E_AMOUNT_NOT_POSITIVE,
    E_BAD_FILE,
    E_DUPLICATE_TRANSACTION,
    E_INVOICE_CANCELLED,
    E_OVERPAYMENT,
    E_PAYMENT_IN_FUTURE,
    E_POSSIBLE_DUPLICATE,
    E_REASON_REQUIRED,
    MembershipError,
)
from federation.models import DuesInvoice, Payment
from federation.rules import bank_statement, dues
from federation.services._common import (
    audit,
    next_number,
)
from federation.services.coverage import invoices_coverage_refresh


@transaction.atomic
def payment_record(
    *,
    invoice: DuesInvoice,
    amount: Decimal,
    paid_on: date,
    method: str,
    recorded_by: Any,
    reference: str = "",
    transaction_id: str = "",
    confirm_overpayment: bool = False,
    confirm_duplicate: bool = False,
    money_already_received: bool = False,
    today: date | None = None,
    mail_receipt_now: bool = True,
) -> Payment:
    """Record money received. The invoice row is locked, so two recordings of the same bank
    transaction cannot both pass the duplicate check; the unique constraint backs it up.

    Refused: a date in the future, a cancelled invoice, a transaction id already recorded.
    ``money_already_received`` (a card payment the provider has confirmed: the money is
    there whatever the invoice says) records it on a cancelled invoice too, where it is a
    refund due (``selectors.refunds_due``) until the treasurer reverses it.
    Refused unless confirmed: a payment that takes the invoice beyond its amount, and one
    without a transaction id that repeats the amount and day of one already recorded (the
    same cash entered twice). Partial payments leave a balance (federation.rules.dues).

    The receipt is mailed after the commit, or with ``mail_receipt_now=False`` left waiting
    for ``send_queued_mail`` (a bank statement's many payments)."""
    amount = Decimal(amount)
    if amount <= 0:
        raise MembershipError(E_AMOUNT_NOT_POSITIVE)
    if paid_on > (today or selectors.today()):
        raise MembershipError(E_PAYMENT_IN_FUTURE, paid_on.isoformat())
    invoice = DuesInvoice.objects.select_for_update().get(pk=invoice.pk)
    if invoice.cancelled and not money_already_received:
        raise MembershipError(E_INVOICE_CANCELLED)
    transaction_id = transaction_id.strip()
    current = Payment.objects.filter(invoice=invoice, reversed_at__isnull=True)
    if (
        transaction_id
        and Payment.objects.filter(
            method=method, transaction_id=transaction_id, reversed_at__isnull=True
        ).exists()
    ):
        raise MembershipError(E_DUPLICATE_TRANSACTION, transaction_id)
    if not transaction_id and not confirm_duplicate:
        twin = current.filter(amount=dues.money(amount), paid_on=paid_on, method=method).first()
        if twin is not None:
            raise MembershipError(E_POSSIBLE_DUPLICATE, twin.receipt_number)
    paid = dues.money(sum(current.values_list("amount", flat=True), Decimal(0)) + amount)
    if paid > invoice.amount and not confirm_overpayment:
        raise MembershipError(E_OVERPAYMENT, f"{paid} {invoice.currency}")
    receipt = next_number(f"receipt-{paid_on.year}")
    try:
        with transaction.atomic():
            payment = Payment.objects.create(
                invoice=invoice,
                amount=dues.money(amount),
                paid_on=paid_on,
                method=method,
                reference=reference,
                transaction_id=transaction_id,
                receipt_number=f"R{paid_on.year}-{receipt:05d}",
                recorded_by=recorded_by,
                receipt_waiting=not mail_receipt_now,
            )
    except IntegrityError as error:
        raise MembershipError(E_DUPLICATE_TRANSACTION, transaction_id) from error
    invoices_coverage_refresh(invoice_ids=[invoice.pk])
    audit(
        payment,
        "federation.payment.record",
        recorded_by,
        {
            "invoice": invoice.number,
            "amount": str(payment.amount),
            "method": method,
            "transaction_id": transaction_id,
        },
    )
    if mail_receipt_now:
        emails.on_commit_send(emails.payment_received, payment.pk)
    return payment


@transaction.atomic
def payment_reverse(*, payment: Payment, reversed_by: Any, reason: str) -> Payment:
    """Undo a mistaken payment: it stays on record (receipt number kept) but counts for
    nothing; who, when and why are stored and written to the audit log."""
    reason = reason.strip()
    if not reason:
        raise MembershipError(E_REASON_REQUIRED)
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    if payment.reversed_at is not None:
        raise MembershipError(E_ALREADY_REVERSED)
    payment.reversed_at = timezone.now()
    payment.reversed_by = reversed_by
    payment.reversal_reason = reason
    payment.save(update_fields=["reversed_at", "reversed_by", "reversal_reason"])
    invoices_coverage_refresh(invoice_ids=[payment.invoice_id])
    audit(
        payment,
        "federation.payment.reverse",
        reversed_by,
        {"receipt": payment.receipt_number, "amount": str(payment.amount), "reason": reason},
    )
    return payment


@dataclass
class ImportReport:
    recorded: list[Payment] = field(default_factory=list)
    unmatched: list[bank_statement.StatementRow] = field(default_factory=list)
    # rows whose reference names more than one invoice: recorded by hand, never guessed
    ambiguous: list[bank_statement.StatementRow] = field(default_factory=list)
    already_recorded: list[bank_statement.StatementRow] = field(default_factory=list)


@transaction.atomic
def bank_statement_import(*, data: bytes | str, recorded_by: Any) -> ImportReport:
    """Match each row to an invoice by the invoice number in its reference and record it.
    A malformed file raises MembershipError(E_BAD_FILE, errors) and writes nothing; rows whose
    transaction was already recorded are reported, not recorded again; rows without a known
    invoice are reported as unmatched, rows naming several invoices as ambiguous (the
    treasurer decides; nothing is credited to the first). The receipts are mailed by the
    next ``send_queued_mail``. The bank's statement is the fact: over-payments are
    recorded as they arrived (the credit shows on the invoice)."""
    statement = bank_statement.parse_statement(data)
    if statement.errors:
        raise MembershipError(E_BAD_FILE, statement.errors)
    report = ImportReport()
    named = {row.invoice_number for row in statement.rows if not row.is_ambiguous}
    invoices = {
        invoice.number: invoice
        for invoice in DuesInvoice.objects.filter(number__in=named - {None}, cancelled=False)
    }
    for row in statement.rows:
        if row.is_ambiguous:
            report.ambiguous.append(row)
            continue
        number = row.invoice_number
        invoice = invoices.get(number) if number is not None else None
        if invoice is None or (row.currency and row.currency != invoice.currency):
            # a rouble transfer is never credited to an invoice in another currency
            report.unmatched.append(row)
            continue
        try:
            payment = payment_record(
                invoice=invoice,
                amount=row.amount,
                paid_on=row.paid_on,
                method=Payment.Method.BANK_TRANSFER,
                reference=row.reference,
                transaction_id=row.transaction_id,
                recorded_by=recorded_by,
                confirm_overpayment=True,
                # thousands of receipts (a PDF each) are not written while the treasurer
                # waits: send_queued_mail mails them (issue 22, item 7)
                mail_receipt_now=False,
            )
        except MembershipError as error:
            if error.code != E_DUPLICATE_TRANSACTION:
                raise
            report.already_recorded.append(row)
            continue
        report.recorded.append(payment)
    return report
