"""PURE membership dues: what is owed, pro-rating, and status from dates.

No ORM, no HTTP, no translation: dates, Decimal and dataclasses in, stable codes out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum

CENT = Decimal("0.01")


class Status(StrEnum):
    """The one status vocabulary (labels: federation.status_labels.STATUS_LABELS)."""

    APPLIED = "applied"  # application waiting for a membership officer
    AWAITING_PAYMENT = "awaiting_payment"  # approved, first invoice not paid yet
    ACTIVE = "active"
    GRACE = "grace"
    LAPSED = "lapsed"
    REJECTED = "rejected"
    ERASED = "erased"


class Application(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


class InvoiceState(StrEnum):
    UNPAID = "unpaid"
    PARTIAL = "partial"
    PAID = "paid"
    OVERPAID = "overpaid"


@dataclass(frozen=True)
class Period:
    """A membership year: both ends inclusive."""

    starts_on: date
    ends_on: date

    def __post_init__(self) -> None:
        if self.ends_on < self.starts_on:
            raise ValueError("period ends before it starts")

    def contains(self, day: date) -> bool:
        return self.starts_on <= day <= self.ends_on


@dataclass(frozen=True)
class Balance:
    amount: Decimal
    paid: Decimal
    outstanding: Decimal  # >= 0
    credit: Decimal  # >= 0: paid beyond the amount
    state: InvoiceState


def money(value: Decimal | int | str) -> Decimal:
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def invoice_balance(*, amount: Decimal, payments: Iterable[Decimal]) -> Balance:
    """Partial payments leave an outstanding amount; overpayments leave a credit."""
    amount = money(amount)
    paid = money(sum((Decimal(p) for p in payments), Decimal(0)))
    outstanding = max(amount - paid, Decimal("0.00"))
    credit = max(paid - amount, Decimal("0.00"))
    if paid == 0 and amount > 0:
        state = InvoiceState.UNPAID
    elif outstanding > 0:
        state = InvoiceState.PARTIAL
    elif credit > 0:
        state = InvoiceState.OVERPAID
    else:
        state = InvoiceState.PAID
    return Balance(amount, paid, outstanding, credit, state)


def months_inclusive(start: date, end: date) -> int:
    return (end.year - start.year) * 12 + end.month - start.month + 1


def prorated_fee(*, annual_fee: Decimal, period: Period, joined_on: date, prorate: bool) -> Decimal:
    """The fee for someone joining on `joined_on`.

    Pro-rating counts whole calendar months left in the period, the joining month included:
    joining in July of a January-December year pays 6/12. Without pro-rating, or when joining
    on or before the period starts, the full fee is due. Rounded half-up to the cent.
    """
    fee = money(annual_fee)
    if joined_on > period.ends_on:
        raise ValueError("joined after the period ends")
    if not prorate or joined_on <= period.starts_on:
        return fee
    total = months_inclusive(period.starts_on, period.ends_on)
    remaining = months_inclusive(joined_on, period.ends_on)
    if remaining >= total:
        return fee
    return money(fee * remaining / total)


def coverage_end(*, today: date, paid_periods: Iterable[Period]) -> date | None:
    """End of the uninterrupted paid coverage that contains `today` (None if not covered).

    Consecutive paid years chain: paid 2025 and 2026 on 2025-06-01 gives 2026-12-31.
    """
    periods = sorted(paid_periods, key=lambda p: p.starts_on)
    end: date | None = None
    for period in periods:
        if end is None:
            if period.contains(today):
                end = period.ends_on
        elif period.starts_on <= end + timedelta(days=1):
            end = max(end, period.ends_on)
    return end


def membership_status(
    *,
    today: date,
    paid_periods: Iterable[Period],
    grace_days: int,
    honorary: bool = False,
    application: str = Application.APPROVED,
    erased: bool = False,
    open_periods: Iterable[Period] = (),
) -> Status:
    """The member's status from every input there is.

    `paid_periods`: periods of fully paid, not cancelled invoices covering the member;
    `open_periods`: periods of issued, not cancelled invoices not yet fully paid.
    ERASED and the application states come first; honorary members are always ACTIVE;
    ACTIVE inside a paid period; GRACE for `grace_days` days after the last paid period ended
    (its last day is still active); AWAITING_PAYMENT for an approved member who has never paid
    and has an invoice whose period has not ended; LAPSED otherwise."""
    if erased:
        return Status.ERASED
    if application == Application.PENDING:
        return Status.APPLIED
    if application == Application.REJECTED:
        return Status.REJECTED
    if honorary:
        return Status.ACTIVE
    periods = list(paid_periods)
    if any(p.contains(today) for p in periods):
        return Status.ACTIVE
    ended = [p.ends_on for p in periods if p.ends_on < today]
    if ended and today <= max(ended) + timedelta(days=grace_days):
        return Status.GRACE
    if not periods and any(p.ends_on >= today for p in open_periods):
        return Status.AWAITING_PAYMENT
    return Status.LAPSED


@dataclass(frozen=True)
class Coverage:
    """What a member's status needs from every invoice, kept on the member (decision 0820):
    the latest uninterrupted paid coverage (``paid_from`` .. ``paid_through``) and the last day
    of the latest still open invoice's period (``open_until``)."""

    paid_from: date | None = None
    paid_through: date | None = None
    open_until: date | None = None

    def paid_periods(self) -> list[Period]:
        if self.paid_from is None or self.paid_through is None:
            return []
        return [Period(self.paid_from, self.paid_through)]

    def open_periods(self) -> list[Period]:
        return [] if self.open_until is None else [Period(self.open_until, self.open_until)]


