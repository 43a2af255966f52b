"""The plausible window of every date a person enters (docs/reliability.md, item 2): one
place for all of them, tournament dates, dates of birth, payment dates and the dates of
bank statement lines. The models' validators (``core.dates``) and the pure bank statement
reader (``federation.rules.bank_statement``) both read it."""

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
