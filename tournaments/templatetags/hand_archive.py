"""Template filters of the hand archive (issue 40)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django import template

register = template.Library()


@register.filter
def hand_fans(hand: Any, names: dict[str, str]) -> list[tuple[str, int]]:
    """A stored hand's fans as (name in the reader's language, times), in the order scored."""
    counts = Counter(str(f) for f in (hand.fans or ()))
    return [(names.get(fan, fan), n) for fan, n in counts.items()]


@register.filter
def percent_of(part: Any, whole: Any) -> float | None:
    """``part`` as a percentage of ``whole`` (none when there is no whole)."""
    try:
        return 100 * float(part) / float(whole) if whole else None
    except (TypeError, ValueError):
        return None
