"""Issue 13, emails in the member's language: application received, approved (with the
invoice), payment received (with the receipt), reminders with amount, due date, bank details
and a link to pay, also for a newly approved member who has not paid; sign-up names the
federation."""

from datetime import date

import pytest
from django.core import mail

from federation import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bank(settings):
    settings.MEMBERSHIP_BANK_ACCOUNT = {
        "holder": "Mahjong Federation e.V.",
        "iban": "DE89370400440532013000",
        "bic": "COBADEFFXXX",
    }
    settings.MEMBERSHIP_SITE_URL = "https://mahjong.example.org"


def test_application_received_and_approved_with_invoice(
    year_2025, make_member, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        member = make_member(approved=False, language="fr", name_native="Élodie Dubois-Lefèvre")
    [received] = mail.outbox
    assert received.to == [member.email]
    assert "Fédération de mahjong" in received.subject  # in French, names the federation
    assert "Élodie Dubois-Lefèvre" in received.body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.member_approve(member=member, approved_by=None, today=date(2025, 1, 1))
    [approved] = mail.outbox
    invoice = member.invoices.get()
    assert invoice.number in approved.body
    assert "120,00 EUR" in approved.body  # French number format
    assert "DE89370400440532013000" in approved.body
    assert f"https://mahjong.example.org/fr/members/invoices/{invoice.number}/" in approved.body
    assert "31 janvier 2025" in approved.body  # the due date, in French


def test_payment_received_carries_the_receipt(
    year_2025, make_member, pay_cash, django_capture_on_commit_callbacks
):
    member = make_member(language="ru")
    with django_capture_on_commit_callbacks(execute=True):
        payment = pay_cash(member.invoices.get(), "120", date(2025, 2, 1))
    [message] = mail.outbox
    assert payment.receipt_number in message.subject
    assert "Федерация маджонга" in message.subject
    [(name, content, mimetype)] = message.attachments
    assert name == f"receipt-{payment.receipt_number}.pdf" and mimetype == "application/pdf"
    assert content.startswith(b"%PDF")
    assert "1 февраля 2025 г." in message.body and "г.." not in message.body


def test_unpaid_new_member_gets_reminders_with_amount_due_date_bank_and_link(
    year_2025, make_member
):
    member = make_member(joined_on=date(2025, 3, 10), language="en")
    invoice = member.invoices.get()
    assert invoice.due_on == date(2025, 4, 9)
    assert services.reminders_send(today=date(2025, 3, 20)) == 0  # 20 days before
    assert services.reminders_send(today=date(2025, 4, 2)) == 1  # due within 7 days
    assert services.reminders_send(today=date(2025, 4, 3)) == 0  # not twice
    assert services.reminders_send(today=date(2025, 4, 10)) == 1  # overdue
    due_soon, overdue = mail.outbox
    for message in (due_soon, overdue):
        assert f"{invoice.amount:.2f} EUR" in message.body
        assert "April 9, 2025" in message.body
        assert "DE89370400440532013000" in message.body
        assert f"https://mahjong.example.org/en/members/invoices/{invoice.number}/" in message.body
    assert "overdue" in overdue.subject


def test_paid_member_gets_no_invoice_reminder(year_2025, make_member, pay_cash):
    member = make_member(joined_on=date(2025, 3, 10))
    pay_cash(member.invoices.get(), str(member.invoices.get().amount), date(2025, 3, 12))
    assert services.reminders_send(today=date(2025, 4, 10)) == 0


def test_signup_email_names_the_federation_not_the_host(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # sent after the commit
        client.post(
            "/ru/accounts/signup/",
            {
                "email": "new@example.org",
                "password1": "a-Long-pass-2025",
                "password2": "a-Long-pass-2025",
            },
        )
    [message] = mail.outbox
    assert "Федерация маджонга" in message.body
    assert "testserver" not in message.subject and "Hello from testserver" not in message.body


def test_login_on_russian_stays_russian(client, make_user):
    make_user(email="ru@example.org", password="pw-Secret-123")
    response = client.post(
        "/ru/accounts/login/", {"login": "ru@example.org", "password": "pw-Secret-123"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/ru/"
