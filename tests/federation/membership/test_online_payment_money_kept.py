"""Issue 37, items 4-6: money a card provider confirms is always recorded, once.

4. A card payment that lands after its invoice was cancelled (the entry withdrawn) is
   recorded against the cancelled invoice and shows as a refund due to the treasurer.
5. ``OnlinePayment.recorded_payment`` keeps the payment it recorded (django-payments saves
   its own, older copy of the attempt afterwards), so a provider event delivered again
   after the treasurer reversed the payment records nothing.
6. A validly signed provider payload that is not a JSON object is answered 400.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest
from payments import PaymentStatus
from payments.core import PROVIDER_CACHE

from federation import online_payments, selectors, services
from federation.models import OnlinePayment, Payment
from tests.federation.membership.test_admin_dashboard import admin_in_english, tasks

pytestmark = pytest.mark.django_db

WEBHOOK_SECRET = "whsec_test_money_kept"


@pytest.fixture
def current_member(make_member, settings, live_year):
    settings.MEMBERSHIP_SITE_URL = "http://testserver"
    return make_member(joined_on=live_year.starts_on)


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


def _post_signed(client, payload: bytes):  # type: ignore[no-untyped-def]
    timestamp = int(time.time())
    signed = hmac.new(WEBHOOK_SECRET.encode(), f"{timestamp}.".encode() + payload,
                      hashlib.sha256).hexdigest()
    return client.post("/payments/process/stripe/", payload, content_type="application/json",
                       HTTP_STRIPE_SIGNATURE=f"t={timestamp},v1={signed}")


def _checkout_completed(online: OnlinePayment) -> bytes:
    return json.dumps({
        "id": "evt_money_kept",
        "type": "checkout.session.completed",
        "data": {"object": {"id": online.transaction_id, "client_reference_id": online.token,
                            "status": "complete", "payment_status": "paid"}},
    }).encode()


def _stripe_attempt(member) -> OnlinePayment:  # type: ignore[no-untyped-def]
    online = online_payments.online_payment_start(invoice=member.invoices.get(), language="en")
    online.transaction_id = "cs_test_money_kept"  # set when the checkout session is created
    online.save()
    return online


# --- 5. the attempt keeps the payment it recorded ----------------------------------------------

def test_the_attempt_keeps_the_payment_it_recorded(client, current_member, stripe_variant):
    online = _stripe_attempt(current_member)
    assert _post_signed(client, _checkout_completed(online)).status_code == 200
    payment = Payment.objects.get()
    online.refresh_from_db()
    assert online.status == PaymentStatus.CONFIRMED
    assert online.recorded_payment_id == payment.pk


def test_an_event_delivered_again_after_a_reversal_records_nothing(
        client, current_member, stripe_variant, treasurer):
    online = _stripe_attempt(current_member)
    payload = _checkout_completed(online)
    assert _post_signed(client, payload).status_code == 200
    payment = Payment.objects.get()
    services.payment_reverse(payment=payment, reversed_by=treasurer, reason="charged back")
    assert _post_signed(client, payload).status_code == 200  # Stripe delivers it again
    assert list(Payment.objects.values_list("pk", flat=True)) == [payment.pk]
    invoice = current_member.invoices.get()
    assert selectors.invoice_balance(invoice).paid == 0


# --- 4. money that arrives for a cancelled invoice ---------------------------------------------

def test_a_card_payment_for_a_cancelled_invoice_is_recorded_as_a_refund_due(
        client, current_member, treasurer):
    invoice = current_member.invoices.get()
    online = online_payments.online_payment_start(invoice=invoice, language="en")
    services.dues_invoice_cancel(invoice=invoice, cancelled_by=treasurer)  # entry withdrawn
    online.change_status(PaymentStatus.CONFIRMED)  # the provider confirms afterwards

    payment = Payment.objects.get()
    assert payment.invoice_id == invoice.pk and payment.amount == invoice.amount
    assert payment.method == Payment.Method.ONLINE and payment.reversed_at is None
    online.refresh_from_db()
    assert online.recorded_payment_id == payment.pk
    due = selectors.refunds_due()
    assert due.count == 1 and due.amounts == {invoice.currency: invoice.amount}

    # the treasurer's pages say so: the dashboard line and the invoices page
    admin_in_english(treasurer)
    client.force_login(treasurer)
    count, link, detail = tasks(client)["Refunds due"]
    assert count == 1 and f"{invoice.amount} {invoice.currency}" in detail
    page = client.get(link).content.decode()
    assert 'id="refunds-due"' in page and invoice.number in page

    # refunded: the treasurer reverses the payment (with the reason), nothing is due
    services.payment_reverse(payment=payment, reversed_by=treasurer, reason="refunded")
    assert selectors.refunds_due().count == 0
    assert "Refunds due" not in tasks(client)
    # and the same confirmation delivered again records nothing
    online.change_status(PaymentStatus.CONFIRMED)
    assert Payment.objects.count() == 1


# --- 6. a signed payload that is not an object ---------------------------------------------------

@pytest.mark.parametrize("payload", [b"[1, 2]", b'"checkout.session.completed"', b"3",
                                     b"null", b"[]"])
def test_a_signed_payload_that_is_not_an_object_is_answered_400(client, stripe_variant,
                                                                payload):
    response = _post_signed(client, payload)
    assert response.status_code == 400
    assert response.json() == {"error": "invalid payload"}
    assert not Payment.objects.exists()
