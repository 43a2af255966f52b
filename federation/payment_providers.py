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
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _

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

    def instructions(self, invoice: DuesInvoice) -> PaymentInstructions:
        raise NotImplementedError


class BankTransferProvider(PaymentProvider):
    """Manual provider: the member transfers the amount quoting the invoice number; the
    treasurer records the payment or imports the bank statement."""

    code = "bank_transfer"
    label = _("Bank transfer")
    method = "bank_transfer"

    def instructions(self, invoice: DuesInvoice) -> PaymentInstructions:
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


def epc_qr_svg(invoice: DuesInvoice, amount: Decimal) -> str:
    """The EPC QR code ("GiroCode") of a SEPA credit transfer for `amount`, as inline SVG, so
    that a member pays from a banking app; empty when it cannot be made (currency not EUR,
    no IBAN or holder configured, amount outside what EPC allows)."""
    account = getattr(settings, "MEMBERSHIP_BANK_ACCOUNT", {})
    if invoice.currency != "EUR" or not account.get("iban") or not account.get("holder"):
        return ""
    try:
        qr = segno.helpers.make_epc_qr(
            name=account["holder"][:70],
            iban=account["iban"].replace(" ", ""),
            bic=account.get("bic") or None,
            amount=amount,
            text=invoice.number,
        )
    except ValueError:
        return ""
    return str(qr.svg_inline(scale=4, title=str(_("EPC QR code for a bank transfer"))))


def get_providers() -> list[PaymentProvider]:
    providers = [import_string(path)() for path in settings.MEMBERSHIP_PAYMENT_PROVIDERS]
    return [p for p in providers if p.is_available()]
