"""Issue 42: online payment in roubles through YooKassa (its official SDK), against a local
stand-in of YooKassa's API that checks our requests (authentication, idempotence keys,
the payment's fields) as the real one does: redirect, return, notification checked with
the API, refunds; the same bookkeeping as card payments (once, reversible, never lost)."""

import json
import re

import pytest
from django.core import mail
from payments import PaymentStatus
from payments.core import PROVIDER_CACHE

from federation import selectors
from federation.models import OnlinePayment, Payment
from federation.rules.dues import Status
from tests.federation.membership.yookassa_standin import SECRET_KEY, SHOP_ID, StandIn

pytestmark = pytest.mark.django_db

YOOKASSA_ADDRESS = "185.71.76.10"  # inside one of YooKassa's published networks
NOTIFY = "/payments/process/yookassa/"


@pytest.fixture
def standin():
    server = StandIn().start()
    yield server
    server.stop()


def _configure(settings, url, secret=SECRET_KEY):
    settings.PAYMENT_VARIANTS = {
        "dummy": ("payments.dummy.DummyProvider", {}),
        "yookassa": ("federation.yookassa_provider.YooKassaProvider",
                     {"shop_id": SHOP_ID, "secret_key": secret, "api_url": url}),
    }
    settings.MEMBERSHIP_ONLINE_PAYMENT_VARIANT = "dummy"
    settings.MEMBERSHIP_ONLINE_PAYMENT_VARIANT_BY_CURRENCY = {"RUB": "yookassa"}
    PROVIDER_CACHE.clear()


@pytest.fixture
def yookassa(settings, standin):
    _configure(settings, standin.url)
    yield standin
    PROVIDER_CACHE.clear()


@pytest.fixture
def payer(make_member, rouble_year, rouble_details, settings, yookassa):
    settings.MEMBERSHIP_SITE_URL = "http://testserver"
    return make_member(joined_on=rouble_year.starts_on)


def start(client, member):
    """The member's "Pay" button, then the attempt's page: YooKassa's confirmation URL."""
    invoice = member.invoices.get()
    client.force_login(member.user)
    pay_url = client.post(f"/en/members/invoices/{invoice.number}/pay/")["Location"]
    assert re.match(r"^/en/members/pay/[0-9a-f-]{36}/$", pay_url)
    response = client.get(pay_url)
    assert response.status_code == 302
    return pay_url, response["Location"], OnlinePayment.objects.get(invoice=invoice)


def notify(client, body, address=YOOKASSA_ADDRESS):
    return client.post(NOTIFY, json.dumps(body), content_type="application/json",
                       REMOTE_ADDR=address)


def test_the_whole_flow_redirect_notification_once(
    client, payer, yookassa, django_capture_on_commit_callbacks
):
    invoice = payer.invoices.get()
    client.force_login(payer.user)
    page = client.get(f"/en/members/invoices/{invoice.number}/").content.decode()
    assert "Pay 3500.00 RUB" in page
    pay_url, to, online = start(client, payer)
    assert online.variant == "yookassa" and online.currency == "RUB"
    [create] = [r for r in yookassa.requests if r["method"] == "POST"]
    assert create["path"] == "/v3/payments"
    assert create["idempotence_key"] == f"payment-{online.token}"
    assert create["body"]["amount"] == {"value": "3500.00", "currency": "RUB"}
    assert create["body"]["confirmation"]["return_url"] == (
        f"http://testserver/en/members/pay/{online.token}/done/")
    assert create["body"]["metadata"]["token"] == str(online.token)
    assert to == f"https://yoomoney.example/checkout?orderId={online.transaction_id}"
    # the page opened again: no second YooKassa payment, the same checkout
    assert client.get(pay_url)["Location"] == to
    assert len(yookassa.payments) == 1

    yookassa.pay(online.transaction_id)
    body = yookassa.notification("payment.succeeded", online.transaction_id)
    with django_capture_on_commit_callbacks(execute=True):
        assert notify(client, body).status_code == 200
    payment = Payment.objects.get()
    assert (payment.method, payment.amount, payment.transaction_id) == (
        Payment.Method.ONLINE, invoice.amount, online.transaction_id)
    assert selectors.member_status(payer) == Status.ACTIVE
    [receipt] = mail.outbox
    assert payment.receipt_number in receipt.subject
    # YooKassa delivers it again (it retries): recorded once
    assert notify(client, body).status_code == 200
    assert Payment.objects.count() == 1
    # the member comes back: thanked, the invoice paid
    done = client.get(f"/en/members/pay/{online.token}/done/", follow=True).content.decode()
    assert "Thank you" in done and payment.receipt_number in done


