"""Member writes: apply, approve, reject, contact data, club changes, erasure."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation import emails, selectors
from federation.errors import (
    E_ALREADY_APPLIED,
    E_ALREADY_ERASED,
    E_NOT_PENDING,
    E_REASON_REQUIRED,
    MembershipError,
)
from federation.models import Club, ClubMembership, Member, MembershipType
from federation.services._common import (
    audit,
    next_number,
)
from federation.services.coverage import members_changed_later

CONTACT_FIELDS = ("email", "phone", "address", "city", "country", "language", "public_consent")


@transaction.atomic
def member_apply(
    *,
    user: Any,
    name_native: str,
    name_latin: str,
    membership_type: MembershipType,
    date_of_birth: date | None = None,
    country: str = "",
    city: str = "",
    club: Club | None = None,
    email: str = "",
    phone: str = "",
    address: str = "",
    language: str | None = None,
    public_consent: bool = False,
    today: date | None = None,
) -> Member:
    if Member.objects.filter(user=user).exists():
        raise MembershipError(E_ALREADY_APPLIED)
    member = Member.objects.create(
        user=user,
        name_native=name_native,
        name_latin=name_latin,
        membership_type=membership_type,
        date_of_birth=date_of_birth,
        country=country,
        city=city,
        club=club,
        email=email or user.email,
        phone=phone,
        address=address,
        language=language or user.language,
        public_consent=public_consent,
    )
    audit(member, "federation.member.apply", user)
    if settings.MEMBERSHIP_AUTO_APPROVE:
        return member_approve(member=member, approved_by=None, today=today)
    emails.on_commit_send(emails.application_received, member.pk)
    return member


@transaction.atomic
def member_approve(*, member: Member, approved_by: Any, today: date | None = None) -> Member:
    """Assign the membership number, open the club history, issue this year's invoice."""
    today = today or selectors.today()
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.application != Member.Application.PENDING:
        raise MembershipError(E_NOT_PENDING)
    member.membership_number = next_number("member")
    member.application = Member.Application.APPROVED
    member.joined_on = member.joined_on or today
    member.save(update_fields=["membership_number", "application", "joined_on"])
    if member.club_id:
        ClubMembership.objects.create(member=member, club_id=member.club_id, started_on=today)
    audit(
        member,
        "federation.member.approve",
        approved_by,
        {"membership_number": member.membership_number, "auto": approved_by is None},
    )
    year = selectors.membership_year_for(today)
    invoice = None
    if year and not member.membership_type.is_free and not member.family_head_id:
        from federation.services.invoices import dues_invoice_issue

        invoice = dues_invoice_issue(
            member=member, membership_year=year, issued_by=approved_by, today=today
        )
    members_changed_later([member.pk])
    emails.on_commit_send(emails.application_approved, member.pk, invoice.pk if invoice else None)
    return member


@transaction.atomic
def member_reject(*, member: Member, rejected_by: Any, reason: str) -> Member:
    """Reject a pending application with a reason, which the applicant is told by mail in
    their language once the transaction has committed."""
    reason = (reason or "").strip()
    if not reason:
        raise MembershipError(E_REASON_REQUIRED)
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.application != Member.Application.PENDING:
        raise MembershipError(E_NOT_PENDING)
    member.application = Member.Application.REJECTED
    member.rejection_reason = reason
    member.save(update_fields=["application", "rejection_reason"])
    audit(member, "federation.member.reject", rejected_by)
    emails.on_commit_send(emails.application_rejected, member.pk)
    return member


@transaction.atomic
def member_update_contact(*, member: Member, changed_by: Any, **values: Any) -> Member:
    unknown = set(values) - set(CONTACT_FIELDS)
    if unknown:
        raise TypeError(f"not contact fields: {sorted(unknown)}")
    member = Member.objects.select_for_update().get(pk=member.pk)
    changed = [name for name, value in values.items() if getattr(member, name) != value]
    for name in changed:
        setattr(member, name, values[name])
    if changed:
        member.save(update_fields=changed)
        audit(member, "federation.member.contact", changed_by, {"fields": changed})
        members_changed_later([member.pk])
    return member


@transaction.atomic
def member_change_club(
    *, member: Member, club: Club | None, changed_by: Any, today: date | None = None
) -> Member:
    """Move a member to another club (or none), keeping the history."""
    today = today or selectors.today()
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.club_id == (club.pk if club else None):
        return member
    ClubMembership.objects.filter(member=member, ended_on__isnull=True).update(ended_on=today)
    if club is not None:
        ClubMembership.objects.create(member=member, club=club, started_on=today)
    old = member.club_id
    member.club = club
    member.save(update_fields=["club"])
    members_changed_later([member.pk])
    audit(
        member, "federation.member.club", changed_by, {"from": old, "to": club.pk if club else None}
    )
    return member


@transaction.atomic
def member_erase(*, member: Member, requested_by: Any) -> Member:
    """Anonymise a person: name, contacts, birth date gone; login closed. Results stay under
    an anonymous player; invoices and payments stay (legal retention) with the name billed."""
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.anonymised_at:
        raise MembershipError(E_ALREADY_ERASED)
    user = member.user
    member.name_native = ""
    member.name_latin = ""
    member.date_of_birth = None
    member.email = member.phone = member.address = member.city = ""
    member.public_consent = False
    member.user = None
    member.anonymised_at = timezone.now()
    member.save()
    members_changed_later([member.pk])
    player = getattr(member, "player", None)
    if player is not None:
        player.name_native = ""
        player.name_latin = _("Anonymous player %(number)s") % {"number": player.pk}
        player.is_anonymised = True
        player.save(update_fields=["name_native", "name_latin", "is_anonymised"])
    if user is not None:
        from allauth.account.models import EmailAddress

        EmailAddress.objects.filter(user=user).delete()
        user.email = f"erased-{user.pk}@invalid"
        user.username = f"erased-{user.pk}"
        user.first_name = user.last_name = ""
        user.is_active = False
        user.set_unusable_password()
        user.save()
    # The addresses mailings went to (decision 0315); waiting deliveries are not sent.
    from federation.models import MailingDelivery

    member.deliveries.filter(
        state__in=[MailingDelivery.State.PENDING, MailingDelivery.State.SENDING]
    ).update(state=MailingDelivery.State.FAILED, error="erased")
    member.deliveries.update(email="")
    # Entries written by the admin's own edit views carry str(member) as label: neutralise.
    from django.contrib.contenttypes.models import ContentType
    from wagtail.models import ModelLogEntry

    ModelLogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Member), object_id=str(member.pk)
    ).update(label=f"{Member._meta.verbose_name} #{member.pk}")
    audit(member, "federation.member.erase", requested_by)
    return member
