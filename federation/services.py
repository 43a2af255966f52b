"""Membership writes. Every service runs inside transaction.atomic, locks what it counts on
(select_for_update) and leaves an entry in Wagtail's audit log (ModelLogEntry: who, when,
what). Log entries carry ids and field names, never personal data, so erasure leaves no
name behind in the log."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from wagtail.log_actions import log

from federation import bank_import, dues, selectors
from federation.models import (
    Club,
    ClubMembership,
    DuesInvoice,
    Member,
    MembershipFee,
    MembershipType,
    MembershipYear,
    NumberSequence,
    Payment,
    ReminderSent,
)

# Error codes (the edge translates them).
E_ALREADY_APPLIED = "already_applied"
E_NOT_PENDING = "not_pending"
E_NOT_APPROVED = "not_approved"
E_NO_FEE = "no_fee"
E_FREE_TYPE = "free_type"
E_COVERED_BY_FAMILY = "covered_by_family"
E_INVOICE_EXISTS = "invoice_exists"
E_JOINED_AFTER_YEAR = "joined_after_year"
E_DUPLICATE_TRANSACTION = "duplicate_transaction"
E_AMOUNT_NOT_POSITIVE = "amount_not_positive"
E_INVOICE_CANCELLED = "invoice_cancelled"
E_ALREADY_ERASED = "already_erased"
E_BAD_FILE = "bad_file"

CONTACT_FIELDS = ("email", "phone", "address", "city", "country", "language", "public_consent")


class MembershipError(Exception):
    def __init__(self, code: str, detail: Any = None) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


def _audit(instance: Any, action: str, user: Any, data: dict[str, Any] | None = None) -> None:
    title = f"{instance._meta.verbose_name} #{instance.pk}"
    log(instance=instance, action=action, user=user, title=title, data=data or {})


def _next_number(key: str) -> int:
    """Increment a named counter under a row lock; numbers are never reused."""
    NumberSequence.objects.get_or_create(key=key)
    sequence = NumberSequence.objects.select_for_update().get(key=key)
    sequence.last_value += 1
    sequence.save(update_fields=["last_value"])
    return sequence.last_value


# --- Members ---------------------------------------------------------------------------------


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
    _audit(member, "federation.member.apply", user)
    if settings.MEMBERSHIP_AUTO_APPROVE:
        member = member_approve(member=member, approved_by=None, today=today)
    return member


@transaction.atomic
def member_approve(*, member: Member, approved_by: Any, today: date | None = None) -> Member:
    """Assign the membership number, open the club history, issue this year's invoice."""
    today = today or selectors.today()
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.application != Member.Application.PENDING:
        raise MembershipError(E_NOT_PENDING)
    member.membership_number = _next_number("member")
    member.application = Member.Application.APPROVED
    member.joined_on = member.joined_on or today
    member.save(update_fields=["membership_number", "application", "joined_on"])
    if member.club_id:
        ClubMembership.objects.create(member=member, club_id=member.club_id, started_on=today)
    _audit(
        member,
        "federation.member.approve",
        approved_by,
        {"membership_number": member.membership_number, "auto": approved_by is None},
    )
    year = selectors.membership_year_for(today)
    if year and not member.membership_type.is_free and not member.family_head_id:
        dues_invoice_issue(member=member, membership_year=year, issued_by=approved_by, today=today)
    return member


@transaction.atomic
def member_reject(*, member: Member, rejected_by: Any) -> Member:
    member = Member.objects.select_for_update().get(pk=member.pk)
    if member.application != Member.Application.PENDING:
        raise MembershipError(E_NOT_PENDING)
    member.application = Member.Application.REJECTED
    member.save(update_fields=["application"])
    _audit(member, "federation.member.reject", rejected_by)
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
        _audit(member, "federation.member.contact", changed_by, {"fields": changed})
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
    _audit(
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
    # Entries written by the admin's own edit views carry str(member) as label: neutralise.
    from django.contrib.contenttypes.models import ContentType
    from wagtail.models import ModelLogEntry

    ModelLogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Member), object_id=str(member.pk)
    ).update(label=f"{Member._meta.verbose_name} #{member.pk}")
    _audit(member, "federation.member.erase", requested_by)
    return member


# --- Dues ------------------------------------------------------------------------------------


