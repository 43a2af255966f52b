"""Reads for membership: status from paid invoices, what a user may see, data export."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from federation import dues
from federation.models import Club, DuesInvoice, Member, MembershipYear, Payment


def today() -> date:
    return timezone.localdate()


def membership_year_for(day: date) -> MembershipYear | None:
    return MembershipYear.objects.filter(starts_on__lte=day, ends_on__gte=day).first()


def invoice_balance(invoice: DuesInvoice) -> dues.Balance:
    amounts = invoice.payments.values_list("amount", flat=True)
    return dues.invoice_balance(amount=invoice.amount, payments=list(amounts))


def _paid_periods_by_member(member_ids: list[int] | None = None) -> dict[int, list[dues.Period]]:
    """Periods of fully paid, not cancelled invoices, per covered member (two queries)."""
    invoices = DuesInvoice.objects.filter(cancelled=False).annotate(paid=Sum("payments__amount"))
    if member_ids is not None:
        invoices = invoices.filter(covered_members__in=member_ids).distinct()
    paid_ids = {
        inv.pk: dues.Period(inv.membership_year.starts_on, inv.membership_year.ends_on)
        for inv in invoices.select_related("membership_year")
        if (inv.paid or Decimal(0)) >= inv.amount
    }
    through = DuesInvoice.covered_members.through.objects.filter(duesinvoice_id__in=paid_ids)
    result: dict[int, list[dues.Period]] = defaultdict(list)
    for invoice_id, member_id in through.values_list("duesinvoice_id", "member_id"):
        result[member_id].append(paid_ids[invoice_id])
    return result


def member_paid_periods(member: Member) -> list[dues.Period]:
    return _paid_periods_by_member([member.pk]).get(member.pk, [])


def _status(member: Member, periods: list[dues.Period], day: date) -> dues.Status:
    if member.application != Member.Application.APPROVED or member.anonymised_at:
        return dues.Status.LAPSED
    return dues.membership_status(
        today=day,
        paid_periods=periods,
        grace_days=settings.MEMBERSHIP_GRACE_DAYS,
        honorary=member.membership_type.is_free,
    )


def member_status(member: Member, day: date | None = None) -> dues.Status:
    """What tournaments and the public check use: computed, never stored."""
    return _status(member, member_paid_periods(member), day or today())


def member_covered_until(member: Member, day: date | None = None) -> date | None:
    return dues.coverage_end(today=day or today(), paid_periods=member_paid_periods(member))


def member_statuses(members: QuerySet[Member], day: date | None = None) -> dict[int, dues.Status]:
    day = day or today()
    members = members.select_related("membership_type")
    periods = _paid_periods_by_member()
    return {m.pk: _status(m, periods.get(m.pk, []), day) for m in members}


def members_with_status(
    status: str, queryset: QuerySet[Member] | None = None, day: date | None = None
) -> QuerySet[Member]:
    queryset = queryset if queryset is not None else Member.objects.all()
    statuses = member_statuses(queryset, day)
    return queryset.filter(pk__in=[pk for pk, s in statuses.items() if s == status])


def can_see_all_members(user: Any) -> bool:
    return bool(user.is_authenticated and user.has_perm("federation.view_member"))


def clubs_managed_by(user: Any) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    if can_see_all_members(user):
        return Club.objects.all()
    return Club.objects.filter(officers=user)


def members_visible_to(user: Any) -> QuerySet[Member]:
    """Federation officers see everyone; a club officer sees his clubs' members; others none."""
    if not user.is_authenticated:
        return Member.objects.none()
    if can_see_all_members(user):
        return Member.objects.all()
    return Member.objects.filter(club__officers=user)


def members_public_list() -> QuerySet[Member]:
    """Members who consented to appear in public lists (approved, not erased)."""
    return Member.objects.filter(
        public_consent=True,
        application=Member.Application.APPROVED,
        anonymised_at__isnull=True,
    ).select_related("club")


def member_for_user(user: Any) -> Member | None:
    if not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).select_related("club", "membership_type").first()


def member_invoices(member: Member) -> QuerySet[DuesInvoice]:
    return (
        DuesInvoice.objects.filter(Q(member=member) | Q(covered_members=member))
        .distinct()
        .select_related("membership_year", "membership_type")
        .order_by("-membership_year__year", "-number")
    )


def member_payments(member: Member) -> QuerySet[Payment]:
    return Payment.objects.filter(invoice__member=member).select_related("invoice")


def member_export(member: Member) -> dict[str, Any]:
    """Everything the federation holds about a member (the self-service JSON download)."""

    def d(value: Any) -> Any:
        return value.isoformat() if value else None

    user = member.user
    player = getattr(member, "player", None)
    return {
        "member": {
            "membership_number": member.membership_number,
            "name_native": member.name_native,
            "name_latin": member.name_latin,
            "date_of_birth": d(member.date_of_birth),
            "country": member.country,
            "city": member.city,
            "club": member.club.name if member.club else None,
            "email": member.email,
            "phone": member.phone,
            "address": member.address,
            "language": member.language,
            "public_consent": member.public_consent,
            "membership_type": member.membership_type.kind,
            "family_head": member.family_head.membership_number if member.family_head else None,
            "application": member.application,
            "joined_on": d(member.joined_on),
            "applied_at": d(member.applied_at),
            "status": member_status(member).value,
        },
        "account": {"email": user.email, "language": user.language} if user else None,
        "club_history": [
            {"club": h.club.name, "from": d(h.started_on), "until": d(h.ended_on)}
            for h in member.club_history.select_related("club")
        ],
        "invoices": [
            {
                "number": inv.number,
                "year": inv.membership_year.year,
                "type": inv.membership_type.kind,
                "billed_to": inv.billed_name,
                "amount": str(inv.amount),
                "currency": inv.currency,
                "issued_on": d(inv.issued_on),
                "prorated": inv.prorated,
                "cancelled": inv.cancelled,
                "state": invoice_balance(inv).state.value,
            }
            for inv in member_invoices(member)
        ],
        "payments": [
            {
                "receipt_number": p.receipt_number,
                "invoice": p.invoice.number,
                "amount": str(p.amount),
                "paid_on": d(p.paid_on),
                "method": p.method,
                "reference": p.reference,
            }
            for p in member_payments(member)
        ],
        "reminders": [
            {"stage": r.stage, "period_ends_on": d(r.period_ends_on), "sent_at": d(r.sent_at)}
            for r in member.reminders.all()
        ],
        "player": {
            "name_native": player.name_native,
            "name_latin": player.name_latin,
            "country": player.country,
        }
        if player
        else None,
    }
