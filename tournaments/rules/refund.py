"""What a withdrawn entry gets back: the organizer's refund rule."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal


def refund_due(*, paid: Decimal, today: date, refund_until: date | None,
               start_date: date) -> Decimal:
    """All of it back up to the refund date (included), none after; without a date, all of
    it back before the start."""
    last_day = refund_until or (start_date - timedelta(days=1))
    return paid if today <= last_day else Decimal(0)
