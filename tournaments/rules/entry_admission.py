"""Who may enter a tournament, and when: entries are taken while the tournament is
accredited, from the day its organizer opens them to the day they close (at the latest the
day before it starts); members only, always or until the members-first date
(docs/decisions/0721-changes-after-accreditation.md)."""

from __future__ import annotations

from datetime import date

from tournaments.rules import states


def entries_accepted(*, state: str, start_date: date, today: date,
                     opens_on: date | None = None, closes_on: date | None = None) -> bool:
    """Whether the tournament takes entries ``today``: its state allows the step "enter"
    (accredited), it starts after today, entries are open (``opens_on``, none: since the
    accreditation) and not closed yet (``closes_on`` is the last day; none: the day before
    the start)."""
    if not states.allows("enter", state) or start_date <= today:
        return False
    if opens_on is not None and today < opens_on:
        return False
    return closes_on is None or today <= closes_on


ENTRY_DATES_ORDER = "entry_dates_order"
ENTRY_DATES_AFTER_START = "entry_dates_after_start"


def entry_dates_problem(*, opens_on: date | None, closes_on: date | None,
                        start_date: date | None) -> tuple[str, str] | None:
    """What is wrong with the entry dates an organizer set, as ``(field, code)``: entries
    close on or after they open, and before the tournament starts. None when they are
    right."""
    if opens_on and closes_on and closes_on < opens_on:
        return "entries_until", ENTRY_DATES_ORDER
    if start_date is not None:
        for field, day in (("entries_from", opens_on), ("entries_until", closes_on)):
            if day is not None and day >= start_date:
                return field, ENTRY_DATES_AFTER_START
    return None


def members_only(*, open_to_members_only: bool, members_first_until: date | None,
                 today: date) -> bool:
    """Whether only members may enter ``today``: always (``open_to_members_only``), or up
    to and including the members-first date."""
    if open_to_members_only:
        return True
    return members_first_until is not None and today <= members_first_until
