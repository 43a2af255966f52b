"""Issue 13, money and data: what is refused or must be confirmed, with a translated message,
and how the treasurer reverses a mistaken payment."""

from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation
from wagtail.models import ModelLogEntry

from federation import selectors, services
from federation.models import MembershipFee, MembershipType, MembershipYear, Payment
from federation.rules.dues import InvoiceState, Status

pytestmark = pytest.mark.django_db


@pytest.fixture
def treasurer(treasurer):
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(treasurer)
    profile.preferred_language = "en"
    profile.save()
    return treasurer


@pytest.fixture
def member(year_2025, make_member):
    return make_member()


@pytest.fixture
def invoice(member):
    return member.invoices.get()


def test_paid_invoice_cannot_be_cancelled_silently(invoice, pay_cash, treasurer):
    payment = pay_cash(invoice, "120", date(2025, 2, 1))
    with pytest.raises(services.MembershipError) as error:
        services.dues_invoice_cancel(invoice=invoice, cancelled_by=treasurer)
    assert error.value.code == services.E_INVOICE_HAS_PAYMENTS
    assert payment.receipt_number in error.value.message
    invoice.refresh_from_db()
    assert not invoice.cancelled
    # after reversing the payment (with a reason) the invoice can be cancelled
    services.payment_reverse(payment=payment, reversed_by=treasurer, reason="wrong invoice")
    services.dues_invoice_cancel(invoice=invoice, cancelled_by=treasurer)
    invoice.refresh_from_db()
    assert invoice.cancelled


def test_admin_cancel_of_a_paid_invoice_shows_why(client, invoice, pay_cash, treasurer):
    pay_cash(invoice, "120", date(2025, 2, 1))
    client.force_login(treasurer)
    response = client.post(f"/admin/invoices/edit/{invoice.pk}/", {"cancelled": "on"})
    assert response.status_code == 200
    assert "reverse them first" in response.content.decode()
    invoice.refresh_from_db()
    assert not invoice.cancelled


def test_same_cash_payment_twice_needs_confirmation(invoice, pay_cash):
    pay_cash(invoice, "20", date(2025, 2, 1))
    with pytest.raises(services.MembershipError) as error:
        pay_cash(invoice, "20", date(2025, 2, 1))
    assert error.value.code == services.E_POSSIBLE_DUPLICATE
    assert selectors.invoice_balance(invoice).paid == Decimal("20.00")
    pay_cash(invoice, "20", date(2025, 2, 1), confirm_duplicate=True)
    assert selectors.invoice_balance(invoice).paid == Decimal("40.00")


def test_overpayment_needs_confirmation(invoice, pay_cash):
    with pytest.raises(services.MembershipError) as error:
        pay_cash(invoice, "240", date(2025, 2, 1))
    assert error.value.code == services.E_OVERPAYMENT
    assert "240.00 EUR" in error.value.message
    assert not Payment.objects.exists()
    pay_cash(invoice, "240", date(2025, 2, 1), confirm_overpayment=True)
    assert selectors.invoice_balance(invoice).state == InvoiceState.OVERPAID


def test_payment_in_the_future_is_refused(invoice, pay_cash):
    with pytest.raises(services.MembershipError) as error:
        pay_cash(invoice, "120", date(2099, 1, 1))
    assert error.value.code == services.E_PAYMENT_IN_FUTURE
    assert not Payment.objects.filter(receipt_number__startswith="R2099").exists()


def test_admin_payment_form_refuses_the_future_and_asks_to_confirm(client, invoice, treasurer):
    client.force_login(treasurer)
    data = {
        "invoice": invoice.pk,
        "amount": "120",
        "paid_on": "2099-01-01",
        "method": "cash",
    }
    response = client.post("/admin/payments/new/", data)
    assert response.status_code == 200
    assert "in the future" in response.content.decode()
    data["paid_on"] = "2025-02-01"
    assert client.post("/admin/payments/new/", data).status_code == 302
    response = client.post("/admin/payments/new/", data)  # the same cash again
    assert response.status_code == 200
    assert "second payment" in response.content.decode()
    data["confirm_duplicate"] = "on"
    data["confirm_overpayment"] = "on"
    assert client.post("/admin/payments/new/", data).status_code == 302
    assert Payment.objects.count() == 2


def test_admin_payment_on_a_cancelled_invoice_is_a_message_not_a_500(client, invoice, treasurer):
    services.dues_invoice_cancel(invoice=invoice, cancelled_by=treasurer)
    client.force_login(treasurer)
    form_page = client.get("/admin/payments/new/").content.decode()
    assert invoice.number not in form_page  # cancelled invoices are not offered
    response = client.post(
        "/admin/payments/new/",
        {"invoice": invoice.pk, "amount": "120", "paid_on": "2025-02-01", "method": "cash"},
    )
    assert response.status_code == 200
    assert not Payment.objects.exists()


