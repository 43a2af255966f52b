"""Emails to members, each written in the member's own language (Member.language) with
translation.override, and sent once the transaction that caused them has committed; a mail the server refuses
waits in the outbox (``federation.outbox``)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import date
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from core.site_url import site_absolute_url
from federation import outbox
from federation.models import DuesInvoice, Member, Payment

logger = logging.getLogger(__name__)



_LINE_BREAKS_AND_SPACES = re.compile(r"[ \t\n\r\f\v\x85\u2028\u2029]+")


def one_line(text: str) -> str:
    """A subject on one line, its runs of spaces and line breaks made one space; a no-break
    space (French « Fédération : … ») is kept (issue 41)."""
    return _LINE_BREAKS_AND_SPACES.sub(" ", text).strip()


def on_commit_send(send: Callable[..., None], *args: Any) -> None:
    outbox.after_commit(lambda: send(*args))


def site_name() -> str:
    return str(settings.WAGTAIL_SITE_NAME)


def absolute(path: str) -> str:
    return site_absolute_url(path)


def _recipient(member: Member) -> str:
    return member.email or (member.user.email if member.user else "")


def _invoice_context(invoice: DuesInvoice | None) -> dict[str, Any]:
    if invoice is None:
        return {}
    from federation import selectors
    from federation.payment_providers import rouble_account, rouble_purpose

    rouble = invoice.currency == "RUB"
    return {
        "invoice": invoice,
        "balance": selectors.invoice_balance(invoice),
        "bank": settings.MEMBERSHIP_BANK_ACCOUNT,
        "bank_rub": rouble_account() if rouble else None,
        "rouble_purpose": rouble_purpose(invoice) if rouble else "",
    }


def _send(
    member: Member,
    template: str,
    context: dict[str, Any],
    attachments: Callable[[], list[tuple[str, bytes, str]]] | None = None,
) -> None:
    to = _recipient(member)
    if not to or member.anonymised_at:
        return
    with translation.override(member.language):
        context = {
            "member": member,
            "name": member.name_native or member.name_latin,
            "site_name": site_name(),
            "me_url": absolute(reverse("membership:me")),
            **context,
        }
        if context.get("invoice") is not None:  # the link in the member's language
            number = context["invoice"].number
            context["pay_url"] = absolute(reverse("membership:invoice", args=[number]))
        subject = one_line(render_to_string(f"federation/email/{template}_subject.txt", context))
        body = render_to_string(f"federation/email/{template}.txt", context)
        message = EmailMessage(subject, body, None, [to])
        for name, content, mimetype in attachments() if attachments else []:
            message.attach(name, content, mimetype)
    outbox.deliver(message)


def application_received(member_pk: int) -> None:
    member = Member.objects.select_related("user").get(pk=member_pk)
    _send(member, "application_received", {})


def application_rejected(member_pk: int) -> None:
    member = Member.objects.select_related("user").get(pk=member_pk)
    _send(member, "application_rejected", {"reason": member.rejection_reason})


def application_approved(member_pk: int, invoice_pk: int | None) -> None:
    member = Member.objects.select_related("user").get(pk=member_pk)
    invoice = DuesInvoice.objects.filter(pk=invoice_pk).select_related("membership_year").first()
    _send(member, "application_approved", _invoice_context(invoice))


def payment_received(payment_pk: int) -> None:
    """The receipt (PDF, in the member's language) for a payment just recorded."""
    from federation.receipt_pdf import receipt_pdf

    payment = Payment.objects.select_related(
        "invoice__membership_year", "invoice__member__user", "invoice__user"
    ).get(pk=payment_pk)
    member = payment.invoice.member

    def attachments() -> list[tuple[str, bytes, str]]:
        name = f"receipt-{payment.receipt_number}.pdf"
        return [(name, receipt_pdf(payment), "application/pdf")]

    context = {"payment": payment, **_invoice_context(payment.invoice)}
    if member is None:  # not dues: the account billed
        _send_to_account(payment.invoice.user, "payment_received", context, attachments)
        return
    _send(member, "payment_received", context, attachments)


def send_waiting_receipts(*, limit: int | None = None) -> int:
    """Mail the receipts a bank statement's import left waiting, oldest first; returns how
    many went out (to the mail server, or to the outbox's retries when it refused). Each is
    claimed by one update, so two runs at once never mail one twice; a receipt that could
    not be written is logged and waits for the next run."""
    # a payment reversed before its receipt went out gets none
    Payment.objects.filter(receipt_waiting=True, reversed_at__isnull=False).update(
        receipt_waiting=False)
    waiting = Payment.objects.filter(receipt_waiting=True).order_by("pk")
    ids = list(waiting.values_list("pk", flat=True)[:limit] if limit else
               waiting.values_list("pk", flat=True))
    sent = 0
    for pk in ids:
        if not Payment.objects.filter(pk=pk, receipt_waiting=True).update(receipt_waiting=False):
            continue  # another run took it
        try:
            payment_received(pk)
        except Exception:
            logger.exception("Receipt of payment %s not written; it waits for the next run", pk)
            Payment.objects.filter(pk=pk).update(receipt_waiting=True)
            continue
        sent += 1
    return sent


def _send_to_account(
    user: Any,
    template: str,
    context: dict[str, Any],
    attachments: Callable[[], list[tuple[str, bytes, str]]] | None = None,
) -> None:
    """A mail about an invoice that is not dues, to the account billed, in its language."""
    if user is None or not user.email or not user.is_active:
        return
    with translation.override(user.language or settings.LANGUAGE_CODE):
        context = {
            "name": context.get("invoice").billed_name if context.get("invoice") else str(user),
            "site_name": site_name(),
            "me_url": absolute(reverse("membership:me")),
            **context,
        }
        if context.get("invoice") is not None:
            number = context["invoice"].number
            context["pay_url"] = absolute(reverse("membership:invoice", args=[number]))
        subject = one_line(render_to_string(f"federation/email/{template}_subject.txt", context))
        body = render_to_string(f"federation/email/{template}.txt", context)
        message = EmailMessage(subject, body, None, [user.email])
        for name, content, mimetype in attachments() if attachments else []:
            message.attach(name, content, mimetype)
    outbox.deliver(message)


def dues_reminder(
    member_pk: int, stage: str, invoice_pk: int | None, covered_until: date | None = None
) -> None:
    member = Member.objects.select_related("user").get(pk=member_pk)
    invoice = DuesInvoice.objects.filter(pk=invoice_pk).select_related("membership_year").first()
    _send(
        member,
        "reminder",
        {"stage": stage, "covered_until": covered_until, **_invoice_context(invoice)},
    )


def mailing_message(
    mailing: Any, member: Member | None, language: str, to: str, *, preview: bool = False,
    guest: bool = False,
) -> EmailMessage:
    """One member's copy of a mailing: their language's text (else the default language's),
    why they receive it, and a one-click unsubscribe (RFC 8058: List-Unsubscribe with an
    HTTPS link that accepts a POST, and List-Unsubscribe-Post). Without a member (the
    editor's test) the reason says it is a test and there is no unsubscribe header; the
    editor's preview shows the reason and where the member's own link goes. A ``guest`` (an
    account without membership that the audience holds: a tournament's paying guest) reads
    why they receive it and has no member's choices to unsubscribe from (decision 0728)."""
    from federation import mailing_audiences, unsubscribe_tokens

    with translation.override(language):
        text = mailing.translation_for(language)
        headers: dict[str, str] = {}
        unsubscribe_url = ""
        if member is not None:
            token = unsubscribe_tokens.unsubscribe_token(member, mailing.kind, mailing.pk)
            unsubscribe_url = absolute(reverse("membership:unsubscribe", args=[token]))
            headers = {
                "List-Unsubscribe": f"<{unsubscribe_url}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            }
        if preview:
            unsubscribe_url = absolute(reverse("membership:unsubscribe", args=["x"]))[:-2] + "…/"
        context = {
            "body": text.body if text else "",
            "reason": (mailing_audiences.audience_description(mailing)
                       if member or preview or guest else ""),
            "test": member is None and not preview and not guest,
            "guest": guest,
            "unsubscribe_url": unsubscribe_url,
            "preferences_url": absolute(reverse("membership:mail_preferences")),
            "site_name": site_name(),
        }
        subject = text.subject if text else ""
        if member is None and not preview and not guest:
            subject = str(translation.gettext("[Test] %(subject)s") % {"subject": subject})
        body = render_to_string("federation/email/mailing.txt", context)
    return EmailMessage(one_line(subject), body, None, [to], headers=headers)
