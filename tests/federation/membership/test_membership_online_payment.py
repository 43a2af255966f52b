"""Issue 13, online payment through django-payments behind PaymentProvider: the dummy
provider runs the whole flow with no network; Stripe's webhook is verified by its signature
and records the payment once (idempotent on the provider's transaction id)."""

import hashlib
import hmac
import json
import re
import time

import pytest
from django.core import mail
from payments import PaymentStatus
from payments.core import PROVIDER_CACHE

from federation import online_payments, selectors
from federation.models import OnlinePayment, Payment
from federation.rules.dues import Status

pytestmark = pytest.mark.django_db

WEBHOOK_SECRET = "whsec_test_secret"


@pytest.fixture
def current_member(make_member, settings, live_year):
    settings.MEMBERSHIP_SITE_URL = "http://testserver"
    return make_member(joined_on=live_year.starts_on)


def test_invoice_page_offers_card_payment(client, current_member):
    invoice = current_member.invoices.get()
    client.force_login(current_member.user)
    me = client.get("/en/members/me/").content.decode()
    assert (
        "Awaiting payment" in me
        and f'href="/en/members/invoices/{invoice.number}/" id="pay-invoice-link"' in me
    )
    page = client.get(f"/en/members/invoices/{invoice.number}/").content.decode()
    assert f"/en/members/invoices/{invoice.number}/pay/" in page
    assert "by card" in page


def test_dummy_provider_runs_the_whole_flow(
    client, current_member, django_capture_on_commit_callbacks
):
    invoice = current_member.invoices.get()
    client.force_login(current_member.user)
    response = client.post(f"/en/members/invoices/{invoice.number}/pay/")
    assert response.status_code == 302
    pay_url = response["Location"]
    assert re.match(r"^/en/members/pay/[0-9a-f-]{36}/$", pay_url)
    assert "status" in client.get(pay_url).content.decode()  # the dummy's form
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            pay_url,
            {"status": "confirmed", "fraud_status": "accept", "gateway_response": "3ds-disabled"},
        )
    assert response.status_code == 302 and "/done/" in response["Location"]
    payment = Payment.objects.get()
    assert payment.method == Payment.Method.ONLINE and payment.amount == invoice.amount
    assert selectors.member_status(current_member) == Status.ACTIVE
    [receipt_mail] = mail.outbox
    assert payment.receipt_number in receipt_mail.subject
    done = client.get(response["Location"], follow=True).content.decode()
    assert "Paid" in done and payment.receipt_number in done


def test_rejected_payment_records_nothing(client, current_member):
    invoice = current_member.invoices.get()
    client.force_login(current_member.user)
    pay_url = client.post(f"/en/members/invoices/{invoice.number}/pay/")["Location"]
    client.post(
        pay_url,
        {"status": "rejected", "fraud_status": "accept", "gateway_response": "3ds-disabled"},
    )
    assert not Payment.objects.exists()
    assert OnlinePayment.objects.get().status == PaymentStatus.REJECTED


def test_another_member_cannot_pay_or_see_the_attempt(client, current_member, make_member):
    invoice = current_member.invoices.get()
    client.force_login(make_member().user)
    assert client.post(f"/en/members/invoices/{invoice.number}/pay/").status_code == 403
    online = online_payments.online_payment_start(invoice=invoice, language="en")
    assert client.get(f"/en/members/pay/{online.token}/").status_code == 403


def test_settling_twice_records_once(current_member):
    online = online_payments.online_payment_start(
        invoice=current_member.invoices.get(), language="en"
    )
    online.change_status(PaymentStatus.CONFIRMED)  # the signal settles it
    online.change_status(PaymentStatus.CONFIRMED)  # a retried notification
    online_payments.online_payment_settle(online=online)
    assert Payment.objects.count() == 1


def test_paid_invoice_offers_no_card_payment(client, current_member):
    invoice = current_member.invoices.get()
    online = online_payments.online_payment_start(invoice=invoice, language="en")
    online.change_status(PaymentStatus.CONFIRMED)
    client.force_login(current_member.user)
    response = client.post(f"/en/members/invoices/{invoice.number}/pay/")
    assert response["Location"] == f"/en/members/invoices/{invoice.number}/"
    assert OnlinePayment.objects.count() == 1


@pytest.fixture
def stripe_variant(settings):
    settings.PAYMENT_VARIANTS = {
        "stripe": (
            "payments.stripe.StripeProviderV3",
            {"api_key": "sk_test_x", "endpoint_secret": WEBHOOK_SECRET, "secure_endpoint": True},
        )
    }
    settings.MEMBERSHIP_ONLINE_PAYMENT_VARIANT = "stripe"
    PROVIDER_CACHE.clear()
    yield
    PROVIDER_CACHE.clear()


def _stripe_event(online):
    return json.dumps(
        {
            "id": "evt_1",
            "type": "checkout.session.completed",
            "data": {
                "object": {
                    "id": online.transaction_id,
                    "client_reference_id": online.token,
                    "status": "complete",
                    "payment_status": "paid",
                }
            },
        }
    ).encode()


def _signature(payload: bytes, secret: str) -> str:
    timestamp = int(time.time())
    signed = hmac.new(
        secret.encode(), f"{timestamp}.".encode() + payload, hashlib.sha256
    ).hexdigest()
    return f"t={timestamp},v1={signed}"


def test_stripe_webhook_is_verified_and_idempotent(client, current_member, stripe_variant):
    online = online_payments.online_payment_start(
        invoice=current_member.invoices.get(), language="en"
    )
    online.transaction_id = "cs_test_123"  # set when the checkout session is created
    online.save()
    payload = _stripe_event(online)

    forged = client.post(
        "/payments/process/stripe/",
        payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=_signature(payload, "whsec_wrong"),
    )
    assert forged.status_code >= 400
    assert not Payment.objects.exists()
    unsigned = client.post("/payments/process/stripe/", payload, content_type="application/json")
    assert unsigned.status_code >= 400 and not Payment.objects.exists()

    for _attempt in range(2):  # Stripe retries deliveries
        response = client.post(
            "/payments/process/stripe/",
            payload,
            content_type="application/json",
            HTTP_STRIPE_SIGNATURE=_signature(payload, WEBHOOK_SECRET),
        )
        assert response.status_code == 200
    payment = Payment.objects.get()
    assert payment.transaction_id == "cs_test_123" and payment.method == "online"


@pytest.mark.parametrize(("language", "words"), [
    ("ru", ["Исход платежа", "Оплачено (подтверждено)", "Проверка на мошенничество"]),
    ("zh-hans", ["付款结果", "已付款（已确认）"]),
])
def test_the_test_providers_form_speaks_the_pages_language(client, current_member, language,
                                                          words):
    invoice = current_member.invoices.get()
    client.force_login(current_member.user)
    pay_url = client.post(f"/{language}/members/invoices/{invoice.number}/pay/")["Location"]
    page = client.get(pay_url).content.decode()
    for word in words:
        assert word in page
    for english in ("Fraud status", "Gateway response", "3DS disabled"):
        assert english not in page
