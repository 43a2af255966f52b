"""Good standing, the one definition: a member whose status is active or in the grace
period after the paid year (``federation.rules.dues.membership_status``). A member in good
standing may enter tournaments as a member (and pays the member's price) and receives the
mailings to "members in good standing" (decision 0315).

Not to be confused with **active** alone (``Status.ACTIVE``: the current year paid, or
honorary), which is what the public membership check shows and what the accreditation
checks want of the organizer and the club's members: there the grace period only warns.
"""

from __future__ import annotations

from federation.rules.dues import Status

GOOD_STANDING: frozenset[Status] = frozenset({Status.ACTIVE, Status.GRACE})
"""The statuses of good standing."""


def in_good_standing(status: Status | str) -> bool:
    """Whether a member of ``status`` is in good standing (active or in grace)."""
    return status in GOOD_STANDING
