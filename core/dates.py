"""The models' validators of the dates a person enters (docs/reliability.md, item 2): each
checks the plausible window of its kind (``core.rules.date_windows``), so forms, the admin
and the API check the same window as the pure bank statement reader. And how the site writes
a date in words in the page's language (``date_display``).
"""

from __future__ import annotations

from datetime import date, datetime

from core.rules.date_windows import window


def _validate(kind: str, value: date) -> None:
    from django.core.exceptions import ValidationError
    from django.utils.translation import gettext as _

    earliest, latest = window(kind)
    if earliest <= value <= latest:
        return
    if value > latest and kind != "tournament":  # a birth or a payment still to come
        message = _("The date %(date)s is in the future.") % {"date": date_display(value)}
    else:
        message = _("Enter a date from %(earliest)s to %(latest)s.") % {
            "earliest": date_display(earliest), "latest": date_display(latest)}
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


def date_display(value: date | datetime, date_format: str | None = None,
                 use_l10n: bool | None = None) -> str:
    """``value`` in the current language's ``date_format`` (a format setting's name such as
    ``"DATE_FORMAT"``, or a format string), as Django's ``date_format`` writes it, with the
    language's own way of writing the first day of a month (French « 1er août 2026 »,
    ``core.rules.typography.first_of_month_format``). Every date the site shows in words
    goes through here: the ``date`` template filter (``core.templatetags.dates``), the PDFs,
    the mails and the messages built in Python."""
    from django.utils import dateformat
    from django.utils.formats import get_format
    from django.utils.translation import get_language

    from core.rules.typography import first_of_month_format

    pattern = get_format(date_format or "DATE_FORMAT", use_l10n=use_l10n)
    if getattr(value, "day", None) == 1:
        pattern = first_of_month_format(pattern, get_language())
    return dateformat.format(value, pattern)
