"""Card payments through django-payments, behind the PaymentProvider interface.

The member starts from the invoice page (CardPaymentProvider's button): a django-payments
`OnlinePayment` for the outstanding amount is created and the provider takes over (Stripe
Checkout in production; the library's dummy provider, which needs no network, in development
and tests). The provider reports back through django-payments' webhook URL
(/payments/process/<variant>/ for Stripe, its signature verified with the endpoint secret);
when the payment is confirmed, `online_payment_settle` records it as a federation Payment,
once, keyed on the provider's transaction id, and the receipt is emailed."""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

import stripe
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from payments import PaymentStatus
from payments.signals import status_changed

from federation import selectors
from federation.errors import E_REFUND_UNAVAILABLE
from federation.models import DuesInvoice, OnlinePayment, Payment
from federation.payment_providers import PaymentInstructions, PaymentProvider
from federation.services import (
    E_ALREADY_REVERSED,
    E_DUPLICATE_TRANSACTION,
    E_ONLINE_UNAVAILABLE,
    E_REASON_REQUIRED,
    MembershipError,
    payment_record,
)

logger = logging.getLogger(__name__)


def variant(currency: str = "") -> str:
    """The django-payments variant that takes payments in ``currency``: the currency's own
    (MEMBERSHIP_ONLINE_PAYMENT_VARIANT_BY_CURRENCY: roubles go to YooKassa, or nowhere when
    it is not configured), else the default one (Stripe, or the dummy in development)."""
    by_currency = getattr(settings, "MEMBERSHIP_ONLINE_PAYMENT_VARIANT_BY_CURRENCY", {})
    chosen = by_currency.get(currency, settings.MEMBERSHIP_ONLINE_PAYMENT_VARIANT)
    return chosen if chosen in getattr(settings, "PAYMENT_VARIANTS", {}) else ""


class CardPaymentProvider(PaymentProvider):
    code = "card"
    label = _("Card")
    method = Payment.Method.ONLINE

    def is_available(self) -> bool:
        return bool(getattr(settings, "PAYMENT_VARIANTS", {}))

    def offers(self, invoice: DuesInvoice) -> bool:
        return bool(variant(invoice.currency))

    def instructions(self, invoice: DuesInvoice) -> PaymentInstructions:
        return PaymentInstructions(
            provider=self.code,
            title=_("Pay online by card"),
            url=reverse("membership:online_payment_start", args=[invoice.number]),
        )


@transaction.atomic
def online_payment_start(*, invoice: DuesInvoice, language: str, email: str = "") -> OnlinePayment:
    """A payment attempt for what is still outstanding on the invoice."""
    invoice = (
        DuesInvoice.objects.select_for_update(of=("self",))
        .select_related("membership_year").get(pk=invoice.pk)
    )
    balance = selectors.invoice_balance(invoice)
    chosen = variant(invoice.currency)
    if invoice.cancelled or balance.outstanding <= 0 or not chosen:
        raise MembershipError(E_ONLINE_UNAVAILABLE)
    return OnlinePayment.objects.create(
        variant=chosen,
        invoice=invoice,
        total=balance.outstanding,
        currency=invoice.currency,
        description=f"{settings.WAGTAIL_SITE_NAME} {invoice.number}",
        billing_email=email,
        language=language,
    )


def transaction_id_of(online: OnlinePayment) -> str:
    """The provider's own id (Stripe's session id), else the attempt's token."""
    return online.transaction_id or f"{online.variant}:{online.token}"


@transaction.atomic
def online_payment_settle(*, online: OnlinePayment) -> Payment | None:
    """Record a confirmed online payment once (idempotent: webhooks are retried, and a
    payment the treasurer reversed since stays reversed).

    The money has arrived, so it is always recorded: on a cancelled invoice too (an entry
    withdrawn while the member was paying), where it shows as a refund due to the
    treasurer (``selectors.refunds_due``)."""
    attempt = online
    online = OnlinePayment.objects.select_for_update().get(pk=online.pk)
    if online.status != PaymentStatus.CONFIRMED:
        return None
    if online.recorded_payment_id:
        return online.recorded_payment
    transaction_id = transaction_id_of(online)
    try:
        payment = payment_record(
            invoice=online.invoice,
            amount=online.total,
            paid_on=selectors.today(),
            method=Payment.Method.ONLINE,
            recorded_by=None,
            reference=f"{online.variant} {online.token}",
            transaction_id=transaction_id,
            confirm_overpayment=True,
            confirm_duplicate=True,
            money_already_received=True,
        )
    except MembershipError as error:
        if error.code != E_DUPLICATE_TRANSACTION:
            logger.error("online payment %s not recorded: %s", online.pk, error.code)
            return None
        payment = Payment.objects.get(
            method=Payment.Method.ONLINE, transaction_id=transaction_id, reversed_at__isnull=True
        )
    online.recorded_payment = payment
    online.save(update_fields=["recorded_payment"])
    # the caller's copy (django-payments' own, saved again after the status change) too
    attempt.recorded_payment = payment
    return payment


def online_payment_sync(online: OnlinePayment) -> None:
    """Ask the provider how a waiting attempt stands (YooKassa: its API), when it can tell:
    the member's return settles a payment whose notification has not arrived (or never
    will). An unreachable provider leaves the attempt waiting for its notification."""
    from payments import PaymentError
    from payments.core import provider_factory

    if online.status != PaymentStatus.WAITING or not online.transaction_id:
        return
    try:
        provider = provider_factory(online.variant, online)
    except ValueError:
        return
    sync = getattr(provider, "sync", None)
    if sync is None:
        return
    try:
        sync(online)
    except PaymentError:
        logger.warning("online payment %s: the provider could not be asked", online.pk)


