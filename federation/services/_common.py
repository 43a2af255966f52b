"""What every membership service shares: the errors (``federation.errors``), the audit log,
counters."""

from __future__ import annotations

from typing import Any

from wagtail.log_actions import log

from federation.errors import (  # noqa: F401 (the services' errors, re-exported)
    E_ALREADY_APPLIED,
    E_ALREADY_CANCELLED,
    E_ALREADY_ERASED,
    E_ALREADY_REVERSED,
    E_AMOUNT_NOT_POSITIVE,
    E_BAD_FILE,
    E_COVERED_BY_FAMILY,
    E_DUPLICATE_TRANSACTION,
    E_FREE_TYPE,
    E_INVOICE_CANCELLED,
    E_INVOICE_EXISTS,
    E_INVOICE_HAS_PAYMENTS,
    E_JOINED_AFTER_YEAR,
    E_NO_FEE,
    E_NOT_APPROVED,
    E_NOT_PENDING,
    E_ONLINE_UNAVAILABLE,
    E_OVERPAYMENT,
    E_PAYMENT_IN_FUTURE,
    E_POSSIBLE_DUPLICATE,
    E_REASON_REQUIRED,
    MembershipError,
)
from federation.models import NumberSequence


def audit(instance: Any, action: str, user: Any, data: dict[str, Any] | None = None) -> None:
    title = f"{instance._meta.verbose_name} #{instance.pk}"
    log(instance=instance, action=action, user=user, title=title, data=data or {})


def next_number(key: str) -> int:
    """Increment a named counter under a row lock; numbers are never reused."""
    NumberSequence.objects.get_or_create(key=key)
    sequence = NumberSequence.objects.select_for_update().get(key=key)
    sequence.last_value += 1
    sequence.save(update_fields=["last_value"])
    return sequence.last_value