def test_a_lost_notification_loses_nothing_the_return_asks_yookassa(client, payer, yookassa):
    _, _, online = start(client, payer)
    yookassa.pay(online.transaction_id)
    client.get(f"/en/members/pay/{online.token}/done/")
    assert Payment.objects.get().transaction_id == online.transaction_id
    assert [r["path"] for r in yookassa.requests if r["method"] == "GET"] == [
        f"/v3/payments/{online.transaction_id}"]


def test_a_notification_is_never_believed_on_its_word(client, payer, yookassa):
    _, _, online = start(client, payer)
    forged = yookassa.notification("payment.waiting_for_capture", online.transaction_id)
    forged["event"] = "payment.succeeded"
    forged["object"]["status"] = "succeeded"
    forged["object"]["paid"] = True
    # from YooKassa's network, but the API says the payment is still pending
    assert notify(client, forged).status_code == 200
    assert not Payment.objects.exists()
    assert OnlinePayment.objects.get().status == PaymentStatus.WAITING
    # from elsewhere: refused before anything is asked
    asked = len(yookassa.requests)
    assert notify(client, forged, address="203.0.113.7").status_code == 403
    assert len(yookassa.requests) == asked
    # naming a payment that is not this attempt's: refused
    yookassa.pay(online.transaction_id)
    other = dict(forged, object={**forged["object"], "id": "2f0c5e2a-000f-5000-a000-1d5a2b2a1f7c"})
    assert notify(client, other).status_code == 400
    assert not Payment.objects.exists()
    # not a notification at all
    assert client.post(NOTIFY, "[1, 2]", content_type="application/json",
                       REMOTE_ADDR=YOOKASSA_ADDRESS).status_code == 400


def test_a_cancelled_payment_records_nothing(client, payer, yookassa):
    _, _, online = start(client, payer)
    yookassa.cancel(online.transaction_id)
    assert notify(client, yookassa.notification("payment.canceled",
                                                online.transaction_id)).status_code == 200
    online.refresh_from_db()
    assert online.status == PaymentStatus.REJECTED and not Payment.objects.exists()
    done = client.get(f"/en/members/pay/{online.token}/done/", follow=True).content.decode()
    assert "Nothing has been charged" in done


def test_wrong_credentials_are_refused_and_nothing_is_started(client, payer, settings,
                                                              yookassa):
    _configure(settings, yookassa.url, secret="not-the-shop-key")
    invoice = payer.invoices.get()
    client.force_login(payer.user)
    pay_url = client.post(f"/en/members/invoices/{invoice.number}/pay/")["Location"]
    response = client.get(pay_url, follow=True)
    assert "The payment could not be started" in response.content.decode()
    assert yookassa.payments == {} and yookassa.requests[0]["path"] == "/v3/payments"
    assert OnlinePayment.objects.get().transaction_id == ""


