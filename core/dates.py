"""The models' validators of the dates a person enters (docs/reliability.md, item 2): each
checks the plausible window of its kind (``core.rules.date_windows``), so forms, the admin
and the API check the same window as the pure bank statement reader.
"""

from __future__ import annotations

from datetime import date

from core.rules.date_windows import window


def _validate(kind: str, value: date) -> None:
    from django.core.exceptions import ValidationError
    from django.utils.formats import date_format
    from django.utils.translation import gettext as _

    earliest, latest = window(kind)
    if earliest <= value <= latest:
        return
    if value > latest and kind != "tournament":  # a birth or a payment still to come
        message = _("The date %(date)s is in the future.") % {"date": date_format(value)}
    else:
        message = _("Enter a date from %(earliest)s to %(latest)s.") % {
            "earliest": date_format(earliest), "latest": date_format(latest)}
    raise ValidationError(message, code="implausible_date",
                          params={"earliest": earliest.isoformat(), "latest": latest.isoformat()})


def validate_tournament_date(value: date) -> None:
    _validate("tournament", value)


def validate_birth_date(value: date) -> None:
    _validate("birth", value)


def validate_payment_date(value: date) -> None:
    _validate("payment", value)


def implausible_date_message(kind: str, value: date) -> str | None:
    """Why ``value`` is no plausible date of ``kind`` (a query's date too: the EMA ranking
    on 0001-01-01 cannot be computed), None when it is one."""
    from django.core.exceptions import ValidationError

    try:
        _validate(kind, value)
    except ValidationError as error:
        return str(error.messages[0])
    return None
