"""The plausible window of every date a person enters (docs/reliability.md, item 2).

One place for all of them: tournament dates, dates of birth, payment dates and the dates
of bank statement lines. :func:`window` is plain Python (the pure bank statement reader
uses it); the ``validate_*`` functions are the models' validators, so forms, the admin and
the API check the same window.
"""

from __future__ import annotations

from datetime import date, timedelta

# kind -> (earliest, days after today at the latest)
WINDOWS: dict[str, tuple[date, int]] = {
    "tournament": (date(1990, 1, 1), 3 * 366),  # planned up to three years ahead
    "birth": (date(1900, 1, 1), 0),
    "payment": (date(2000, 1, 1), 1),  # a bank's day may be ahead of the server's
}


def window(kind: str, today: date | None = None) -> tuple[date, date]:
    """(earliest, latest) plausible date of ``kind`` on ``today``."""
    earliest, ahead = WINDOWS[kind]
    return earliest, (today or date.today()) + timedelta(days=ahead)


def is_plausible(kind: str, value: date, today: date | None = None) -> bool:
    earliest, latest = window(kind, today)
    return earliest <= value <= latest


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
