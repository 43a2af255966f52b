"""Mail to members: mailings written and sent by editors, the members' choices of mail and
their unsubscriptions, announcements sent once per key, and delivery in batches (decision
0315). Each recipient has a delivery row, claimed (committed) before its mail is handed to
the mail backend and marked sent right after, so a sending stopped half-way resumes with
exactly the recipients not yet served; a claim left by a sender that died is taken again
after ``MAILING_CLAIM_SECONDS`` and its mail sent again with the same Message-ID
(decision 0907)."""

from __future__ import annotations

import smtplib
import socket
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.site_url import site_base_url
from federation import emails, mailing_audiences, unsubscribe_tokens
from federation.errors import (
    E_COUNTRY_REQUIRED,
    E_MAILING_AUDIENCE_INCOMPLETE,
    E_MAILING_NO_DEFAULT_TEXT,
    E_MAILING_NO_RECIPIENTS,
    E_MAILING_NOT_DRAFT,
    E_NO_EMAIL,
    MembershipError,
)
from federation.models import (
    Club,
    ConsentEvent,
    MailConsent,
    Mailing,
    MailingDelivery,
    MailingTranslation,
    MailKind,
    Member,
)
from federation.outbox import wait_after
from federation.services._common import audit

# {language: (subject, body)}
Texts = Mapping[str, tuple[str, str]]


def _texts_save(mailing: Mailing, texts: Texts) -> None:
    languages = {code for code, _name in settings.LANGUAGES}
    keep = []
    for language, (subject, body) in texts.items():
        subject, body = (subject or "").strip(), (body or "").strip()
        if language not in languages or not (subject or body):
            continue
        MailingTranslation.objects.update_or_create(
            mailing=mailing, language=language, defaults={"subject": subject, "body": body}
        )
        keep.append(language)
    mailing.translations.exclude(language__in=keep).delete()


def _check_audience(audience: str, club: Club | None, tournament_id: int | None) -> None:
    if audience == Mailing.Audience.CLUB and club is None:
        raise MembershipError(E_MAILING_AUDIENCE_INCOMPLETE, "club")
    if audience == Mailing.Audience.TOURNAMENT and tournament_id is None:
        raise MembershipError(E_MAILING_AUDIENCE_INCOMPLETE, "tournament")


@transaction.atomic
def mailing_create(
    *,
    user: Any,
    kind: str,
    audience: str,
    texts: Texts,
    club: Club | None = None,
    tournament_id: int | None = None,
) -> Mailing:
    """A draft mailing; texts per language (the default language's may come later)."""
    _check_audience(audience, club, tournament_id)
    mailing = Mailing.objects.create(
        kind=kind, audience=audience, club=club if audience == Mailing.Audience.CLUB else None,
        tournament_id=tournament_id if audience == Mailing.Audience.TOURNAMENT else None,
        created_by=user,
    )
    _texts_save(mailing, texts)
    audit(mailing, "federation.mailing.create", user)
    return mailing


@transaction.atomic
def mailing_update(
    *,
    mailing: Mailing,
    user: Any,
    kind: str,
    audience: str,
    texts: Texts,
    club: Club | None = None,
    tournament_id: int | None = None,
) -> Mailing:
    mailing = Mailing.objects.select_for_update().get(pk=mailing.pk)
    if mailing.state != Mailing.State.DRAFT:
        raise MembershipError(E_MAILING_NOT_DRAFT)
    _check_audience(audience, club, tournament_id)
    mailing.kind, mailing.audience = kind, audience
    mailing.club = club if audience == Mailing.Audience.CLUB else None
    mailing.tournament_id = tournament_id if audience == Mailing.Audience.TOURNAMENT else None
    mailing.save(update_fields=["kind", "audience", "club", "tournament_id"])
    _texts_save(mailing, texts)
    audit(mailing, "federation.mailing.change", user)
    return mailing


def mailing_test_send(*, mailing: Mailing, user: Any, language: str) -> str:
    """The mailing in one language to the editor's own address (marked as a test)."""
    if not getattr(user, "email", ""):
        raise MembershipError(E_NO_EMAIL)
    emails.mailing_message(mailing, None, language, user.email).send()
    return user.email