@transaction.atomic
def dues_invoice_issue(
    *,
    member: Member,
    membership_year: MembershipYear,
    issued_by: Any,
    today: date | None = None,
) -> DuesInvoice:
    """One invoice per payer and year. A family invoice covers the head and the members
    linked to them. Joining during the year is pro-rated when MEMBERSHIP_PRORATE is on."""
    today = today or selectors.today()
    member = Member.objects.select_for_update().select_related("membership_type").get(pk=member.pk)
    if member.application != Member.Application.APPROVED or member.anonymised_at:
        raise MembershipError(E_NOT_APPROVED)
    membership_type = member.membership_type
    if membership_type.is_free:
        raise MembershipError(E_FREE_TYPE)
    if member.family_head_id:
        raise MembershipError(E_COVERED_BY_FAMILY)
    if DuesInvoice.objects.filter(
        member=member, membership_year=membership_year, cancelled=False
    ).exists():
        raise MembershipError(E_INVOICE_EXISTS)
    fee = MembershipFee.objects.filter(
        membership_year=membership_year, membership_type=membership_type
    ).first()
    if fee is None:
        raise MembershipError(E_NO_FEE)
    period = dues.Period(membership_year.starts_on, membership_year.ends_on)
    joined_on = member.joined_on or today
    try:
        amount = dues.prorated_fee(
            annual_fee=fee.amount,
            period=period,
            joined_on=joined_on,
            prorate=settings.MEMBERSHIP_PRORATE,
        )
    except ValueError as error:
        raise MembershipError(E_JOINED_AFTER_YEAR) from error
    sequence = _next_number(f"invoice-{membership_year.year}")
    invoice = DuesInvoice.objects.create(
        number=f"{membership_year.year}-{sequence:05d}",
        membership_year=membership_year,
        member=member,
        membership_type=membership_type,
        billed_name=member.name_latin or member.name_native,
        amount=amount,
        currency=membership_year.currency,
        issued_on=today,
        prorated=amount != dues.money(fee.amount),
    )
    covered = [member]
    if membership_type.covers_family:
        covered += list(member.family_members.filter(anonymised_at__isnull=True))
    invoice.covered_members.set(covered)
    _audit(
        invoice,
        "federation.invoice.issue",
        issued_by,
        {"amount": str(amount), "covered": [m.pk for m in covered]},
    )
    return invoice


@transaction.atomic
def dues_invoices_issue_for_year(
    *, membership_year: MembershipYear, issued_by: Any, today: date | None = None
) -> list[DuesInvoice]:
    """Issue the year's invoices to every approved paying member who has none yet."""
    issued = []
    members = Member.objects.filter(
        application=Member.Application.APPROVED,
        anonymised_at__isnull=True,
        family_head__isnull=True,
        membership_type__is_free=False,
    ).exclude(invoices__membership_year=membership_year, invoices__cancelled=False)
    for member in members:
        try:
            issued.append(
                dues_invoice_issue(
                    member=member, membership_year=membership_year, issued_by=issued_by, today=today
                )
            )
        except MembershipError:
            continue
    return issued


@transaction.atomic
def payment_record(
    *,
    invoice: DuesInvoice,
    amount: Decimal,
    paid_on: date,
    method: str,
    recorded_by: Any,
    reference: str = "",
    transaction_id: str = "",
) -> Payment:
    """Record money received. The invoice row is locked, so two recordings of the same bank
    transaction cannot both pass the duplicate check; the unique constraint backs it up.
    Partial payments leave a balance, overpayments a credit (federation.dues)."""
    amount = Decimal(amount)
    if amount <= 0:
        raise MembershipError(E_AMOUNT_NOT_POSITIVE)
    invoice = DuesInvoice.objects.select_for_update().get(pk=invoice.pk)
    if invoice.cancelled:
        raise MembershipError(E_INVOICE_CANCELLED)
    transaction_id = transaction_id.strip()
    if (
        transaction_id
        and Payment.objects.filter(method=method, transaction_id=transaction_id).exists()
    ):
        raise MembershipError(E_DUPLICATE_TRANSACTION, transaction_id)
    receipt = _next_number(f"receipt-{paid_on.year}")
    try:
        with transaction.atomic():
            payment = Payment.objects.create(
                invoice=invoice,
                amount=dues.money(amount),
                paid_on=paid_on,
                method=method,
                reference=reference,
                transaction_id=transaction_id,
                receipt_number=f"R{paid_on.year}-{receipt:05d}",
                recorded_by=recorded_by,
            )
    except IntegrityError as error:
        raise MembershipError(E_DUPLICATE_TRANSACTION, transaction_id) from error
    _audit(
        payment,
        "federation.payment.record",
        recorded_by,
        {
            "invoice": invoice.number,
            "amount": str(payment.amount),
            "method": method,
            "transaction_id": transaction_id,
        },
    )
    return payment


@dataclass
class ImportReport:
    recorded: list[Payment] = field(default_factory=list)
    unmatched: list[bank_import.StatementRow] = field(default_factory=list)
    already_recorded: list[bank_import.StatementRow] = field(default_factory=list)


