"""What membership's error codes say to people: the one map from error codes (services, bank
import) to translated messages. Pure modules and services return codes; views, forms, emails
and the admin look the words up here. (The labels of a member's status and an invoice's
state are in ``federation.status_labels``.)"""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from federation.rules import bank_statement

# Error codes of federation.services (E_*) and federation.rules.bank_statement.
ERROR_MESSAGES: dict[str, Promise] = {
    "already_applied": _("You have already applied."),
    "not_pending": _("This application is no longer pending."),
    "not_approved": _("The member is not an approved member."),
    "no_fee": _("No fee is set for this membership type and year."),
    "free_type": _("This membership type pays no dues."),
    "covered_by_family": _("This member is covered by the family head's invoice."),
    "invoice_exists": _("This member already has an invoice for this year."),
    "joined_after_year": _("The member joined after this membership year ended."),
    "duplicate_transaction": _("This transaction (%(detail)s) is already recorded."),
    "amount_not_positive": _("The amount must be positive."),
    "invoice_cancelled": _("The invoice is cancelled: no payment can be recorded against it."),
    "already_erased": _("This member's data has already been erased."),
    "bad_file": _("The file has errors; nothing was imported."),
    "payment_in_future": _("The payment date %(detail)s is in the future."),
    "overpayment": _(
        "This payment would bring the amount paid to %(detail)s, more than the invoice: tick "
        "the confirmation to record it anyway."
    ),
    "possible_duplicate": _(
        "A payment of the same amount on the same day is already recorded for this invoice "
        "(receipt %(detail)s): tick the confirmation if this is really a second payment."
    ),
    "invoice_has_payments": _(
        "The invoice has payments (%(detail)s): reverse them first, then cancel the invoice."
    ),
    "already_cancelled": _("The invoice is already cancelled."),
    "already_reversed": _("This payment has already been reversed."),
    "reason_required": _("Give the reason for the reversal."),
    "years_overlap": _("The period overlaps membership year %(detail)s."),
    "online_unavailable": _("Online payment is not available for this invoice."),
    "refund_unavailable": _(
        "The payment service did not refund this payment: nothing has changed. Try again "
        "later, or refund it from the payment service's own dashboard."
    ),
    "mailing_not_draft": _("This mailing has already been sent; it can no longer be changed."),
    "mailing_no_default_text": _(
        "Write the subject and the text in %(detail)s, the language of members without a "
        "translation."
    ),
    "mailing_no_recipients": _("Nobody would receive this mailing."),
    "mailing_audience_incomplete": _("Choose the club or the tournament of the audience."),
    "no_email": _("Your account has no email address to send the test to."),
    "country_required": _("Choose the country whose tournaments you follow."),
    bank_statement.E_EMPTY: _("The file is empty."),
    bank_statement.E_NOT_TEXT: _("The file is not UTF-8 text."),
    bank_statement.E_MISSING_COLUMNS: _("Missing columns: %(detail)s."),
    bank_statement.E_BAD_DATE: _("Invalid date “%(detail)s” (use YYYY-MM-DD)."),
    bank_statement.E_BAD_AMOUNT: _("Invalid amount “%(detail)s”."),
    bank_statement.E_NOT_POSITIVE: _("The amount “%(detail)s” is not positive."),
    bank_statement.E_MISSING_TRANSACTION_ID: _("The transaction id is missing."),
    bank_statement.E_DUPLICATE_IN_FILE: _("Transaction %(detail)s appears twice."),
    bank_statement.E_WRONG_COLUMN_COUNT: _("Wrong number of columns (%(detail)s) for the header."),
    bank_statement.E_NUL_BYTE: _("The file contains a NUL character; it is not a text file."),
    bank_statement.E_AMOUNT_TOO_LARGE: _("The amount is larger than %(detail)s."),
    bank_statement.E_TOO_LONG: ngettext_lazy("A value is too long (%(detail)s character at most).",
                                          "A value is too long (%(detail)s characters at most).",
                                          "detail"),
    bank_statement.E_1C_NOT_CLOSED: _("This document of the 1C statement has no "
                                      "“КонецДокумента” line."),
    bank_statement.E_1C_MISSING_FIELD: _("This document of the 1C statement has no "
                                         "“%(detail)s”."),
    bank_statement.E_1C_BAD_LINE: _("“%(detail)s” outside a document of the 1C statement."),
    bank_statement.E_IMPLAUSIBLE_DATE: _("The date is not plausible (%(detail)s)."),
    bank_statement.E_TOO_MANY_LINES: ngettext_lazy("A statement has at most %(detail)s line.",
                                                "A statement has at most %(detail)s lines.",
                                                "detail"),
}


def error_message(code: str, detail: Any = None) -> str:
    """The translated message for an error code (the code itself if it is unknown)."""
    message = ERROR_MESSAGES.get(code)
    if message is None:
        return code
    text = str(message)
    if not text:  # a message with plural forms: its number is the detail's (last) number
        number = re.search(r"(\d+)\s*$", "" if detail is None else str(detail))
        return str(message % {"detail": int(number.group(1)) if number else 0})
    if "%(detail)s" in text:
        return text % {"detail": "" if detail is None else detail}
    return text


# A members import (federation.services.member_import): its own codes and notes; the
# shared ones (reading the file, mapping, common cells) are core.imports.issue_message's.
IMPORT_MESSAGES: dict[str, Promise] = {
    "number_twice": _("The same member number as row %(other)s."),
    "email_twice": _("The same e-mail address as row %(other)s."),
    "number_email_conflict": _(
        "Member number %(number)s and the e-mail address “%(value)s” belong to two "
        "different members."
    ),
    "number_erased": _(
        "Member number %(number)s belonged to a member whose data was erased: a number is "
        "never given again."
    ),
    "unknown_year": _("There is no membership year %(year)s: add it (with its fees) first."),
    "no_fee_for_year": _("Membership year %(year)s has no fee for this membership type."),
    "no_regular_type": _("Add the membership type “Regular” first: new members get it."),
    "bad_years": _("“%(value)s” is not a list of years (write 2024, 2025 or 2023-2025)."),
    "same_name": _("A member of the same name exists: the same person, or a new member?"),
    "club_created": _("New club “%(club)s”."),
    "years_paid": _("Paid dues recorded for %(years)s."),
    "free_type_no_dues": _("This member's membership type pays no dues: paid years ignored."),
}


def import_message(code: str, params: dict[str, Any]) -> str:
    """The words of a members import's code (its own, else the shared ones)."""
    from core.imports import issue_message

    message = IMPORT_MESSAGES.get(code)
    if message is None:
        return issue_message(code, params)
    try:
        return str(message) % params
    except (KeyError, TypeError, ValueError):
        return str(message)