def coverage(*, paid_periods: Iterable[Period], open_periods: Iterable[Period] = ()) -> Coverage:
    """The stored summary of a member's invoices: paid years that follow each other chain
    into one coverage (paid 2025 and 2026 covers 2025-01-01..2026-12-31); the latest chain
    is kept. Years paid before a gap have ended for the status: membership_status gives
    the same answer from this summary on any day from the gap on."""
    periods = sorted(paid_periods, key=lambda p: (p.starts_on, p.ends_on))
    paid_from: date | None = None
    paid_through: date | None = None
    for period in periods:
        if paid_through is not None and period.starts_on <= paid_through + timedelta(days=1):
            paid_through = max(paid_through, period.ends_on)
        else:
            paid_from, paid_through = period.starts_on, period.ends_on
    ends = [p.ends_on for p in open_periods]
    return Coverage(paid_from, paid_through, max(ends) if ends else None)


def overlapping(period: Period, others: Iterable[Period]) -> list[Period]:
    """The periods among `others` that share at least one day with `period`."""
    return [o for o in others if o.starts_on <= period.ends_on and period.starts_on <= o.ends_on]


def grace_ends_on(*, period_ends_on: date, grace_days: int) -> date:
    return period_ends_on + timedelta(days=grace_days)


def reminder_stage(
    *,
    today: date,
    status: Status,
    covered_until: date | None,
    days_before: Sequence[int],
) -> str | None:
    """Which reminder a member is due today, as a stable code, or None.

    "before-N": the paid coverage ends within N days (the most urgent N that applies);
    "grace": the member is in the grace period. Sending each stage once per period is the
    caller's job (it records what was sent).
    """
    if status == Status.GRACE:
        return "grace"
    if status != Status.ACTIVE or covered_until is None:
        return None
    days_left = (covered_until - today).days
    applicable = [n for n in days_before if days_left <= n]
    if not applicable:
        return None
    return f"before-{min(applicable)}"


def age_on(*, born_on: date, day: date) -> int:
    return day.year - born_on.year - ((day.month, day.day) < (born_on.month, born_on.day))


def invoice_reminder_stage(
    *, today: date, due_on: date, outstanding: Decimal, days_before: int
) -> str | None:
    """Which reminder an unpaid invoice is due today, as a stable code, or None.

    "due-soon": the due date is within `days_before` days; "overdue": the due date has
    passed. Nothing once the invoice is paid. Sending each stage once is the caller's job."""
    if outstanding <= 0:
        return None
    if today > due_on:
        return "overdue"
    if (due_on - today).days <= days_before:
        return "due-soon"
    return None