@transaction.atomic
def bank_statement_import(*, data: bytes | str, recorded_by: Any) -> ImportReport:
    """Match each row to an invoice by the invoice number in its reference and record it.
    A malformed file raises MembershipError(E_BAD_FILE, errors) and writes nothing; rows whose
    transaction was already recorded are reported, not recorded again; rows without a known
    invoice are reported as unmatched."""
    statement = bank_import.parse_statement(data)
    if statement.errors:
        raise MembershipError(E_BAD_FILE, statement.errors)
    report = ImportReport()
    for row in statement.rows:
        number = row.invoice_number
        invoice = DuesInvoice.objects.filter(number=number, cancelled=False).first()
        if number is None or invoice is None:
            report.unmatched.append(row)
            continue
        try:
            payment = payment_record(
                invoice=invoice,
                amount=row.amount,
                paid_on=row.paid_on,
                method=Payment.Method.BANK_TRANSFER,
                reference=row.reference,
                transaction_id=row.transaction_id,
                recorded_by=recorded_by,
            )
        except MembershipError as error:
            if error.code != E_DUPLICATE_TRANSACTION:
                raise
            report.already_recorded.append(row)
            continue
        report.recorded.append(payment)
    return report


# --- Reminders -------------------------------------------------------------------------------


def _reminder_message(member: Member, stage: str, covered_until: date | None) -> tuple[str, str]:
    name = member.name_native or member.name_latin
    if stage == "grace":
        subject = _("Your federation membership has expired")
        body = _(
            "Dear %(name)s,\n\nYour membership (number %(number)s) has ended. You are in the "
            "grace period: please pay your dues to stay a member.\n"
        ) % {"name": name, "number": member.display_number}
    else:
        subject = _("Your federation membership ends soon")
        body = _(
            "Dear %(name)s,\n\nYour membership (number %(number)s) ends on %(date)s. "
            "Please renew it by paying your dues.\n"
        ) % {
            "name": name,
            "number": member.display_number,
            "date": formats.date_format(covered_until, "DATE_FORMAT") if covered_until else "",
        }
    return subject, body


def reminders_send(*, today: date | None = None) -> int:
    """Email members whose paid membership ends within the configured days, or who are in
    grace, once per stage and period, in the member's language. Safe to re-run."""
    today = today or selectors.today()
    sent = 0
    members = Member.objects.filter(
        application=Member.Application.APPROVED,
        anonymised_at__isnull=True,
        membership_type__is_free=False,
    ).select_related("membership_type", "user")
    periods = selectors._paid_periods_by_member()
    for member in members:
        paid = periods.get(member.pk, [])
        status = dues.membership_status(
            today=today, paid_periods=paid, grace_days=settings.MEMBERSHIP_GRACE_DAYS
        )
        covered_until = dues.coverage_end(today=today, paid_periods=paid)
        stage = dues.reminder_stage(
            today=today,
            status=status,
            covered_until=covered_until,
            days_before=settings.MEMBERSHIP_REMINDER_DAYS,
        )
        if stage is None:
            continue
        period_end = covered_until or max(p.ends_on for p in paid if p.ends_on < today)
        email = member.email or (member.user.email if member.user else "")
        if not email:
            continue
        with transaction.atomic():
            _, created = ReminderSent.objects.get_or_create(
                member=member, period_ends_on=period_end, stage=stage
            )
            if not created:
                continue
            with translation.override(member.language):
                subject, body = _reminder_message(member, stage, covered_until)
            send_mail(subject, body, None, [email])
        sent += 1
    return sent


# --- Roles -----------------------------------------------------------------------------------

ROLE_TREASURER = "Treasurer"
ROLE_MEMBERSHIP_OFFICER = "Membership officer"
ROLE_CLUB_OFFICER = "Club officer"

ROLE_PERMISSIONS: dict[str, list[str]] = {
    ROLE_TREASURER: [
        "wagtailadmin.access_admin",
        "federation.view_member",
        "federation.import_bank_statement",
        *(
            f"federation.{action}_{model}"
            for model in ("membershipyear", "membershipfee", "membershiptype")
            for action in ("add", "change", "view")
        ),
        # Invoices are issued by services (numbering, pro-rating); the admin may only cancel.
        *(f"federation.{a}_duesinvoice" for a in ("change", "view")),
        *(f"federation.{a}_payment" for a in ("add", "view")),
    ],
    ROLE_MEMBERSHIP_OFFICER: [
        "wagtailadmin.access_admin",
        "federation.approve_member",
        *(f"federation.{a}_member" for a in ("add", "change", "view")),
        *(f"federation.{a}_club" for a in ("add", "change", "view")),
        "federation.view_clubmembership",
        "ratings.view_player",
        "ratings.change_player",
    ],
    # Club officers are scoped by Club.officers, not by model permissions: the group only
    # names the role. They use the club pages under /members/clubs/.
    ROLE_CLUB_OFFICER: [],
}


def roles_setup() -> dict[str, Group]:
    """Create (or bring up to date) the role groups and their permissions. Idempotent."""
    groups = {}
    for name, codes in ROLE_PERMISSIONS.items():
        group, _created = Group.objects.get_or_create(name=name)
        permissions = []
        for code in codes:
            app_label, codename = code.split(".")
            permission = Permission.objects.filter(
                content_type__app_label=app_label, codename=codename
            ).first()
            if permission is not None:
                permissions.append(permission)
        group.permissions.set(permissions)
        groups[name] = group
    return groups
