"""Fixtures for the membership tests: a year with fees, members, roles."""

from __future__ import annotations

import itertools
from datetime import date
from decimal import Decimal

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group

from federation import selectors as federation_selectors
from federation import services
from federation.models import Club, Member, MembershipFee, MembershipType, MembershipYear

_counter = itertools.count(1)


TYPES = {
    "regular": (False, False),
    "junior": (False, False),
    "senior": (False, False),
    "family": (False, True),
    "honorary": (True, False),
}


@pytest.fixture(autouse=True)
def membership_types(db):
    """Every membership test has the database and these types (the data migration creates
    them, and every test's database is a copy of the migrated one: tests/database_template.py)."""
    for kind, (free, family) in TYPES.items():
        MembershipType.objects.get_or_create(
            kind=kind, defaults={"is_free": free, "covers_family": family}
        )


@pytest.fixture
def year_2025(db):
    year = MembershipYear.objects.create(
        year=2025, starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31), currency="EUR"
    )
    for kind, amount in [
        ("regular", "120.00"),
        ("junior", "60.00"),
        ("senior", "80.00"),
        ("family", "200.00"),
        ("honorary", "0.00"),
    ]:
        MembershipFee.objects.create(
            membership_year=year,
            membership_type=MembershipType.objects.get(kind=kind),
            amount=Decimal(amount),
        )
    return year


@pytest.fixture
def make_user(db, django_user_model):
    def make(email=None, language="en", password="pw-Secret-123", **extra):
        n = next(_counter)
        email = email or f"user{n}@example.org"
        user = django_user_model.objects.create_user(
            username=f"user{n}", email=email, password=password, language=language, **extra
        )
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        return user

    return make


@pytest.fixture
def make_member(db, make_user):
    def make(
        kind="regular",
        approved=True,
        joined_on=date(2025, 1, 1),
        club=None,
        language="en",
        user=None,
        **extra,
    ):
        user = user or make_user(language=language)
        member = services.member_apply(
            user=user,
            name_native=extra.pop("name_native", "Иван Петров"),
            name_latin=extra.pop("name_latin", "Ivan Petrov"),
            membership_type=MembershipType.objects.get(kind=kind),
            club=club,
            language=language,
            **extra,
        )
        if approved:
            Member.objects.filter(pk=member.pk).update(joined_on=joined_on)
            member = services.member_approve(member=member, approved_by=None, today=joined_on)
        member.refresh_from_db()
        return member

    return make


@pytest.fixture
def club(db):
    return Club.objects.create(name="East Wind", city="Moscow")


@pytest.fixture
def other_club(db):
    return Club.objects.create(name="West Wind", city="Amsterdam")


@pytest.fixture
def treasurer(make_user):
    user = make_user(is_staff=True)
    user.groups.add(Group.objects.get(name=services.ROLE_TREASURER))
    return user


@pytest.fixture
def pay_cash(treasurer):
    """Record a cash payment by the treasurer: ``pay_cash(invoice, "120", date(...))``."""

    def pay(invoice, amount, paid_on, **confirmations):
        return services.payment_record(
            invoice=invoice, amount=Decimal(amount), paid_on=paid_on, method="cash",
            recorded_by=treasurer, **confirmations,
        )

    return pay


@pytest.fixture
def membership_officer(make_user):
    user = make_user(is_staff=True)
    user.groups.add(Group.objects.get(name=services.ROLE_MEMBERSHIP_OFFICER))
    return user


@pytest.fixture
def admin_user(make_user):
    return make_user(is_staff=True, is_superuser=True)


@pytest.fixture
def live_year(db):
    """A membership year around today (payments cannot be dated in the future)."""
    today = federation_selectors.today()
    year = MembershipYear.objects.create(
        year=today.year, starts_on=date(today.year, 1, 1), ends_on=date(today.year, 12, 31)
    )
    MembershipFee.objects.create(
        membership_year=year,
        membership_type=MembershipType.objects.get(kind="regular"),
        amount=Decimal("120.00"),
    )
    return year


# the federation's Russian bank details and a membership year in roubles (issue 42)
from tests.federation.membership.rouble_fixtures import (  # noqa: E402, F401
    rouble_details,
    rouble_year,
)
