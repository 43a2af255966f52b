"""Reads for membership: status from paid invoices, what a user may see, data export."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import DecimalField, F, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from federation.errors import (
    E_COVERED_BY_FAMILY,
    E_FREE_TYPE,
    E_JOINED_AFTER_YEAR,
    E_NO_FEE,
    E_NOT_APPROVED,
    MembershipError,
)
from federation.models import Club, DuesInvoice, Member, MembershipFee, MembershipYear, Payment
from federation.rules import dues


def today() -> date:
    return timezone.localdate()


def membership_year_for(day: date) -> MembershipYear | None:
    return MembershipYear.objects.filter(starts_on__lte=day, ends_on__gte=day).first()


def invoice_balance(invoice: DuesInvoice) -> dues.Balance:
    """Balance from the payments that count (reversed ones do not)."""
    amounts = invoice.payments.filter(reversed_at__isnull=True).values_list("amount", flat=True)
    return dues.invoice_balance(amount=invoice.amount, payments=list(amounts))


def invoice_state(invoice: DuesInvoice, balance: dues.Balance) -> str:
    """unpaid / partial / paid / overpaid, or cancelled (labels: status_labels.INVOICE_STATE_LABELS)."""
    return "cancelled" if invoice.cancelled else balance.state.value


def paid_amounts(invoice_ids: Iterable[int]) -> dict[int, Decimal]:
    """Sum of the payments that count, per invoice (one query)."""
    rows = (
        Payment.objects.filter(invoice_id__in=list(invoice_ids), reversed_at__isnull=True)
        .values("invoice_id")
        .annotate(total=Sum("amount"))
    )
    return {row["invoice_id"]: row["total"] for row in rows}


def invoices_with_balances(
    invoices: Iterable[DuesInvoice],
) -> list[tuple[DuesInvoice, dues.Balance]]:
    """Each invoice with its balance, for many invoices in one query."""
    invoices = list(invoices)
    paid = paid_amounts(i.pk for i in invoices)
    return [
        (i, dues.invoice_balance(amount=i.amount, payments=[paid.get(i.pk, Decimal(0))]))
        for i in invoices
    ]


@dataclass(frozen=True)
class OpenInvoices:
    """Invoices not cancelled and not fully paid: how many, how many past their due date,
    and what is still owed in each currency."""

    count: int
    overdue: int
    outstanding: dict[str, Decimal]


def open_invoices(day: date) -> OpenInvoices:
    """The treasurer's open invoices on ``day`` (one query)."""
    paid = Coalesce(
        Sum("payments__amount", filter=Q(payments__reversed_at__isnull=True)),
        Value(Decimal(0)),
        output_field=DecimalField(max_digits=12, decimal_places=2),
    )
    rows = (
        DuesInvoice.objects.filter(cancelled=False)
        .annotate(paid=paid)
        .filter(paid__lt=F("amount"))
        .values_list("currency", "amount", "paid", "due_on")
    )
    outstanding: dict[str, Decimal] = defaultdict(Decimal)
    count = overdue = 0
    for currency, amount, paid_amount, due_on in rows:
        count += 1
        overdue += due_on is not None and due_on < day
        outstanding[currency] += amount - paid_amount
    return OpenInvoices(count=count, overdue=overdue, outstanding=dict(sorted(outstanding.items())))


@dataclass(frozen=True)
class RefundDue:
    """Money recorded on a cancelled invoice (a card payment that arrived after the entry
    was withdrawn): the treasurer pays it back, then reverses the payment."""

    invoice_number: str
    receipt_number: str
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class RefundsDue:
    count: int
    amounts: dict[str, Decimal]  # per currency
    payments: list[RefundDue]


def refunds_due() -> RefundsDue:
    """Payments that count (not reversed) on cancelled invoices (one query)."""
    rows = (
        Payment.objects.filter(invoice__cancelled=True, reversed_at__isnull=True)
        .order_by("invoice__number", "receipt_number")
        .values_list("invoice__number", "receipt_number", "amount", "invoice__currency")
    )
    payments = [RefundDue(*row) for row in rows]
    amounts: dict[str, Decimal] = defaultdict(Decimal)
    for due in payments:
        amounts[due.currency] += due.amount
    return RefundsDue(count=len(payments), amounts=dict(sorted(amounts.items())),
                      payments=payments)


