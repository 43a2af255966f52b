"""The late-arrival rule (3.11.2, tournaments.rules.lateness): 10 points up to 10 minutes,
20 up to 15, then the session is missed. No database."""

from __future__ import annotations

import pytest

from tournaments.rules.lateness import late_deduction


@pytest.mark.parametrize(("minutes", "points"), [
    (1, 10), (10, 10), (11, 20), (15, 20), (16, None), (600, None),
])
def test_late_deduction(minutes, points):
    assert late_deduction(minutes) == points
