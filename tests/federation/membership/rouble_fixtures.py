"""The federation's Russian bank details and a membership year in roubles, for the tests of
rouble invoices (issue 42). The bank is real (Sberbank's BIK and correspondent account);
the payee's INN and account are made up with their control digits right."""

from datetime import date
from decimal import Decimal

import pytest

from federation import selectors
from federation.models import MembershipFee, MembershipType, MembershipYear

DETAILS = {
    "name": "Федерация маджонга",
    "inn": "7709123453",
    "kpp": "770901001",
    "bik": "044525225",
    "account": "40703810800000001234",
    "corr_account": "30101810400000000225",
    "bank_name": "ПАО Сбербанк",
}


@pytest.fixture
def rouble_details(settings):
    settings.MEMBERSHIP_BANK_ACCOUNT_RUB = dict(DETAILS)
    return settings.MEMBERSHIP_BANK_ACCOUNT_RUB


@pytest.fixture
def rouble_year(db):
    """A membership year around today, in roubles (payments cannot be dated later)."""
    today = selectors.today()
    year = MembershipYear.objects.create(
        year=today.year, starts_on=date(today.year, 1, 1), ends_on=date(today.year, 12, 31),
        currency="RUB",
    )
    MembershipFee.objects.create(
        membership_year=year, membership_type=MembershipType.objects.get(kind="regular"),
        amount=Decimal("3500.00"),
    )
    return year
