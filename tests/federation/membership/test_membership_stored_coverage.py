"""Issue 43: the status is read from the coverage the payment services keep on the member
(decision 0820), so the public list reads no invoice, comes in pages and is searchable."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from federation import selectors, services
from federation.models import Member, MembershipFee, MembershipType, MembershipYear
from federation.rules import dues
from federation.rules.dues import Status
from federation.views import PUBLIC_LIST_PAGE_SIZE

pytestmark = pytest.mark.django_db


@pytest.fixture
def this_year(db):
    today = timezone.localdate()
    year = MembershipYear.objects.create(year=today.year, starts_on=date(today.year, 1, 1),
                                         ends_on=date(today.year, 12, 31), currency="EUR")
    for membership_type in MembershipType.objects.all():
        MembershipFee.objects.create(
            membership_year=year, membership_type=membership_type,
            amount=Decimal("0.00") if membership_type.is_free else Decimal("100.00"))
    return year


def paid_member(make_member, treasurer, club, name, **extra):
    member = make_member(joined_on=timezone.localdate(), name_latin=name, club=club,
                         public_consent=True, **extra)
    invoice = member.invoices.get()
    services.payment_record(invoice=invoice, amount=invoice.amount,
                            paid_on=timezone.localdate(), method="cash", recorded_by=treasurer)
    return member


def test_pure_coverage_chains_paid_years_and_keeps_the_latest_chain():
    p2023 = dues.Period(date(2023, 1, 1), date(2023, 12, 31))
    p2025 = dues.Period(date(2025, 1, 1), date(2025, 12, 31))
    p2026 = dues.Period(date(2026, 1, 1), date(2026, 12, 31))
    found = dues.coverage(paid_periods=[p2026, p2023, p2025], open_periods=[p2023])
    assert found == dues.Coverage(date(2025, 1, 1), date(2026, 12, 31), date(2023, 12, 31))
    assert dues.coverage(paid_periods=[]) == dues.Coverage()
    # from the summary, the same status as from every period, on days from the gap on
    for day in (date(2024, 6, 1), date(2025, 6, 1), date(2026, 12, 31), date(2027, 1, 10),
                date(2027, 6, 1)):
        every = dues.membership_status(today=day, paid_periods=[p2023, p2025, p2026],
                                       grace_days=30)
        stored = dues.membership_status(today=day, paid_periods=found.paid_periods(),
                                        grace_days=30)
        assert stored == every, day


def test_payment_services_keep_the_stored_coverage(this_year, make_member, treasurer, club):
    member = make_member(joined_on=timezone.localdate(), club=club)
    member.refresh_from_db()
    assert member.paid_through is None and member.open_until == this_year.ends_on
    assert selectors.member_status(member) == Status.AWAITING_PAYMENT
    invoice = member.invoices.get()
    half = (invoice.amount / 2).quantize(Decimal("0.01"))
    payment = services.payment_record(invoice=invoice, amount=half,
                                      paid_on=timezone.localdate(), method="cash",
                                      recorded_by=treasurer)
    member.refresh_from_db()
    assert member.paid_through is None  # partly paid counts for nothing yet
    second = services.payment_record(invoice=invoice, amount=invoice.amount - half,
                                     paid_on=timezone.localdate(), method="cash",
                                     recorded_by=treasurer)
    member.refresh_from_db()
    assert (member.paid_from, member.paid_through) == (this_year.starts_on, this_year.ends_on)
    assert member.open_until is None
    assert selectors.member_status(member) == Status.ACTIVE
    services.payment_reverse(payment=second, reversed_by=treasurer, reason="typo")
    member.refresh_from_db()
    assert member.paid_through is None and member.open_until == this_year.ends_on
    services.payment_reverse(payment=payment, reversed_by=treasurer, reason="typo")
    services.dues_invoice_cancel(invoice=invoice, cancelled_by=treasurer)
    member.refresh_from_db()
    assert (member.paid_through, member.open_until) == (None, None)
    assert selectors.member_status(member) == Status.LAPSED


def test_family_members_are_covered_by_the_heads_payment(this_year, make_member, treasurer):
    head = make_member(kind="family", approved=False)
    child = make_member(kind="family", approved=False)
    Member.objects.filter(pk=child.pk).update(family_head=head)
    services.member_approve(member=child, approved_by=None)
    head = services.member_approve(member=head, approved_by=None)
    invoice = head.invoices.get()
    child.refresh_from_db()
    assert child.open_until == this_year.ends_on and child.paid_through is None
    services.payment_record(invoice=invoice, amount=invoice.amount,
                            paid_on=timezone.localdate(), method="cash", recorded_by=treasurer)
    child.refresh_from_db()
    assert child.paid_through == this_year.ends_on
    assert selectors.member_status(child) == Status.ACTIVE


def test_public_list_in_pages_and_searchable(client, this_year, make_member, treasurer, club,
                                             other_club, monkeypatch):
    monkeypatch.setattr("federation.views.PUBLIC_LIST_PAGE_SIZE", 2)
    for name in ("Anna Alpha", "Boris Beta", "Clara Gamma"):
        paid_member(make_member, treasurer, club, name)
    paid_member(make_member, treasurer, other_club, "Dmitri Delta", city="Leiden")
    first = client.get("/en/members/").content.decode()
    assert "Anna Alpha" in first and "Boris Beta" in first and "Clara Gamma" not in first
    assert "4 members" in first and 'rel="next"' in first
    second = client.get("/en/members/?page=2").content.decode()
    assert "Clara Gamma" in second and "Anna Alpha" not in second
    found = client.get("/en/members/?q=west").content.decode()  # the club's name
    assert "Dmitri Delta" in found and "Anna Alpha" not in found and "1 member<" in found
    assert "Dmitri Delta" in client.get("/en/members/?q=leid").content.decode()  # the city
    none = client.get("/en/members/?q=zzz").content.decode()
    assert "No listed member matches" in none
    assert "Ничего" not in none
    assert "подходящих" in client.get("/ru/members/?q=zzz").content.decode()


def _queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_public_list_and_check_read_no_invoice_at_1x_and_10x(client, this_year, make_member,
                                                            treasurer, club):
    members = [paid_member(make_member, treasurer, club, f"Player {n:02d}") for n in range(3)]
    small = _queries(client, "/en/members/")
    check_small = _queries(client, f"/en/members/check/{members[0].public_id}/")
    for n in range(3, 30):
        paid_member(make_member, treasurer, club, f"Player {n:02d}")
    large = _queries(client, "/en/members/")
    check_large = _queries(client, f"/en/members/check/{members[0].public_id}/")
    assert len(large) == len(small)
    assert len(check_large) == len(check_small)
    for sql in large + check_large:
        assert "federation_duesinvoice" not in sql and "federation_payment" not in sql
    assert Member.objects.count() >= 30 > PUBLIC_LIST_PAGE_SIZE // 10
