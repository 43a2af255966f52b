"""The public pages: the member list (consent + active only) and the membership check."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from federation import services
from federation.models import MembershipFee, MembershipType, MembershipYear

pytestmark = pytest.mark.django_db


@pytest.fixture
def this_year(db):
    """A membership year around today, so that "active" means active now."""
    today = timezone.localdate()
    year = MembershipYear.objects.create(
        year=today.year,
        starts_on=date(today.year, 1, 1),
        ends_on=date(today.year, 12, 31),
        currency="EUR",
    )
    for membership_type in MembershipType.objects.all():
        amount = Decimal("0.00") if membership_type.is_free else Decimal("100.00")
        MembershipFee.objects.create(
            membership_year=year, membership_type=membership_type, amount=amount
        )
    return year


def pay_in_full(member, treasurer):
    invoice = member.invoices.get()
    services.payment_record(
        invoice=invoice,
        amount=invoice.amount,
        paid_on=timezone.localdate(),
        method="cash",
        recorded_by=treasurer,
    )


def test_public_check_says_active_only_once_paid(client, this_year, make_member, treasurer):
    member = make_member(joined_on=timezone.localdate(), name_latin="Alice Owner")
    url = f"/en/members/check/{member.public_id}/"
    html = client.get(url).content.decode()
    assert 'id="check-active">No' in html
    assert "Alice Owner" in html
    pay_in_full(member, treasurer)
    html = client.get(url).content.decode()
    assert 'id="check-active">Yes' in html
    # Only name, number and the flag: nothing else about the person.
    assert member.user.email not in html


def test_public_list_shows_consenting_active_members_only(
    client, this_year, make_member, treasurer, club
):
    listed = make_member(
        joined_on=timezone.localdate(), name_latin="Listed Paid", club=club, public_consent=True
    )
    unpaid = make_member(
        joined_on=timezone.localdate(), name_latin="Consent Unpaid", public_consent=True
    )
    private = make_member(joined_on=timezone.localdate(), name_latin="Private Paid")
    pay_in_full(listed, treasurer)
    pay_in_full(private, treasurer)
    assert unpaid.public_consent and not private.public_consent

    response = client.get("/en/members/")
    assert response.status_code == 200
    html = response.content.decode()
    assert str(listed) in html and "East Wind" in html
    assert "Consent Unpaid" not in html
    assert "Private Paid" not in html
    assert private.user.email not in html and listed.user.email not in html


def test_public_list_is_translated(client, this_year):
    html = client.get("/ru/members/").content.decode()
    assert '<html lang="ru"' in html
    assert "<h1>Члены федерации</h1>" in html
