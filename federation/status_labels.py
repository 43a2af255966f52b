"""The words for membership's states: a member's status (the one status vocabulary of
``federation.rules.dues.Status``, decision 0310) and an invoice's state, in the user's language.
Views and the admin's lists and filters look the labels up here; the
error messages are in ``federation.error_texts``."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from federation.rules.dues import InvoiceState, Status

STATUS_LABELS: dict[str, Promise] = {
    Status.APPLIED: _("Applied"),
    Status.AWAITING_PAYMENT: _("Awaiting payment"),
    Status.ACTIVE: _("Active"),
    Status.GRACE: _("Grace period"),
    Status.LAPSED: _("Lapsed"),
    Status.REJECTED: _("Rejected"),
    Status.ERASED: _("Erased"),
}
STATUS_CHOICES: list[tuple[str, Promise]] = [(code.value, STATUS_LABELS[code]) for code in Status]

INVOICE_STATE_LABELS: dict[str, Promise] = {
    InvoiceState.UNPAID: _("Unpaid"),
    InvoiceState.PARTIAL: _("Partly paid"),
    InvoiceState.PAID: _("Paid"),
    InvoiceState.OVERPAID: _("Overpaid"),
    "cancelled": _("Cancelled"),
}
