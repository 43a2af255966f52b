"""Pure dues: status at its boundary dates, pro-rating, balances, reminder stages."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from federation.rules.dues import (
    InvoiceState,
    Period,
    Status,
    age_on,
    coverage_end,
    invoice_balance,
    membership_status,
    prorated_fee,
    reminder_stage,
)

Y2025 = Period(date(2025, 1, 1), date(2025, 12, 31))
Y2026 = Period(date(2026, 1, 1), date(2026, 12, 31))


@pytest.mark.parametrize(
    ("today", "expected"),
    [
        (date(2024, 12, 31), Status.LAPSED),  # before the paid year starts
        (date(2025, 1, 1), Status.ACTIVE),  # first day
        (date(2025, 12, 31), Status.ACTIVE),  # last day
        (date(2026, 1, 1), Status.GRACE),  # first day after
        (date(2026, 3, 1), Status.GRACE),  # 60th day after (2026-01-01 + 59)
        (date(2026, 3, 2), Status.LAPSED),  # 61st day after
    ],
)
def test_status_boundaries(today, expected):
    assert membership_status(today=today, paid_periods=[Y2025], grace_days=60) == expected


def test_grace_zero_days_lapses_the_day_after():
    assert membership_status(today=date(2026, 1, 1), paid_periods=[Y2025], grace_days=0) == (
        Status.LAPSED
    )


def test_no_payment_is_lapsed_and_honorary_always_active():
    assert membership_status(today=date(2025, 5, 1), paid_periods=[], grace_days=60) == (
        Status.LAPSED
    )
    assert (
        membership_status(today=date(2030, 5, 1), paid_periods=[], grace_days=0, honorary=True)
        == Status.ACTIVE
    )


def test_paying_next_year_during_grace_makes_active_on_its_first_day():
    periods = [Y2025, Y2026]
    assert membership_status(today=date(2026, 1, 1), paid_periods=periods, grace_days=60) == (
        Status.ACTIVE
    )


def test_coverage_chains_consecutive_years():
    assert coverage_end(today=date(2025, 6, 1), paid_periods=[Y2026, Y2025]) == date(2026, 12, 31)
    assert coverage_end(today=date(2025, 6, 1), paid_periods=[Y2025]) == date(2025, 12, 31)
    assert coverage_end(today=date(2024, 6, 1), paid_periods=[Y2025]) is None


@pytest.mark.parametrize(
    ("joined", "prorate", "expected"),
    [
        (date(2024, 12, 1), True, Decimal("120.00")),  # before the year: full
        (date(2025, 1, 1), True, Decimal("120.00")),  # first day: full
        (date(2025, 1, 31), True, Decimal("120.00")),  # January: 12/12
        (date(2025, 2, 1), True, Decimal("110.00")),  # 11/12
        (date(2025, 7, 15), True, Decimal("60.00")),  # 6/12
        (date(2025, 12, 31), True, Decimal("10.00")),  # 1/12
        (date(2025, 7, 15), False, Decimal("120.00")),  # pro-rating off
    ],
)
def test_prorating(joined, prorate, expected):
    fee = prorated_fee(annual_fee=Decimal("120"), period=Y2025, joined_on=joined, prorate=prorate)
    assert fee == expected
    assert isinstance(fee, Decimal)


def test_prorating_rounds_half_up_to_cents():
    # 100 * 5 / 12 = 41.666.. -> 41.67
    fee = prorated_fee(
        annual_fee=Decimal("100"), period=Y2025, joined_on=date(2025, 8, 1), prorate=True
    )
    assert fee == Decimal("41.67")


def test_prorating_after_year_end_is_an_error():
    with pytest.raises(ValueError):
        prorated_fee(annual_fee=Decimal(1), period=Y2025, joined_on=date(2026, 1, 1), prorate=True)


@given(
    fee=st.decimals(min_value=0, max_value=10000, places=2),
    day=st.dates(min_value=date(2025, 1, 1), max_value=date(2025, 12, 31)),
)
def test_prorated_never_exceeds_fee_nor_negative(fee, day):
    value = prorated_fee(annual_fee=fee, period=Y2025, joined_on=day, prorate=True)
    assert Decimal(0) <= value <= fee


@pytest.mark.parametrize(
    ("payments", "state", "outstanding", "credit"),
    [
        ([], InvoiceState.UNPAID, "100.00", "0.00"),
        (["40"], InvoiceState.PARTIAL, "60.00", "0.00"),
        (["40", "60"], InvoiceState.PAID, "0.00", "0.00"),
        (["150"], InvoiceState.OVERPAID, "0.00", "50.00"),
    ],
)
def test_invoice_balance(payments, state, outstanding, credit):
    balance = invoice_balance(amount=Decimal("100"), payments=[Decimal(p) for p in payments])
    assert balance.state == state
    assert balance.outstanding == Decimal(outstanding)
    assert balance.credit == Decimal(credit)


def test_free_invoice_is_paid():
    assert invoice_balance(amount=Decimal(0), payments=[]).state == InvoiceState.PAID


@pytest.mark.parametrize(
    ("today", "status", "expected"),
    [
        (date(2025, 11, 30), Status.ACTIVE, None),  # 31 days left
        (date(2025, 12, 1), Status.ACTIVE, "before-30"),  # 30 days left
        (date(2025, 12, 23), Status.ACTIVE, "before-30"),  # 8 days left
        (date(2025, 12, 24), Status.ACTIVE, "before-7"),  # 7 days left
        (date(2026, 1, 5), Status.GRACE, "grace"),
        (date(2026, 5, 5), Status.LAPSED, None),
    ],
)
def test_reminder_stage(today, status, expected):
    covered = date(2025, 12, 31) if status == Status.ACTIVE else None
    assert (
        reminder_stage(today=today, status=status, covered_until=covered, days_before=[30, 7])
        == expected
    )


def test_age_on_birthday_boundary():
    assert age_on(born_on=date(2007, 3, 10), day=date(2025, 3, 9)) == 17
    assert age_on(born_on=date(2007, 3, 10), day=date(2025, 3, 10)) == 18
