"""A late arrival (3.11.2): up to 10 minutes late, 10 game points deducted; 11 to 15
minutes, 20; beyond 15 minutes the player misses the session (an absence)."""

from __future__ import annotations

LATE_DEDUCTIONS: tuple[tuple[int, int], ...] = ((10, 10), (15, 20))
"""(minutes late at most, game points deducted), shortest first."""


def late_deduction(minutes: int) -> int | None:
    """The points deducted for ``minutes`` late, ``None`` when the session is missed."""
    for limit, points in LATE_DEDUCTIONS:
        if minutes <= limit:
            return points
    return None
