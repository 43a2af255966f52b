"""Two transactions record payments against one invoice at the same time (PostgreSQL)."""

import threading
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection, connections

from federation import selectors, services
from federation.models import Payment

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks (select_for_update) need PostgreSQL; SQLite serialises writers")


def _race(invoice, treasurer, transaction_ids, **confirmations):
    barrier = threading.Barrier(len(transaction_ids))
    outcomes = []

    def record(transaction_id):
        try:
            barrier.wait()
            services.payment_record(
                invoice=invoice,
                amount=Decimal("120"),
                paid_on=date(2025, 2, 1),
                method=Payment.Method.BANK_TRANSFER,
                transaction_id=transaction_id,
                recorded_by=treasurer,
                **confirmations,
            )
            outcomes.append("ok")
        except services.MembershipError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=record, args=(t,)) for t in transaction_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(outcomes)


def test_same_bank_transaction_twice_credits_once(year_2025, make_member, treasurer):
    invoice = make_member().invoices.get()
    outcomes = _race(invoice, treasurer, ["TX-SAME", "TX-SAME"])
    assert outcomes == sorted(["ok", services.E_DUPLICATE_TRANSACTION])
    assert Payment.objects.filter(invoice=invoice).count() == 1
    assert selectors.invoice_balance(invoice).credit == Decimal("0.00")


def test_two_payments_at_once_cannot_both_pass_the_overpayment_check(
    year_2025, make_member, treasurer
):
    invoice = make_member().invoices.get()
    outcomes = _race(invoice, treasurer, ["TX-A", "TX-B"])
    assert outcomes == sorted(["ok", services.E_OVERPAYMENT])  # the lock serialises the check
    assert selectors.invoice_balance(invoice).paid == Decimal("120.00")


def test_two_different_payments_both_count(year_2025, make_member, treasurer):
    invoice = make_member().invoices.get()
    outcomes = _race(invoice, treasurer, ["TX-A", "TX-B"], confirm_overpayment=True)
    assert outcomes == ["ok", "ok"]
    balance = selectors.invoice_balance(invoice)
    assert balance.paid == Decimal("240.00")
    receipts = set(Payment.objects.values_list("receipt_number", flat=True))
    assert len(receipts) == 2