@dataclass
class InvoicePeriods:
    paid: dict[int, list[dues.Period]]
    open: dict[int, list[dues.Period]]


def invoice_periods_by_member(member_ids: Iterable[int] | QuerySet[Any]) -> InvoicePeriods:
    """Per covered member: periods of fully paid and of still open (not cancelled) invoices.
    Two queries whatever the number of members."""
    ids = member_ids if isinstance(member_ids, QuerySet) else list(member_ids)
    through = DuesInvoice.covered_members.through.objects.filter(
        member_id__in=ids, duesinvoice__cancelled=False
    ).values_list(
        "member_id",
        "duesinvoice_id",
        "duesinvoice__amount",
        "duesinvoice__membership_year__starts_on",
        "duesinvoice__membership_year__ends_on",
    )
    rows = list(through)
    paid_sums = paid_amounts({row[1] for row in rows})
    result = InvoicePeriods(defaultdict(list), defaultdict(list))
    for member_id, invoice_id, amount, starts_on, ends_on in rows:
        period = dues.Period(starts_on, ends_on)
        fully_paid = paid_sums.get(invoice_id, Decimal(0)) >= amount
        (result.paid if fully_paid else result.open)[member_id].append(period)
    return result


def open_invoices_by_payer(
    member_ids: Iterable[int],
) -> dict[int, list[tuple[DuesInvoice, dues.Balance]]]:
    """Not cancelled, not fully paid invoices per paying member, oldest year first."""
    invoices = (
        DuesInvoice.objects.filter(member_id__in=list(member_ids), cancelled=False)
        .select_related("membership_year")
        .order_by("membership_year__starts_on", "number")
    )
    result: dict[int, list[tuple[DuesInvoice, dues.Balance]]] = defaultdict(list)
    for invoice, balance in invoices_with_balances(invoices):
        if balance.outstanding > 0:
            result[invoice.member_id].append((invoice, balance))
    return result


def coverage_of(member: Member) -> dues.Coverage:
    """The summary of the member's invoices kept on the member (decision 0820)."""
    return dues.Coverage(member.paid_from, member.paid_through, member.open_until)


def status_of(member: Member, day: date) -> dues.Status:
    """The pure status function fed with the member's stored coverage (membership_type must
    be loaded): no invoice is read."""
    stored = coverage_of(member)
    return dues.membership_status(
        today=day,
        paid_periods=stored.paid_periods(),
        open_periods=stored.open_periods(),
        grace_days=settings.MEMBERSHIP_GRACE_DAYS,
        honorary=member.membership_type.is_free,
        application=member.application,
        erased=member.anonymised_at is not None,
    )


def member_paid_periods(member: Member) -> list[dues.Period]:
    return invoice_periods_by_member([member.pk]).paid.get(member.pk, [])


COVERAGE_FIELDS = ["paid_from", "paid_through", "open_until"]


def member_status(member: Member, day: date | None = None) -> dues.Status:
    """What tournaments and the public check use: from the stored coverage, on ``day``
    (read again: the caller's copy may predate a payment)."""
    if member.pk:
        member.refresh_from_db(fields=COVERAGE_FIELDS)
    return status_of(member, day or today())


def member_covered_until(member: Member, day: date | None = None) -> date | None:
    if member.pk:
        member.refresh_from_db(fields=COVERAGE_FIELDS)
    return dues.coverage_end(today=day or today(), paid_periods=coverage_of(member).paid_periods())


def member_statuses(members: Iterable[Member], day: date | None = None) -> dict[int, dues.Status]:
    """Statuses of many members in one query (a queryset gets membership_type by
    select_related)."""
    day = day or today()
    if isinstance(members, QuerySet):
        members = members.select_related("membership_type")
    return {m.pk: status_of(m, day) for m in members}


def active_on(day: date) -> Q:
    """The members ACTIVE on ``day`` as a filter (the same answer as membership_status from
    the stored coverage: approved, not erased, honorary or inside their paid coverage)."""
    return Q(application=Member.Application.APPROVED, anonymised_at__isnull=True) & (
        Q(membership_type__is_free=True) | Q(paid_from__lte=day, paid_through__gte=day))


