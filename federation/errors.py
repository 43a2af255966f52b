"""The membership services' errors: a stable code (and a detail), said in the user's language
by ``federation.error_texts``."""

from __future__ import annotations

from typing import Any

from core.errors import DomainError

# Error codes; federation.error_texts.ERROR_MESSAGES says them in the user's language.
E_ALREADY_APPLIED = "already_applied"
E_NOT_PENDING = "not_pending"
E_NOT_APPROVED = "not_approved"
E_NO_FEE = "no_fee"
E_FREE_TYPE = "free_type"
E_COVERED_BY_FAMILY = "covered_by_family"
E_INVOICE_EXISTS = "invoice_exists"
E_JOINED_AFTER_YEAR = "joined_after_year"
E_DUPLICATE_TRANSACTION = "duplicate_transaction"
E_AMOUNT_NOT_POSITIVE = "amount_not_positive"
E_INVOICE_CANCELLED = "invoice_cancelled"
E_ALREADY_ERASED = "already_erased"
E_BAD_FILE = "bad_file"
E_PAYMENT_IN_FUTURE = "payment_in_future"
E_OVERPAYMENT = "overpayment"
E_POSSIBLE_DUPLICATE = "possible_duplicate"
E_INVOICE_HAS_PAYMENTS = "invoice_has_payments"
E_ALREADY_CANCELLED = "already_cancelled"
E_ALREADY_REVERSED = "already_reversed"
E_REASON_REQUIRED = "reason_required"
E_ONLINE_UNAVAILABLE = "online_unavailable"
E_REFUND_UNAVAILABLE = "refund_unavailable"
E_MAILING_NOT_DRAFT = "mailing_not_draft"
E_MAILING_NO_DEFAULT_TEXT = "mailing_no_default_text"
E_MAILING_NO_RECIPIENTS = "mailing_no_recipients"
E_MAILING_AUDIENCE_INCOMPLETE = "mailing_audience_incomplete"
E_NO_EMAIL = "no_email"
E_COUNTRY_REQUIRED = "country_required"


class MembershipError(DomainError):
    """A membership service refused: ``code`` and a ``detail``, said by
    ``federation.error_texts.error_message``."""

    def __init__(self, code: str, detail: Any = None) -> None:
        super().__init__(code)
        self.detail = detail

    @property
    def message(self) -> str:
        from federation.error_texts import error_message

        return error_message(self.code, self.detail)
