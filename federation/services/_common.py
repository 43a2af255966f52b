"""What every membership service shares: the audit log and counters (the errors are in
``federation.errors``)."""

from __future__ import annotations

from typing import Any

from wagtail.log_actions import log

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
