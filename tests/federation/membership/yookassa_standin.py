"""A local stand-in of YooKassa's API (v3), a real HTTP server on 127.0.0.1, for the tests of
the rouble payment provider: the site talks to it through the official SDK over the
network as it talks to YooKassa, and it checks each request as YooKassa does.

- every request: HTTP Basic authentication with the shop id and secret key (401 otherwise);
- every POST: an ``Idempotence-Key`` header (400 without); a key used again with the same
  body answers the first answer again (nothing new is made), with another body 400;
- ``POST /v3/payments``: amount ``{"value": "N.NN", "currency": "RUB"}``, a redirect
  confirmation with a return URL, ``capture: true``; answers a pending payment with its
  confirmation URL;
- ``GET /v3/payments/<id>``, ``POST /v3/refunds`` (a succeeded payment, no more than what
  is left), ``GET /v3/refunds/<id>``.

The test plays the payer and YooKassa's back office: ``pay``/``cancel`` a payment,
``notification`` writes the body YooKassa would POST to the site.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import uuid
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SHOP_ID = "506751"
SECRET_KEY = "test_secret_key_for_the_stand_in"


class StandIn:
    def __init__(self) -> None:
        self.payments: dict[str, dict[str, Any]] = {}
        self.refunds: dict[str, dict[str, Any]] = {}
        self.idempotence: dict[str, tuple[str, int, dict[str, Any]]] = {}
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v3"

    def start(self) -> StandIn:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # --- what the payer and YooKassa's back office do --------------------------------------

    def pay(self, payment_id: str) -> None:
        with self.lock:
            payment = self.payments[payment_id]
            payment.update(status="succeeded", paid=True, refundable=True,
                           captured_at="2026-01-10T10:00:00.000Z",
                           payment_method={"type": "bank_card", "id": payment_id,
                                           "saved": False})
            payment.pop("confirmation", None)

    def cancel(self, payment_id: str) -> None:
        with self.lock:
            self.payments[payment_id].update(
                status="canceled", cancellation_details={"party": "payment_network",
                                                        "reason": "card_expired"})

    def refund_in_dashboard(self, payment_id: str, value: str) -> dict[str, Any]:
        with self.lock:
            return self._refund(self.payments[payment_id], value)

    def notification(self, event: str, object_id: str) -> dict[str, Any]:
        source = self.refunds if event.startswith("refund.") else self.payments
        return {"type": "notification", "event": event, "object": dict(source[object_id])}

    # --- the API -------------------------------------------------------------------------

    def _refund(self, payment: dict[str, Any], value: str) -> dict[str, Any]:
        refund = {
            "id": str(uuid.uuid4()),
            "payment_id": payment["id"],
            "status": "succeeded",
            "created_at": "2026-01-11T10:00:00.000Z",
            "amount": {"value": value, "currency": payment["amount"]["currency"]},
        }
        self.refunds[refund["id"]] = refund
        refunded = Decimal(payment["refunded_amount"]["value"]) + Decimal(value)
        payment["refunded_amount"] = {"value": f"{refunded:.2f}",
                                      "currency": payment["amount"]["currency"]}
        return refund

    def handle(self, method: str, path: str, headers: Any, raw: bytes) -> tuple[int, Any]:
        expected = "Basic " + base64.b64encode(f"{SHOP_ID}:{SECRET_KEY}".encode()).decode()
        self.requests.append({"method": method, "path": path,
                              "idempotence_key": headers.get("Idempotence-Key"),
                              "body": json.loads(raw) if raw else None})
        if headers.get("Authorization") != expected:
            return 401, _error("invalid_credentials", "Authentication error")
        if method == "GET":
            found = re.fullmatch(r"/v3/(payments|refunds)/([\w-]+)", path)
            table = self.payments if found and found[1] == "payments" else self.refunds
            if not found or found[2] not in table:
                return 404, _error("not_found", "Object not found")
            return 200, table[found[2]]
        key = headers.get("Idempotence-Key")
        if not key:
            return 400, _error("invalid_request", "Idempotence-Key header is required")
        try:
            body = json.loads(raw)
        except ValueError:
            return 400, _error("invalid_request", "Body is not JSON")
        fingerprint = json.dumps([path, body], sort_keys=True)
        if key in self.idempotence:
            seen, status, answer = self.idempotence[key]
            if seen != fingerprint:
                return 400, _error("invalid_request",
                                   "Idempotence key duplicated with another request")
            return status, answer
        status, answer = self._post(path, body)
        self.idempotence[key] = (fingerprint, status, answer)
        return status, answer

    def _post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        amount = body.get("amount") or {}
        if not re.fullmatch(r"\d+\.\d{2}", str(amount.get("value", ""))) or amount.get(
                "currency") != "RUB":
            return 400, _error("invalid_request", "amount: value N.NN in RUB")
        if path == "/v3/payments":
            confirmation = body.get("confirmation") or {}
            if confirmation.get("type") != "redirect" or not confirmation.get("return_url"):
                return 400, _error("invalid_request", "confirmation: redirect, return_url")
            if body.get("capture") is not True:
                return 400, _error("invalid_request", "this shop captures at once")
            if len(body.get("description", "")) > 128:
                return 400, _error("invalid_request", "description: 128 characters")
            payment_id = str(uuid.uuid4())
            payment = {
                "id": payment_id,
                "status": "pending",
                "paid": False,
                "amount": amount,
                "refunded_amount": {"value": "0.00", "currency": "RUB"},
                "confirmation": {
                    "type": "redirect",
                    "return_url": confirmation["return_url"],
                    "confirmation_url": f"https://yoomoney.example/checkout?orderId={payment_id}",
                },
                "created_at": "2026-01-10T09:59:00.000Z",
                "description": body.get("description", ""),
                "metadata": body.get("metadata", {}),
                "recipient": {"account_id": SHOP_ID, "gateway_id": "1"},
                "refundable": False,
                "test": True,
            }
            with self.lock:
                self.payments[payment_id] = payment
            return 200, payment
        if path == "/v3/refunds":
            with self.lock:
                payment = self.payments.get(str(body.get("payment_id")))
                if payment is None or payment["status"] != "succeeded":
                    return 400, _error("invalid_request", "payment not succeeded")
                left = Decimal(payment["amount"]["value"]) - Decimal(
                    payment["refunded_amount"]["value"])
                if Decimal(amount["value"]) > left:
                    return 400, _error("invalid_request", "more than is left to refund")
                return 200, self._refund(payment, amount["value"])
        return 404, _error("not_found", path)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                status, answer = stand_in.handle(method, self.path, self.headers, raw)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._answer("GET")

            def do_POST(self) -> None:
                self._answer("POST")

            def log_message(self, *args: Any) -> None:
                pass

        return Handler


def _error(code: str, description: str) -> dict[str, str]:
    return {"type": "error", "id": str(uuid.uuid4()), "code": code,
            "description": description}