def online_payment_refundable(payment: Payment) -> bool:
    """Whether ``payment`` came through a provider that gives money back (YooKassa)."""
    from payments.core import provider_factory

    online = OnlinePayment.objects.filter(recorded_payment=payment).first()
    if online is None or online.status != PaymentStatus.CONFIRMED or payment.reversed_at:
        return False
    try:
        provider = provider_factory(online.variant, online)
    except ValueError:
        return False
    return getattr(provider, "gives_refunds", False)


@transaction.atomic
def online_payment_refund(*, payment: Payment, refunded_by: Any, reason: str) -> Payment:
    """Give an online payment back to the payer through its provider, then reverse it.

    The provider is asked first: if it refuses or cannot be reached, nothing changes. The
    provider's refund carries an idempotence key of the attempt and amount, so doing it
    again after a failure here never refunds twice."""
    from payments import PaymentError

    from federation.services import payment_reverse

    reason = reason.strip()
    if not reason:
        raise MembershipError(E_REASON_REQUIRED)
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    if payment.reversed_at is not None:
        raise MembershipError(E_ALREADY_REVERSED)
    online = OnlinePayment.objects.select_for_update().filter(recorded_payment=payment).first()
    if online is None or online.status != PaymentStatus.CONFIRMED:
        raise MembershipError(E_REFUND_UNAVAILABLE)
    try:
        online.refund()
    except (PaymentError, NotImplementedError, ValueError) as error:
        logger.warning("online payment %s: refund refused: %s", online.pk, error)
        raise MembershipError(E_REFUND_UNAVAILABLE) from error
    return payment_reverse(payment=payment, reversed_by=refunded_by, reason=reason)


@transaction.atomic
def online_refund_recorded(*, online: OnlinePayment, refund_id: str, refunded: Decimal) -> None:
    """The provider reports a refund made (from its own dashboard too), ``refunded`` being
    all it has given back of the payment so far: once that is the whole payment, the
    payment is reversed, once. A part refunded is logged for the treasurer; the payment
    stays as it is (a payment is reversed whole or not at all)."""
    online = OnlinePayment.objects.select_for_update().get(pk=online.pk)
    payment = online.recorded_payment
    if payment is None or payment.reversed_at is not None:
        return
    if refunded < payment.amount:
        logger.error("online payment %s: %s of %s refunded by the provider (refund %s): "
                     "the treasurer decides", online.pk, refunded, payment.amount, refund_id)
        return
    from federation.services import payment_reverse

    payment_reverse(payment=payment, reversed_by=None,
                    reason=f"{online.variant} refund {refund_id}")
    if online.status != PaymentStatus.REFUNDED:
        online.captured_amount = Decimal(0)
        online.save(update_fields=["captured_amount"])
        online.change_status(PaymentStatus.REFUNDED)


@receiver(status_changed, sender=OnlinePayment)
def _settle_on_confirmation(sender: Any, instance: OnlinePayment, **kwargs: Any) -> None:
    if instance.status == PaymentStatus.CONFIRMED:
        online_payment_settle(online=instance)


@csrf_exempt
@require_POST
def stripe_webhook(request: HttpRequest) -> HttpResponse:
    """Stripe's webhook (/payments/process/stripe/).

    A payload whose signature does not match STRIPE_WEBHOOK_SECRET, or a signed one that
    is not a JSON object, is answered 400 and changes nothing (django-payments would let
    the verification error through as a 500).
    A genuine event goes on to django-payments when it is one of the checkout events it
    handles. A genuine event the site has no use for (another type, or a checkout of no
    payment of this site) is answered 200 and logged: anything else is a failure to Stripe,
    which retries it for days."""
    from payments import PaymentError
    from payments.core import provider_factory
    from payments.stripe.providers import stripe_enabled_events
    from payments.urls import static_callback

    try:
        provider = provider_factory("stripe")
    except ValueError:
        return JsonResponse({"error": "Stripe is not configured"}, status=404)
    try:
        event = provider.return_event_payload(request)
    except (stripe.SignatureVerificationError, ValueError, PaymentError):
        logger.warning("Stripe webhook with an invalid signature or payload refused")
        return JsonResponse({"error": "invalid signature"}, status=400)
    except (AttributeError, TypeError):
        # signed, but not a JSON object (a list, a string, a number): Stripe's library
        # cannot read it as an event
        logger.warning("Stripe webhook whose payload is not a JSON object refused")
        return JsonResponse({"error": "invalid payload"}, status=400)
    event_type = event.get("type") if hasattr(event, "get") else None
    event_id = event.get("id") if hasattr(event, "get") else None
    if event_type not in stripe_enabled_events:
        logger.warning("Stripe event %s of type %s ignored: not one the site handles",
                       event_id, event_type)
        return JsonResponse({"status": "ignored", "type": event_type})
    response = static_callback(request, variant="stripe")
    if response.status_code in (400, 404):
        logger.warning("Stripe event %s of type %s ignored: no payment of this site "
                       "(answer %s)", event_id, event_type, response.status_code)
        return JsonResponse({"status": "ignored", "type": event_type})
    return response
