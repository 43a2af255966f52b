"""The pure rules of players' own entries: the price (tournaments.rules.entry_price), who
may enter and when (tournaments.rules.entry_admission) and the refund of a withdrawal
(tournaments.rules.refund). No database."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tournaments.rules.entry_admission import (
    ENTRY_DATES_AFTER_START,
    ENTRY_DATES_ORDER,
    entries_accepted,
    entry_dates_problem,
    members_only,
)
from tournaments.rules.entry_price import entry_fee
from tournaments.rules.refund import refund_due
from tournaments.rules.states import STATES

D = Decimal


@pytest.mark.parametrize(("member", "other", "is_member", "expected"), [
    (D("20"), D("30"), True, D("20")),
    (D("20"), D("30"), False, D("30")),
    (None, D("30"), True, D("30")),  # one price given: everybody's
    (D("20"), None, False, D("20")),
    (None, None, True, D("0")),  # no price: free
    (None, None, False, D("0")),
    (D("0"), D("30"), True, D("0")),  # a price of zero is a price
])
def test_entry_fee_member_or_other(member, other, is_member, expected):
    assert entry_fee(fee_member=member, fee_other=other, fee_reduced=None,
                     is_member=is_member) == expected


@pytest.mark.parametrize(("reduced_price", "reduced", "is_member", "expected"), [
    (D("10"), True, False, D("10")),
    (D("10"), False, False, D("30")),  # not claimed
    (D("25"), True, True, D("20")),  # the lower of the reduced and the person's own
    (None, True, False, D("30")),  # no reduced price: the person's own
])
def test_entry_fee_reduced(reduced_price, reduced, is_member, expected):
    fee = entry_fee(fee_member=D("20"), fee_other=D("30"), fee_reduced=reduced_price,
                    is_member=is_member, reduced=reduced)
    assert fee == expected
    assert isinstance(fee, Decimal)


def test_members_only_always_or_until_the_members_first_date():
    day = date(2026, 5, 10)
    assert members_only(open_to_members_only=True, members_first_until=None, today=day)
    assert not members_only(open_to_members_only=False, members_first_until=None, today=day)
    assert members_only(open_to_members_only=False, members_first_until=day, today=day)
    assert not members_only(open_to_members_only=False, members_first_until=date(2026, 5, 9),
                            today=day)


@pytest.mark.parametrize("state", STATES)
def test_entries_accepted_while_accredited_before_the_start(state):
    start = date(2026, 6, 1)
    accepted = entries_accepted(state=state, start_date=start, today=date(2026, 5, 31))
    assert accepted is (state == "accredited")
    assert not entries_accepted(state=state, start_date=start, today=start)


@pytest.mark.parametrize(("today", "refund_until", "expected"), [
    (date(2026, 5, 20), date(2026, 5, 20), D("30")),  # the refund date included
    (date(2026, 5, 21), date(2026, 5, 20), D("0")),
    (date(2026, 5, 31), None, D("30")),  # no date: all of it before the start
    (date(2026, 6, 1), None, D("0")),
])
def test_refund_due(today, refund_until, expected):
    assert refund_due(paid=D("30"), today=today, refund_until=refund_until,
                      start_date=date(2026, 6, 1)) == expected


def test_entries_open_and_close_on_the_organizers_dates():
    """Issue 38, item 3: entries are taken from the day the organizer opens them to the
    last day they set, not from the moment of accreditation."""
    def accepted(today, opens_on=None, closes_on=None):
        return entries_accepted(state="accredited", start_date=date(2026, 6, 10), today=today,
                                opens_on=opens_on, closes_on=closes_on)

    opens, closes = date(2026, 5, 1), date(2026, 6, 1)
    assert not accepted(date(2026, 4, 30), opens, closes)
    assert accepted(date(2026, 5, 1), opens, closes)
    assert accepted(date(2026, 6, 1), opens, closes)  # the last day is included
    assert not accepted(date(2026, 6, 2), opens, closes)
    assert accepted(date(2026, 6, 9))  # no dates: until the day before the start
    assert not accepted(date(2026, 6, 10))
    assert not entries_accepted(state="submitted", start_date=date(2026, 6, 10),
                                today=date(2026, 5, 2), opens_on=opens, closes_on=closes)


def test_entry_dates_in_order_and_before_the_start():
    start = date(2026, 6, 10)
    assert entry_dates_problem(opens_on=date(2026, 5, 1), closes_on=date(2026, 6, 9),
                               start_date=start) is None
    assert entry_dates_problem(opens_on=None, closes_on=None, start_date=start) is None
    assert entry_dates_problem(opens_on=date(2026, 6, 1), closes_on=date(2026, 5, 1),
                               start_date=start) == ("entries_until", ENTRY_DATES_ORDER)
    assert entry_dates_problem(opens_on=None, closes_on=start,
                               start_date=start) == ("entries_until", ENTRY_DATES_AFTER_START)
    assert entry_dates_problem(opens_on=date(2026, 6, 11), closes_on=None,
                               start_date=start) == ("entries_from", ENTRY_DATES_AFTER_START)