def test_payment_form_shows_member_and_amount(client, invoice, treasurer):
    client.force_login(treasurer)
    page = client.get("/admin/payments/new/").content.decode()
    assert f"{invoice.number} · Иван Петров · 120.00 EUR" in page


def test_overlapping_years_are_refused_with_a_translated_message(client, year_2025, treasurer):
    client.force_login(treasurer)
    data = {"year": "2026", "starts_on": "2025-12-01", "ends_on": "2026-11-30", "currency": "EUR"}
    response = client.post("/admin/membership_years/new/", data)
    assert response.status_code == 200
    assert "The period overlaps membership year 2025." in response.content.decode()
    assert not MembershipYear.objects.filter(year=2026).exists()
    with translation.override("ru"):
        message = services.MembershipError("years_overlap", 2025).message
    assert "2025" in message and "overlaps" not in message  # translated
    data["starts_on"], data["ends_on"] = "2026-01-01", "2026-12-31"
    assert client.post("/admin/membership_years/new/", data).status_code == 302


@pytest.mark.parametrize("typed", ["1e3", "-5", "1,000.00", "12.345", "abc"])
def test_fee_must_be_a_plain_amount(client, year_2025, treasurer, typed):
    client.force_login(treasurer)
    MembershipFee.objects.filter(membership_type__kind="junior").delete()
    response = client.post(
        "/admin/membership_fees/new/",
        {
            "membership_year": year_2025.pk,
            "membership_type": MembershipType.objects.get(kind="junior").pk,
            "amount": typed,
        },
    )
    assert response.status_code == 200
    assert not MembershipFee.objects.filter(membership_type__kind="junior").exists()


def test_constraint_violations_read_as_sentences(client, year_2025, treasurer):
    client.force_login(treasurer)
    response = client.post(
        "/admin/membership_fees/new/",
        {
            "membership_year": year_2025.pk,
            "membership_type": MembershipType.objects.get(kind="regular").pk,
            "amount": "99",
        },
    )
    page = response.content.decode()
    assert "This year already has a fee for this type." in page
    assert "Constraint" not in page and "one_fee_per_type_and_year" not in page


def test_reversal_needs_a_reason_and_is_audited(invoice, pay_cash, treasurer, member):
    payment = pay_cash(invoice, "120", date(2025, 2, 1))
    assert selectors.member_status(member, date(2025, 3, 1)) == Status.ACTIVE
    with pytest.raises(services.MembershipError) as error:
        services.payment_reverse(payment=payment, reversed_by=treasurer, reason="  ")
    assert error.value.code == services.E_REASON_REQUIRED
    services.payment_reverse(payment=payment, reversed_by=treasurer, reason="entered twice")
    payment.refresh_from_db()
    assert payment.reversed_by == treasurer and payment.reversal_reason == "entered twice"
    assert selectors.invoice_balance(invoice).paid == Decimal("0.00")
    assert selectors.member_status(member, date(2025, 3, 1)) == Status.AWAITING_PAYMENT
    entry = ModelLogEntry.objects.get(action="federation.payment.reverse")
    assert entry.user == treasurer and entry.data["reason"] == "entered twice"
    with pytest.raises(services.MembershipError) as error:
        services.payment_reverse(payment=payment, reversed_by=treasurer, reason="again")
    assert error.value.code == services.E_ALREADY_REVERSED


def test_a_reversed_bank_transaction_can_be_recorded_again(invoice, treasurer):
    first = services.payment_record(
        invoice=invoice,
        amount=Decimal("120"),
        paid_on=date(2025, 2, 1),
        method="bank_transfer",
        transaction_id="TX-1",
        recorded_by=treasurer,
    )
    services.payment_reverse(payment=first, reversed_by=treasurer, reason="wrong amount")
    again = services.payment_record(
        invoice=invoice,
        amount=Decimal("120"),
        paid_on=date(2025, 2, 1),
        method="bank_transfer",
        transaction_id="TX-1",
        recorded_by=treasurer,
    )
    assert again.receipt_number != first.receipt_number


def test_admin_reverse_page(client, invoice, pay_cash, treasurer, make_user):
    payment = pay_cash(invoice, "120", date(2025, 2, 1))
    url = f"/admin/membership/payments/{payment.pk}/reverse/"
    client.force_login(treasurer)
    assert "Reverse" in client.get("/admin/payments/").content.decode()
    response = client.post(url, {"reason": ""})
    assert response.status_code == 200
    assert client.post(url, {"reason": "typed for the wrong member"}).status_code == 302
    payment.refresh_from_db()
    assert payment.reversal_reason == "typed for the wrong member"
    # a membership officer may not reverse payments
    officer = make_user(is_staff=True)
    from django.contrib.auth.models import Group

    officer.groups.add(Group.objects.get(name=services.ROLE_MEMBERSHIP_OFFICER))
    client.force_login(officer)
    other = pay_cash(invoice, "1", date(2025, 2, 2))
    client.post(f"/admin/membership/payments/{other.pk}/reverse/", {"reason": "x"})
    other.refresh_from_db()
    assert other.reversed_at is None
