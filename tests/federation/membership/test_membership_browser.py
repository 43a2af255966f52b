"""Browser: sign up, verify the email, apply, (officer approves), see the invoice."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.core import mail
from django.utils import timezone

from federation import services
from federation.models import Member, MembershipFee, MembershipType, MembershipYear
from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def current_year(db):
    today = timezone.localdate()
    year = MembershipYear.objects.create(
        year=today.year, starts_on=date(today.year, 1, 1), ends_on=date(today.year, 12, 31)
    )
    MembershipFee.objects.create(
        membership_year=year,
        membership_type=MembershipType.objects.get(kind="regular"),
        amount=Decimal("120.00"),
    )
    return year


def test_sign_up_verify_apply_and_see_invoice(browser_page, live_server, current_year, settings):
    settings.MEMBERSHIP_PRORATE = False
    page = browser_page
    page.goto("/en/accounts/signup/")
    page.fill("input[name=email]", "newcomer@example.org")
    page.fill("input[name=password1]", "a-Long-pass-2025")
    page.fill("input[name=password2]", "a-Long-pass-2025")
    page.locator("form:has(input[name=password1]) [type=submit]").click()
    page.wait_for_url(re.compile(r"/en/accounts/confirm-email/"))

    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.outbox[-1].body).group(0)
    path = re.sub(r"^https?://[^/]+", "", link)
    page.goto(path)
    page.locator("form:has(input[name=csrfmiddlewaretoken]) [type=submit]").last.click()

    log_in(page, "newcomer@example.org", "a-Long-pass-2025")

    page.goto("/en/members/apply/")
    page.fill("input[name=name_native]", "Новичок Иванов")
    page.fill("input[name=name_latin]", "Novichok Ivanov")
    page.select_option("select[name=country]", label="Russia")
    page.fill("input[name=city]", "Moscow")
    page.select_option("select[name=membership_type]", label="Regular")
    page.locator("form:has(input[name=name_latin]) [type=submit]").click()
    page.wait_for_url(re.compile(r"/en/members/me/"))
    assert "Pending approval" in page.content()

    member = Member.objects.get(user__email="newcomer@example.org")
    services.member_approve(member=member, approved_by=None)  # the membership officer

    page.goto("/en/members/me/")
    invoice_number = member.invoices.get().number
    page.click(f"text={invoice_number}")
    page.wait_for_url(re.compile(rf"/en/members/invoices/{invoice_number}/"))
    assert "120.00 EUR" in page.inner_text("#invoice-amount")
    assert page.inner_text("#invoice-state") == "Unpaid"
    assert invoice_number in page.content()  # the transfer reference
