"""Online payment in roubles through YooKassa (its official SDK), a django-payments provider.

The member's button creates a YooKassa payment (``POST /payments`` with an
``Idempotence-Key``: the attempt's token, so a start sent twice never creates two payments)
and is redirected to YooKassa's confirmation page; YooKassa sends them back to the
attempt's return URL and notifies the site at ``/payments/process/yookassa/``.

A notification is never believed on its word (YooKassa does not sign them): it must come
from one of YooKassa's published networks (the SDK's list; ``check_ip``), name an attempt
of this site, and then only makes the site ask YooKassa's API, with the shop's own
credentials, what the payment's state is. The same question is asked when the member
comes back, so a lost notification loses nothing. A succeeded payment confirms the attempt
(``federation.online_payments`` records it once); a refund goes through ``refund`` with an
idempotence key of its own (a retry never refunds twice). Decision 0321.
"""

from __future__ import annotations

import json
import logging
import threading
from decimal import Decimal
from typing import Any

import requests
from django.http import HttpRequest, HttpResponse, JsonResponse
from payments import PaymentError, PaymentStatus, RedirectNeeded, get_payment_model
from payments.core import BasicProvider
from yookassa import Configuration
from yookassa import Payment as YooPayment
from yookassa import Refund as YooRefund
from yookassa.domain.common import SecurityHelper
from yookassa.domain.exceptions import ApiError

from core.client_address import client_address

logger = logging.getLogger(__name__)

API_URL = "https://api.yookassa.ru/v3"
# the SDK keeps its credentials on a class: one call at a time configures and uses them
_sdk_lock = threading.Lock()
LOCALES = {"ru": "ru_RU"}  # YooKassa's page speaks Russian or English