def members_with_status(
    status: str, queryset: QuerySet[Member] | None = None, day: date | None = None
) -> QuerySet[Member]:
    queryset = queryset if queryset is not None else Member.objects.all()
    day = day or today()
    if status == dues.Status.ACTIVE:
        return queryset.filter(active_on(day))
    statuses = member_statuses(queryset.select_related(None).only(
        "pk", "paid_from", "paid_through", "open_until", "application", "anonymised_at",
        "membership_type__is_free"), day)
    return queryset.filter(pk__in=[pk for pk, s in statuses.items() if s == status])


def invoice_amount(*, member: Member, membership_year: MembershipYear, today: date) -> Decimal:
    """What `member` would be invoiced for `membership_year` (raises MembershipError)."""
    if member.application != Member.Application.APPROVED or member.anonymised_at:
        raise MembershipError(E_NOT_APPROVED)
    if member.membership_type.is_free:
        raise MembershipError(E_FREE_TYPE)
    if member.family_head_id:
        raise MembershipError(E_COVERED_BY_FAMILY)
    fee = MembershipFee.objects.filter(
        membership_year=membership_year, membership_type=member.membership_type
    ).first()
    if fee is None:
        raise MembershipError(E_NO_FEE)
    period = dues.Period(membership_year.starts_on, membership_year.ends_on)
    try:
        return dues.prorated_fee(
            annual_fee=fee.amount,
            period=period,
            joined_on=member.joined_on or today,
            prorate=settings.MEMBERSHIP_PRORATE,
        )
    except ValueError as error:
        raise MembershipError(E_JOINED_AFTER_YEAR) from error


@dataclass
class PreviewLine:
    member: Member
    amount: Decimal | None
    error: str | None  # an error code of federation.services when no invoice can be issued


def dues_invoices_preview(
    *, membership_year: MembershipYear, today: date | None = None
) -> list[PreviewLine]:
    """Who would get which invoice for the year: approved paying members (family heads pay
    for their family) without a live invoice for it. Lines with an error are skipped when
    issuing (e.g. no fee set for the type)."""
    day = today or timezone.localdate()
    members = (
        Member.objects.filter(
            application=Member.Application.APPROVED,
            anonymised_at__isnull=True,
            family_head__isnull=True,
            membership_type__is_free=False,
        )
        .exclude(invoices__membership_year=membership_year, invoices__cancelled=False)
        .select_related("membership_type")
        .order_by("membership_number")
    )
    lines = []
    for member in members:
        try:
            amount = invoice_amount(member=member, membership_year=membership_year, today=day)
        except MembershipError as error:
            lines.append(PreviewLine(member, None, error.code))
        else:
            lines.append(PreviewLine(member, amount, None))
    return lines


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


def members_matching(queryset: QuerySet[Member], query: str) -> QuerySet[Member]:
    """The members of ``queryset`` whose name (Latin or native), city or club's name contains
    ``query`` (case-insensitive). On PostgreSQL each condition reads a trigram index
    (federation 0019) for a query of three characters or more: the club's name through the
    clubs that match (one query on the clubs first, then their ids: neither a join nor a
    subquery, which would make PostgreSQL read every member to test the condition)."""
    clubs = list(Club.objects.filter(name__icontains=query).values_list("pk", flat=True))
    found = Q(name_latin__icontains=query) | Q(name_native__icontains=query) | Q(
        city__icontains=query)
    return queryset.filter(found | Q(club_id__in=clubs) if clubs else found)


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


def bank_details_missing() -> list[str]:
    """Which of the bank details invoices need are not configured (empty when complete)."""
    account = settings.MEMBERSHIP_BANK_ACCOUNT
    return [key for key in ("holder", "iban", "bic") if not account.get(key)]


def rouble_bank_details_missing() -> list[str]:
    """The Russian bank details rouble invoices need that are not configured, while roubles
    are billed (the default currency, a membership year or an open invoice in roubles);
    empty otherwise. (Invalid ones stop the site at start: federation.checks.)"""
    from federation.rules import ru_payment

    account = getattr(settings, "MEMBERSHIP_BANK_ACCOUNT_RUB", {})
    missing = [key for key in ru_payment.REQUIRED if not (account.get(key) or "").strip()]
    if not missing:
        return []
    roubles_billed = (
        getattr(settings, "MEMBERSHIP_CURRENCY", "") == "RUB"
        or MembershipYear.objects.filter(currency="RUB").exists()
        or DuesInvoice.objects.filter(currency="RUB", cancelled=False).exists()
    )
    return missing if roubles_billed else []


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
                "due_on": d(inv.due_on),
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
                "reversed": p.reversed_at is not None,
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
