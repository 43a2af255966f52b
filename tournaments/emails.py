"""Mails about a person's entry, in that person's language (the member's, else the
account's), sent once the transaction that caused them has committed (a refused mail waits in
the outbox, ``federation.outbox``): entry received, waiting, moved up, refused, payment
reminder, place released, reduced fee not granted, withdrawn (with the refund due). The receipt of a payment is
the federation's mail (``federation.emails.payment_received``)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from core.site_url import site_absolute_url
from federation import outbox
from federation import selectors as federation_selectors
from tournaments.models import Entry, Tournament


def _subjects() -> dict[str, str]:
    return {
        "received": _("Your entry: %(tournament)s"),
        "waiting": _("On the waiting list: %(tournament)s"),
        "moved_up": _("A place for you: %(tournament)s"),
        "refused": _("Your entry was refused: %(tournament)s"),
        "reminder": _("Entry fee not paid yet: %(tournament)s"),
        "released": _("Your place was released: %(tournament)s"),
        "full_fee": _("Your entry fee: %(tournament)s"),
        "withdrawn": _("Your entry is withdrawn: %(tournament)s"),
    }


def on_commit_send(kind: str, entry_pk: int) -> None:
    outbox.after_commit(lambda: entry_mail(kind, entry_pk))


def entry_mail(kind: str, entry_pk: int) -> None:
    entry = Entry.objects.select_related("tournament", "user", "member", "invoice").get(
        pk=entry_pk)
    user = entry.user
    to = (entry.member.email if entry.member and entry.member.email else "") or user.email
    if not to or not user.is_active:
        return
    language = (entry.member.language if entry.member else "") or user.language \
        or settings.LANGUAGE_CODE
    with translation.override(language):
        context = {
            "kind": kind,
            "entry": entry,
            "tournament": entry.tournament,
            "site_name": str(settings.WAGTAIL_SITE_NAME),
            "tournament_url": site_absolute_url(
                reverse("tournaments:detail", args=[entry.tournament_id])),
        }
        if entry.invoice_id and not entry.invoice.cancelled:
            context["invoice"] = entry.invoice
            context["balance"] = federation_selectors.invoice_balance(entry.invoice)
            context["pay_url"] = site_absolute_url(
                reverse("membership:invoice", args=[entry.invoice.number]))
        if kind in ("received", "waiting"):
            from tournaments.selectors import dues_unpaid_fee

            context["dues_unpaid"] = dues_unpaid_fee(user, entry.tournament, fee=entry.fee)
            context["membership_url"] = site_absolute_url(reverse("membership:me"))
        subject = _subjects()[kind] % {"tournament": entry.tournament.name}
        body = render_to_string("tournaments/email/entry.txt", context)
    outbox.deliver(EmailMessage(subject, body, None, [to]))


def on_commit_send_decision(tournament_pk: int) -> None:
    outbox.after_commit(lambda: decision_mail(tournament_pk))


def decision_mail(tournament_pk: int) -> None:
    """The accreditation officer's decision on a submitted tournament, to its organizer in
    the organizer's language: accredited, or rejected with the officer's reason."""
    tournament = Tournament.objects.select_related("organizer").get(pk=tournament_pk)
    organizer = tournament.organizer
    if not organizer.email or not organizer.is_active:
        return
    decision = tournament.decisions.order_by("-pk").first()
    with translation.override(organizer.language or settings.LANGUAGE_CODE):
        accredited = tournament.state == Tournament.State.ACCREDITED
        subject = (_("Accredited: %(tournament)s") if accredited
                   else _("Not accredited: %(tournament)s")) % {"tournament": tournament.name}
        body = render_to_string("tournaments/email/decision.txt", {
            "tournament": tournament, "accredited": accredited,
            "reason": decision.reason if decision else "",
            "site_name": str(settings.WAGTAIL_SITE_NAME),
            "manage_url": site_absolute_url(reverse("tournaments:manage", args=[tournament.pk])),
        })
    outbox.deliver(EmailMessage(" ".join(subject.split()), body, None, [organizer.email]))
