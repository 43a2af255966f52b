"""Good standing, the one definition (federation.rules.standing): active or in grace,
never any other status. Pure: no database."""

from __future__ import annotations

from datetime import date

import pytest

from federation.rules.dues import Period, Status, membership_status
from federation.rules.standing import GOOD_STANDING, in_good_standing

YEAR_2025 = Period(date(2025, 1, 1), date(2025, 12, 31))


@pytest.mark.parametrize("status", list(Status))
def test_good_standing_is_active_or_grace(status):
    expected = status in (Status.ACTIVE, Status.GRACE)
    assert in_good_standing(status) is expected
    assert in_good_standing(status.value) is expected  # the stored code reads the same
    assert (status in GOOD_STANDING) is expected


@pytest.mark.parametrize(("today", "expected"), [
    (date(2025, 12, 31), True),  # the paid year's last day: active
    (date(2026, 3, 1), True),  # 60 days after it: grace
    (date(2026, 3, 2), False),  # lapsed
])
def test_good_standing_from_the_paid_years(today, expected):
    status = membership_status(today=today, paid_periods=[YEAR_2025], grace_days=60)
    assert in_good_standing(status) is expected


def test_honorary_members_are_in_good_standing():
    status = membership_status(today=date(2030, 1, 1), paid_periods=[], grace_days=60,
                               honorary=True)
    assert in_good_standing(status)


@pytest.mark.parametrize(("application", "erased"), [
    ("pending", False), ("rejected", False), ("approved", True),
])
def test_applicants_rejected_and_erased_are_not(application, erased):
    status = membership_status(today=date(2025, 6, 1), paid_periods=[YEAR_2025],
                               grace_days=60, application=application, erased=erased)
    assert not in_good_standing(status)