def _deliveries_create(mailing: Mailing, members: list[Member]) -> int:
    rows = [
        MailingDelivery(
            mailing=mailing, member=m, email=mailing_audiences.member_address(m), language=m.language
        )
        for m in members
    ]
    MailingDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def _guest_deliveries_create(mailing: Mailing, guests: list[Any]) -> int:
    rows = [MailingDelivery(mailing=mailing, guest=user, email=user.email,
                            language=user.language or settings.LANGUAGE_CODE)
            for user in guests]
    MailingDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


@transaction.atomic
def mailing_send(*, mailing: Mailing, user: Any) -> int:
    """Put the mailing in the queue: one delivery row for each recipient it reaches now.
    The mails go out in batches (``manage.py send_mailings``). Returns the recipients."""
    mailing = Mailing.objects.select_for_update().get(pk=mailing.pk)
    if mailing.state != Mailing.State.DRAFT:
        raise MembershipError(E_MAILING_NOT_DRAFT)
    default = mailing.translations.filter(language=settings.LANGUAGE_CODE).first()
    if default is None or not default.subject or not default.body:
        language_names = dict(settings.LANGUAGES)
        raise MembershipError(E_MAILING_NO_DEFAULT_TEXT,
                              language_names.get(settings.LANGUAGE_CODE))
    recipients = mailing_audiences.mailing_recipients(mailing)
    guests = mailing_audiences.mailing_guests(mailing)
    if not recipients and not guests:
        raise MembershipError(E_MAILING_NO_RECIPIENTS)
    count = _deliveries_create(mailing, recipients) + _guest_deliveries_create(mailing, guests)
    mailing.state, mailing.queued_by, mailing.queued_at = (
        Mailing.State.SENDING, user, timezone.now())
    mailing.save(update_fields=["state", "queued_by", "queued_at"])
    audit(mailing, "federation.mailing.send", user, {"recipients": count})
    return count


@transaction.atomic
def mailing_retry_failed(*, mailing: Mailing, user: Any) -> int:
    """Put the failed deliveries back in the queue (after the cause was fixed)."""
    mailing = Mailing.objects.select_for_update().get(pk=mailing.pk)
    count = mailing.deliveries.filter(state=MailingDelivery.State.FAILED).update(
        state=MailingDelivery.State.PENDING, error="")
    if count:
        mailing.state, mailing.finished_at = Mailing.State.SENDING, None
        mailing.save(update_fields=["state", "finished_at"])
        audit(mailing, "federation.mailing.retry", user, {"deliveries": count})
    return count


@transaction.atomic
def announcement_send(*, key: str, country: str, texts: Texts) -> Mailing | None:
    """An announcement to the members who follow a country's tournaments, sent once per key
    (a second call with the same key does nothing). Queued at once, delivered in batches."""
    if Mailing.objects.filter(key=key).exists():
        return None
    mailing = Mailing.objects.create(
        key=key, kind=MailKind.TOURNAMENTS, audience=Mailing.Audience.FOLLOWERS,
        country=country.upper(), state=Mailing.State.SENDING, queued_at=timezone.now(),
    )
    _texts_save(mailing, texts)
    recipients = mailing_audiences.mailing_recipients(mailing)
    _deliveries_create(mailing, recipients)
    if not recipients:
        mailing.state, mailing.finished_at = Mailing.State.SENT, timezone.now()
        mailing.save(update_fields=["state", "finished_at"])
    return mailing


# --- delivery ---------------------------------------------------------------------------


@dataclass
class DeliveryReport:
    sent: int = 0
    failed: int = 0
    batches: int = 0
    more: bool = False  # deliveries were still waiting when the run stopped
    # the mail server went away: the rest waits, the next run tries after this many seconds
    retry_after: int | None = None


# the mail server went away (issue 37, item 17): no run sends before the wait is over; the
# count of failed connections in a row makes each wait longer (federation.outbox.wait_after)
SERVER_AWAY = "federation:mailings-server-away"
SERVER_FAILURES = "federation:mailings-server-failures"
# a delivery whose sending lost the connection this many times is marked failed (a message
# that itself breaks the server must not stop the mailing for ever)
MAX_CONNECTION_ATTEMPTS = 5


