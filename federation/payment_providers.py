"""Payment providers: how a member pays an invoice.

The dues logic never knows which provider is used: a provider shows the member how to pay
(`instructions`) and, when money arrives, calls `federation.services.payment_record` with its
own method code and the provider's transaction id (recorded once). A card provider plugs in
by subclassing `PaymentProvider`, implementing `instructions` (e.g. a checkout link) and a
webhook view that calls `payment_record`, and adding its dotted path to
`settings.MEMBERSHIP_PAYMENT_PROVIDERS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

import segno
import segno.helpers
from django.conf import settings
from django.utils import translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

from federation.rules import ru_payment

if TYPE_CHECKING:
    from django.utils.functional import Promise

    from federation.models import DuesInvoice


@dataclass(frozen=True)
class PaymentInstructions:
    provider: str
    title: Promise | str
    details: list[tuple[Promise | str, str]] = field(default_factory=list)  # (label, value)
    url: str = ""  # checkout page of an online provider


class PaymentProvider:
    code: str = ""
    label: Promise | str = ""
    method: str = ""  # Payment.Method value used when the provider records a payment

    def is_available(self) -> bool:
        return True

    def offers(self, invoice: DuesInvoice) -> bool:
        """Whether this way of paying is offered for ``invoice`` (its currency)."""
        return True

    def instructions(self, invoice: DuesInvoice) -> PaymentInstructions:
        raise NotImplementedError


class BankTransferProvider(PaymentProvider):
    """Manual provider: the member transfers the amount quoting the invoice number; the
    treasurer records the payment or imports the bank statement."""

    code = "bank_transfer"
    label = _("Bank transfer")
    method = "bank_transfer"

    def instructions(self, invoice: DuesInvoice) -> PaymentInstructions:
        if invoice.currency == "RUB":
            return self._rouble_instructions(invoice)
        account = getattr(settings, "MEMBERSHIP_BANK_ACCOUNT", {})
        return PaymentInstructions(
            provider=self.code,
            title=_("Pay by bank transfer"),
            details=[
                (_("Account holder"), account.get("holder", "")),
                (_("IBAN"), account.get("iban", "")),
                (_("BIC"), account.get("bic", "")),
                (_("Reference (required)"), invoice.number),
            ],
        )


    def _rouble_instructions(self, invoice: DuesInvoice) -> PaymentInstructions:
        """A rouble invoice is paid to the federation's Russian account (decision 0320)."""
        account = rouble_account()
        return PaymentInstructions(
            provider=self.code,
            title=_("Pay by bank transfer"),
            details=[
                (_("Payee"), account.get("name", "")),
                (_("INN"), account.get("inn", "")),
                *([(_("KPP"), account["kpp"])] if account.get("kpp") else []),
                (_("Account number"), account.get("account", "")),
                (_("Bank"), account.get("bank_name", "")),
                (_("BIK"), account.get("bik", "")),
                (_("Correspondent account"), account.get("corr_account", "")),
                (_("Purpose of payment (required)"), rouble_purpose(invoice)),
            ],
        )


def rouble_account() -> dict[str, str]:
    """The federation's Russian bank details (settings.MEMBERSHIP_BANK_ACCOUNT_RUB)."""
    return dict(getattr(settings, "MEMBERSHIP_BANK_ACCOUNT_RUB", {}))


def rouble_purpose(invoice: DuesInvoice) -> str:
    """The purpose of a transfer: the invoice number first (the bank statement import
    finds it there; the QR's 210 characters keep it), then what it is for; in Russian
    whatever the page's language, as the bank and the statement will show it."""
    with translation.override("ru"):
        return f"{invoice.number} {invoice.purpose_label()}. {_('VAT not applicable')}"


def rouble_qr_payload(invoice: DuesInvoice, amount: Decimal) -> str:
    """The GOST R 56042-2014 payload of a transfer of ``amount`` for ``invoice``; empty when
    it cannot be made (not roubles, bank details missing or invalid, nothing to pay)."""
    if invoice.currency != "RUB" or amount <= 0:
        return ""
    try:
        return ru_payment.payment_payload(rouble_account(), amount=amount,
                                          purpose=rouble_purpose(invoice))
    except ValueError:
        return ""


def payment_qr(invoice: DuesInvoice, amount: Decimal) -> segno.QRCode | None:
    """The bank-transfer QR code of ``invoice`` for ``amount``: the Russian unified payment
    code for roubles, the EPC code ("GiroCode") for euros; None when neither can be made."""
    payload = rouble_qr_payload(invoice, amount)
    if payload:
        return segno.make(payload, error="m", encoding="utf-8", micro=False)
    account = getattr(settings, "MEMBERSHIP_BANK_ACCOUNT", {})
    if invoice.currency != "EUR" or not account.get("iban") or not account.get("holder"):
        return None
    try:
        return segno.helpers.make_epc_qr(
            name=account["holder"][:70],
            iban=account["iban"].replace(" ", ""),
            bic=account.get("bic") or None,
            amount=amount,
            text=invoice.number,
        )
    except ValueError:
        return None


def payment_qr_svg(invoice: DuesInvoice, amount: Decimal) -> str:
    """``payment_qr`` as inline SVG for the invoice page; empty when there is none."""
    qr = payment_qr(invoice, amount)
    if qr is None:
        return ""
    title = (_("Payment QR code for a bank transfer in roubles") if invoice.currency == "RUB"
             else _("EPC QR code for a bank transfer"))
    return str(qr.svg_inline(scale=4, title=str(title)))


def payment_qr_png(invoice: DuesInvoice, amount: Decimal) -> bytes:
    """``payment_qr`` as PNG for PDFs; empty when there is none."""
    import io

    qr = payment_qr(invoice, amount)
    if qr is None:
        return b""
    buffer = io.BytesIO()
    qr.save(buffer, kind="png", scale=6, border=4)
    return buffer.getvalue()


def get_providers(invoice: DuesInvoice | None = None) -> list[PaymentProvider]:
    """The providers configured and available (and, given an invoice, offered for it)."""
    providers = [import_string(path)() for path in settings.MEMBERSHIP_PAYMENT_PROVIDERS]
    return [p for p in providers
            if p.is_available() and (invoice is None or p.offers(invoice))]