def test_refund_by_the_treasurer_gives_the_money_back_and_reverses(
    client, payer, yookassa, treasurer
):
    _, _, online = start(client, payer)
    yookassa.pay(online.transaction_id)
    notify(client, yookassa.notification("payment.succeeded", online.transaction_id))
    payment = Payment.objects.get()
    client.force_login(treasurer)
    form = client.get(f"/admin/membership/payments/{payment.pk}/reverse/").content.decode()
    assert 'name="refund"' in form
    client.post(f"/admin/membership/payments/{payment.pk}/reverse/",
                {"reason": "Member asked", "refund": "on"})
    [refund_call] = [r for r in yookassa.requests if r["path"] == "/v3/refunds"]
    assert refund_call["idempotence_key"] == f"refund-{online.token}-3500.00"
    assert refund_call["body"]["payment_id"] == online.transaction_id
    assert refund_call["body"]["amount"] == {"value": "3500.00", "currency": "RUB"}
    payment.refresh_from_db()
    online.refresh_from_db()
    assert payment.reversed_at is not None and payment.reversal_reason == "Member asked"
    assert online.status == PaymentStatus.REFUNDED
    # YooKassa then reports the refund: nothing more happens
    [refund_id] = yookassa.refunds
    assert notify(client, yookassa.notification("refund.succeeded", refund_id)).status_code == 200
    assert len(yookassa.refunds) == 1 and Payment.objects.filter(reversed_at=None).count() == 0


def test_a_refund_yookassa_refuses_changes_nothing(client, payer, yookassa, treasurer):
    _, _, online = start(client, payer)
    yookassa.pay(online.transaction_id)
    notify(client, yookassa.notification("payment.succeeded", online.transaction_id))
    yookassa.refund_in_dashboard(online.transaction_id, "3500.00")  # nothing left to give
    payment = Payment.objects.get()
    client.force_login(treasurer)
    page = client.post(f"/admin/membership/payments/{payment.pk}/reverse/",
                       {"reason": "Member asked", "refund": "on"}).content.decode()
    assert "did not refund this payment" in page
    payment.refresh_from_db()
    assert payment.reversed_at is None


def test_a_refund_made_in_yookassas_dashboard_reverses_the_payment(client, payer, yookassa):
    _, _, online = start(client, payer)
    yookassa.pay(online.transaction_id)
    notify(client, yookassa.notification("payment.succeeded", online.transaction_id))
    part = yookassa.refund_in_dashboard(online.transaction_id, "500.00")
    notify(client, yookassa.notification("refund.succeeded", part["id"]))
    assert Payment.objects.get().reversed_at is None  # a part: the treasurer decides
    rest = yookassa.refund_in_dashboard(online.transaction_id, "3000.00")
    assert notify(client, yookassa.notification("refund.succeeded", rest["id"])).status_code == 200
    # the two together give back the whole payment: reversed
    payment = Payment.objects.get()
    assert payment.reversed_at is not None and rest["id"] in payment.reversal_reason


def test_a_whole_refund_in_the_dashboard_reverses_once(client, payer, yookassa):
    _, _, online = start(client, payer)
    yookassa.pay(online.transaction_id)
    notify(client, yookassa.notification("payment.succeeded", online.transaction_id))
    whole = yookassa.refund_in_dashboard(online.transaction_id, "3500.00")
    body = yookassa.notification("refund.succeeded", whole["id"])
    notify(client, body)
    notify(client, body)
    payment = Payment.objects.get()
    assert payment.reversed_at is not None and whole["id"] in payment.reversal_reason
    assert OnlinePayment.objects.get().status == PaymentStatus.REFUNDED


def test_the_provider_follows_the_invoice_currency(client, payer, make_member, year_2025,
                                                   settings, yookassa):
    euro = make_member(joined_on=year_2025.starts_on)
    client.force_login(euro.user)
    number = euro.invoices.get().number
    client.post(f"/en/members/invoices/{number}/pay/")
    assert OnlinePayment.objects.get(invoice__number=number).variant == "dummy"
    # Stripe alone does not take roubles: no online payment offered for them
    settings.MEMBERSHIP_ONLINE_PAYMENT_VARIANT_BY_CURRENCY = {"RUB": ""}
    client.force_login(payer.user)
    rouble = payer.invoices.get().number
    page = client.get(f"/en/members/invoices/{rouble}/").content.decode()
    assert 'id="pay-online"' not in page and 'id="ru-payment-qr"' in page
    client.post(f"/en/members/invoices/{rouble}/pay/")
    assert not OnlinePayment.objects.filter(invoice__number=rouble).exists()