class YooKassaProvider(BasicProvider):
    gives_refunds = True  # the treasurer's reversal gives the money back (admin)

    def __init__(self, shop_id: str, secret_key: str, api_url: str = API_URL,
                 check_ip: bool = True, **kwargs: Any) -> None:
        super().__init__(capture=True)
        self.shop_id = shop_id
        self.secret_key = secret_key
        self.api_url = api_url.rstrip("/")
        self.check_ip = check_ip

    # --- calls to YooKassa ---------------------------------------------------------------

    def _call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        with _sdk_lock:
            Configuration.configure(self.shop_id, self.secret_key, api_url=self.api_url,
                                    max_attempts=1)
            try:
                return function(*args, **kwargs)
            except ApiError as error:
                logger.warning("YooKassa answered an error: %s", error)
                raise PaymentError(str(error)) from error
            except (requests.RequestException, AttributeError) as error:
                # the SDK turns a failed connection into an AttributeError (no response)
                logger.warning("YooKassa could not be reached: %r", error)
                raise PaymentError("YooKassa could not be reached") from error

    def _create(self, payment: Any) -> Any:
        language = (getattr(payment, "language", "") or "").split("-")[0]
        return self._call(YooPayment.create, {
            "amount": {"value": f"{payment.total:.2f}", "currency": payment.currency},
            "confirmation": {
                "type": "redirect",
                "return_url": payment.get_success_url(),
                "locale": LOCALES.get(language, "en_US"),
            },
            "capture": True,
            "description": payment.description[:128],
            "metadata": {"token": str(payment.token)},
        }, idempotency_key=f"payment-{payment.token}")

    # --- django-payments' provider interface -----------------------------------------------

    def get_form(self, payment: Any, data: Any = None) -> Any:
        """No form of ours: off to YooKassa's page (or, for an attempt already made, to
        where it stands)."""
        if not payment.transaction_id:
            remote = self._create(payment)
            payment.transaction_id = remote.id
            payment.save(update_fields=["transaction_id"])
        else:
            remote = self.sync(payment)
        if remote.status == "pending" and remote.confirmation is not None:
            raise RedirectNeeded(remote.confirmation.confirmation_url)
        raise RedirectNeeded(payment.get_success_url())

    def sync(self, payment: Any) -> Any:
        """Ask YooKassa how the attempt stands and take that state (the only source of it)."""
        remote = self._call(YooPayment.find_one, payment.transaction_id)
        if remote.id != payment.transaction_id:
            raise PaymentError("YooKassa answered about another payment")
        if remote.status == "succeeded" and payment.status != PaymentStatus.CONFIRMED:
            amount = Decimal(str(remote.amount.value))
            if amount != payment.total or remote.amount.currency != payment.currency:
                logger.error("YooKassa payment %s: %s %s received for %s %s", remote.id,
                             amount, remote.amount.currency, payment.total, payment.currency)
                payment.change_status(PaymentStatus.ERROR, "amount differs")
                return remote
            payment.captured_amount = amount
            payment.save(update_fields=["captured_amount"])
            payment.change_status(PaymentStatus.CONFIRMED)
        elif remote.status == "canceled" and payment.status in (
            PaymentStatus.WAITING, PaymentStatus.INPUT, PaymentStatus.PREAUTH
        ):
            details = remote.cancellation_details
            payment.change_status(PaymentStatus.REJECTED,
                                  getattr(details, "reason", "") if details else "")
        return remote

    def get_token_from_request(self, payment: Any, request: HttpRequest) -> str | None:
        """The attempt a notification is about: the token we gave YooKassa in the payment's
        metadata, or (a refund's notification) the attempt of the refunded payment."""
        try:
            body = json.loads(request.body)
            event = body["event"]
            obj = body["object"]
            if event.startswith("payment."):
                return str(obj["metadata"]["token"])
            if event.startswith("refund."):
                attempt = get_payment_model().objects.filter(
                    variant=payment.variant if payment else "yookassa",
                    transaction_id=str(obj["payment_id"]),
                ).first()
                return str(attempt.token) if attempt else None
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
        raise PaymentError("not a YooKassa notification", code=400)

    def process_data(self, payment: Any, request: HttpRequest) -> HttpResponse:
        """A notification: from YooKassa's networks only; its word is checked with the API."""
        address = client_address(request)
        if self.check_ip and not _trusted(address):
            logger.warning("YooKassa notification from %s refused: not YooKassa's network",
                           address)
            return JsonResponse({"error": "forbidden"}, status=403)
        body = json.loads(request.body)
        obj = body["object"]
        if body["event"].startswith("refund."):
            remote_refund = self._call(YooRefund.find_one, str(obj["id"]))
            if remote_refund.payment_id != payment.transaction_id:
                return JsonResponse({"error": "refund of another payment"}, status=400)
            from federation.online_payments import online_refund_recorded

            if remote_refund.status == "succeeded":
                remote = self._call(YooPayment.find_one, payment.transaction_id)
                refunded = getattr(remote, "refunded_amount", None)
                online_refund_recorded(
                    online=payment, refund_id=remote_refund.id,
                    refunded=Decimal(str(refunded.value)) if refunded else Decimal(0))
            return JsonResponse({"status": remote_refund.status})
        if str(obj.get("id")) != payment.transaction_id:
            return JsonResponse({"error": "payment id does not match"}, status=400)
        remote = self.sync(payment)
        return JsonResponse({"status": remote.status})

    def refund(self, payment: Any, amount: Decimal | None = None) -> Decimal:
        amount = payment.captured_amount if amount is None else amount
        remote = self._call(YooRefund.create, {
            "payment_id": payment.transaction_id,
            "amount": {"value": f"{amount:.2f}", "currency": payment.currency},
        }, idempotency_key=f"refund-{payment.token}-{amount:.2f}")
        if remote.status == "canceled":
            raise PaymentError("YooKassa refused the refund")
        return Decimal(str(remote.amount.value))

    def capture(self, payment: Any, amount: Decimal | None = None) -> Decimal:
        raise NotImplementedError  # payments are captured at once (capture: true)

    def release(self, payment: Any) -> None:
        raise NotImplementedError


def _trusted(address: str) -> bool:
    try:
        return bool(SecurityHelper().is_ip_trusted(address))
    except Exception:  # netaddr refuses what is not an address
        return False
