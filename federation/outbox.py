"""Transactional mail that never fails the action that caused it (decision 0901).

Every transactional mail (allauth's sign-up and password mails, membership applications,
receipts, entries, accreditation decisions) is handed to ``deliver``, after the commit of
the transaction that caused it (``after_commit``). When the mail server refuses or cannot
be reached, the failure is logged and the whole message is kept in ``OutgoingMail``; the
person sees the success of what they did. ``send_queued`` (``manage.py send_queued_mail``,
run every few minutes, or the task queue's ``federation.send_queued_mail``) tries the waiting
mails again, waiting longer after each failure, and gives up after ``MAX_ATTEMPTS``. Each
mail is claimed before it is handed over (its next attempt moved ``CLAIM`` ahead, in a commit
of its own): two runs at once never send one twice, and a mail whose sender died is tried
again after ``CLAIM``, as the same message (its stored MIME, Message-ID included; decision
0907). Mailings to members have their own delivery rows
(``federation.services.mailings``) and are not queued here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core import mail
from django.core.mail import EmailMessage
from django.core.mail.message import make_msgid
from django.core.mail.utils import DNS_NAME
from django.db import transaction
from django.utils import timezone

from federation.models import OutgoingMail

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
FIRST_WAIT = timedelta(minutes=5)
LONGEST_WAIT = timedelta(hours=6)
KEEP_SENT = timedelta(days=30)
CLAIM = timedelta(minutes=10)  # longer than one mail can take (EMAIL_TIMEOUT and retries)


def after_commit(send: Callable[[], Any]) -> None:
    """Run ``send`` once the current transaction has committed (at once outside one). A
    mistake while the mail is written is logged, never raised into the request that has
    already saved its data."""
    transaction.on_commit(send, robust=True)


def wait_after(attempts: int) -> timedelta:
    """The wait before the next attempt after ``attempts`` failures: 5 min, 10, 20 ... 6 h."""
    return min(FIRST_WAIT * (2 ** max(attempts - 1, 0)), LONGEST_WAIT)


def _error_text(error: BaseException) -> str:
    return (f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)[:500]


def deliver(message: EmailMessage) -> bool:
    """Send ``message`` now; when the mail server fails, log it and queue the message.
    Returns whether it was sent. The message gets its Message-ID first, so that the copy
    queued is the same message as the attempt that failed (which a server may have taken
    before the connection broke; decision 0907)."""
    message.extra_headers.setdefault("Message-ID", make_msgid(domain=DNS_NAME))
    try:
        message.send()
    except Exception as error:  # whatever the backend raises: refused, timeout, TLS
        queued = OutgoingMail.objects.create(
            to=", ".join(message.recipients())[:1000],
            subject=str(message.subject)[:300],
            from_email=message.from_email or "",
            recipients=list(message.recipients()),
            message=message.message().as_bytes(linesep="\r\n"),
            last_error=_error_text(error),
            next_attempt_at=timezone.now() + wait_after(1),
        )
        logger.warning("Mail to %s not sent (%s); queued as %s for send_queued_mail",
                       queued.to, queued.last_error, queued.pk)
        return False
    return True


class _StoredMime:
    """The stored MIME message as the mail backends read it."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    def as_bytes(self, unixfrom: bool = False, linesep: str = "\r\n") -> bytes:
        return self.raw.replace(b"\r\n", linesep.encode())


class StoredMessage(EmailMessage):
    """A queued mail sent again exactly as it was written (its language, attachments)."""

    def __init__(self, row: OutgoingMail) -> None:
        super().__init__(row.subject, "", row.from_email, list(row.recipients))
        self.raw = bytes(row.message)

    def message(self, *args: Any, **kwargs: Any) -> Any:
        return _StoredMime(self.raw)


@dataclass
class QueueReport:
    sent: int = 0
    failed: int = 0
    given_up: int = 0


def send_queued(*, backend: str | None = None, now: Any = None) -> QueueReport:
    """Try every waiting mail whose time has come, oldest first, on one connection, each
    claimed before it is handed over."""
    return _send_due(backend, now or timezone.now())


def _claim(row: OutgoingMail, now: Any) -> bool:
    """Move the row's next attempt past the claim, if no other run did since it was read."""
    return bool(OutgoingMail.objects.filter(
        pk=row.pk, state=OutgoingMail.State.PENDING, next_attempt_at=row.next_attempt_at,
    ).update(next_attempt_at=now + CLAIM))


def _send_due(backend: str | None, now: Any) -> QueueReport:
    report = QueueReport()
    due = list(OutgoingMail.objects.filter(
        state=OutgoingMail.State.PENDING, next_attempt_at__lte=now).order_by("pk"))
    if not due:
        return report
    try:
        connection = mail.get_connection(backend)
        connection.open()
    except Exception as error:  # the server is still away: every due mail failed once more
        for row in due:
            _failed(row, error, now, report)
        return report
    try:
        for row in due:
            if not _claim(row, now):
                continue  # another run took it
            try:
                connection.send_messages([StoredMessage(row)])
            except Exception as error:
                _failed(row, error, now, report)
                continue
            OutgoingMail.objects.filter(pk=row.pk).update(
                state=OutgoingMail.State.SENT, sent_at=now, attempts=row.attempts + 1,
                next_attempt_at=None)
            report.sent += 1
    finally:
        try:
            connection.close()
        except Exception:  # a connection that broke while sending
            logger.debug("closing the mail connection failed", exc_info=True)
    OutgoingMail.objects.filter(state=OutgoingMail.State.SENT,
                                sent_at__lt=now - KEEP_SENT).delete()
    return report


def _failed(row: OutgoingMail, error: BaseException, now: Any, report: QueueReport) -> None:
    attempts = row.attempts + 1
    gave_up = attempts >= MAX_ATTEMPTS
    OutgoingMail.objects.filter(pk=row.pk).update(
        attempts=attempts, last_error=_error_text(error),
        state=OutgoingMail.State.FAILED if gave_up else OutgoingMail.State.PENDING,
        next_attempt_at=None if gave_up else now + wait_after(attempts))
    if gave_up:
        report.given_up += 1
        logger.error("Mail %s to %s given up after %s attempts: %s", row.pk, row.to,
                     attempts, _error_text(error))
    else:
        report.failed += 1