class ServerAway(Exception):
    """The mail server cannot be reached or dropped the connection: the batch stops."""


def _server_away(error: BaseException) -> bool:
    """The connection is gone (nothing is wrong with this recipient): the server is down,
    dropped the connection, or says it is closing (421)."""
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code == 421
    return isinstance(error, (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError,
                              ConnectionError, TimeoutError, socket.gaierror)) or (
        isinstance(error, OSError) and not isinstance(error, smtplib.SMTPException))


def _server_wait() -> int:
    """Note one more failed connection in a row; the seconds to wait before the next run."""
    failures = (cache.get(SERVER_FAILURES) or 0) + 1
    wait = int(wait_after(failures).total_seconds())
    cache.set(SERVER_FAILURES, failures, wait + 24 * 3600)
    cache.set(SERVER_AWAY, time.time() + wait, wait)
    return wait


def delivery_message_id(delivery: MailingDelivery) -> str:
    """The Message-ID of one delivery, the same every time it is sent: a mail sent again
    after its sender died is the same message to the receiving systems (decision 0907)."""
    host = urlsplit(site_base_url()).hostname or "localhost"
    return f"<mailing-{delivery.mailing_id}.delivery-{delivery.pk}@{host}>"


def _claimable(now: datetime) -> Q:
    """Waiting deliveries, and those claimed by a sender that died (its claim is stale)."""
    stale = now - timedelta(seconds=settings.MAILING_CLAIM_SECONDS)
    return Q(state=MailingDelivery.State.PENDING) | Q(
        state=MailingDelivery.State.SENDING, claimed_at__lt=stale)


def _finish_done_mailings() -> None:
    done = Mailing.objects.filter(state=Mailing.State.SENDING).exclude(
        deliveries__state__in=[MailingDelivery.State.PENDING, MailingDelivery.State.SENDING])
    done.update(state=Mailing.State.SENT, finished_at=timezone.now())


def deliveries_waiting() -> bool:
    """Whether some delivery of a mailing being sent is waiting to be claimed now."""
    return MailingDelivery.objects.filter(
        _claimable(timezone.now()), mailing__state=Mailing.State.SENDING).exists()


def mailings_deliver(
    *, batch_size: int = 100, max_batches: int | None = None, backend: str | None = None
) -> DeliveryReport:
    """Send the waiting deliveries of every mailing, oldest first, a batch per connection,
    until none waits (or after ``max_batches``).

    Each row is claimed in its own commit before its message is handed over, and marked sent
    (or failed, with the backend's error) in another right after: whatever stops the run (a
    crash, a deploy), the next run starts with the rows still waiting, and two runs at once
    never send one row twice. ``backend``: another mail backend than the site's (the demo's
    sends nothing)."""
    report = DeliveryReport()
    away_until = cache.get(SERVER_AWAY)
    if away_until is not None and away_until > time.time():  # the wait after a failure
        report.retry_after = int(away_until - time.time()) + 1
        return report  # ``more`` stays False: the schedule comes back, not a busy loop
    while max_batches is None or report.batches < max_batches:
        if not _deliver_batch(batch_size, backend, report):
            break
    _finish_done_mailings()
    report.more = report.retry_after is None and deliveries_waiting()
    return report


def mailings_deliver_batch(*, batch_size: int = 100, backend: str | None = None
                           ) -> DeliveryReport:
    """One batch (the task queue's unit of work, ``federation.tasks``): ``more`` says
    whether another batch should follow."""
    return mailings_deliver(batch_size=batch_size, max_batches=1, backend=backend)


def _deliver_batch(batch_size: int, backend: str | None, report: DeliveryReport) -> bool:
    batch = list(
        MailingDelivery.objects.filter(
            _claimable(timezone.now()), mailing__state=Mailing.State.SENDING
        )
        .select_related("mailing", "member__user")
        .prefetch_related("mailing__translations")
        .order_by("pk")[:batch_size]
    )
    if not batch:
        return False
    report.batches += 1
    try:
        with mail.get_connection(backend) as connection:
            for delivery in batch:
                _deliver_one(delivery, connection, report)
    except ServerAway:  # the rest stays waiting for a later run, after a wait
        report.retry_after = _server_wait()
        return False
    except Exception as error:  # opening or closing the connection failed
        if not _server_away(error):
            raise
        report.retry_after = _server_wait()
        return False
    cache.delete(SERVER_FAILURES)
    _finish_done_mailings()
    return True


