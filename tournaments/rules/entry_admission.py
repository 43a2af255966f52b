"""Who may enter a tournament, and when: entries are taken while the tournament is
accredited and has not started; members only, always or until the members-first date."""

from __future__ import annotations

from datetime import date

from tournaments.rules import states


def entries_accepted(*, state: str, start_date: date, today: date) -> bool:
    """Whether the tournament takes entries ``today``: its state allows the step "enter"
    (accredited) and it starts after today."""
    return states.allows("enter", state) and start_date > today


def members_only(*, open_to_members_only: bool, members_first_until: date | None,
                 today: date) -> bool:
    """Whether only members may enter ``today``: always (``open_to_members_only``), or up
    to and including the members-first date."""
    if open_to_members_only:
        return True
    return members_first_until is not None and today <= members_first_until