def _claim(delivery: MailingDelivery) -> bool:
    """Take the delivery for this sender, in a commit of its own (autocommit): another
    sender that read the same row finds it claimed and leaves it."""
    now = timezone.now()
    return bool(
        MailingDelivery.objects.filter(_claimable(now), pk=delivery.pk).update(
            state=MailingDelivery.State.SENDING, claimed_at=now)
    )


def _deliver_one(delivery: MailingDelivery, connection: Any, report: DeliveryReport) -> None:
    if not _claim(delivery):
        return
    member = delivery.member
    if (member is not None and member.anonymised_at is not None) or (
            member is None and delivery.guest_id is None):
        MailingDelivery.objects.filter(pk=delivery.pk).update(
            state=MailingDelivery.State.FAILED, error="erased", attempts=delivery.attempts + 1)
        report.failed += 1
        return
    message = emails.mailing_message(delivery.mailing, member, delivery.language, delivery.email,
                                     guest=member is None)
    message.extra_headers["Message-ID"] = delivery_message_id(delivery)
    message.connection = connection
    try:
        message.send()
    except Exception as error:
        text = str(error)[:500] or type(error).__name__
        if _server_away(error) and delivery.attempts + 1 < MAX_CONNECTION_ATTEMPTS:
            # not this recipient's fault: it waits again (its claim given back), and so
            # does the rest of the batch
            MailingDelivery.objects.filter(pk=delivery.pk).update(
                state=MailingDelivery.State.PENDING, claimed_at=None, error=text,
                attempts=delivery.attempts + 1)
            raise ServerAway from error
        # the server refused this recipient: kept for the editor to see
        MailingDelivery.objects.filter(pk=delivery.pk).update(
            state=MailingDelivery.State.FAILED, error=text, attempts=delivery.attempts + 1)
        report.failed += 1
        return
    MailingDelivery.objects.filter(pk=delivery.pk).update(
        state=MailingDelivery.State.SENT, sent_at=timezone.now(), error="",
        attempts=delivery.attempts + 1)
    report.sent += 1


# --- the members' choices ------------------------------------------------------------------


@transaction.atomic
def mail_consent_set(
    *,
    member: Member,
    kind: str,
    granted: bool,
    source: str,
    country: str = "",
    mailing: Mailing | None = None,
) -> bool:
    """Record a member's choice for one kind of mail (with its date and source). Returns
    whether anything changed; an unchanged choice writes no event."""
    country = (country or "").strip().upper()
    if kind == MailKind.TOURNAMENTS and granted and not country:
        raise MembershipError(E_COUNTRY_REQUIRED)
    current = MailConsent.objects.select_for_update().filter(member=member, kind=kind).first()
    if current is not None and current.granted == granted and (
        not granted or current.country == country
    ):
        return False
    if current is None:  # the first choice, even one equal to the default, is recorded
        current = MailConsent(member=member, kind=kind)
    current.granted = granted
    if granted or not current.country:
        current.country = country
    current.save()
    ConsentEvent.objects.create(member=member, kind=kind, granted=granted,
                                country=current.country if granted else "", source=source,
                                mailing=mailing)
    return True


def mail_unsubscribe(*, token: str) -> tuple[Member, str] | None:
    """The one-click unsubscribe: the kind of mail of the token is turned off."""
    found = unsubscribe_tokens.unsubscribe_token_read(token)
    if found is None:
        return None
    member, kind, mailing_id = found
    mailing = Mailing.objects.filter(pk=mailing_id).first() if mailing_id else None
    mail_consent_set(member=member, kind=kind, granted=False,
                     source=ConsentEvent.Source.UNSUBSCRIBE, mailing=mailing)
    return member, kind
