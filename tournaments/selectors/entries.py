"""Players' own entries: their payment state, what they collected, whether the form is open,
the treasurer's view."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import timezone

from tournaments.models import Tournament
from tournaments.rules.entry_admission import entries_accepted


@dataclass(frozen=True)
class EntryRow:
    """An entry with what is read of its invoice: paid, outstanding."""

    entry: Any
    paid: bool
    paid_amount: Decimal
    outstanding: Decimal


def entry_is_paid(entry: Any) -> bool:
    return entry_rows([entry])[0].paid


def entry_rows(entries: Any) -> list[EntryRow]:
    """Entries with their payment state, the invoices read in one query."""
    from federation.selectors import invoices_with_balances

    entries = list(entries)
    invoices = [e.invoice for e in entries if e.invoice_id is not None]
    balances = {invoice.pk: balance for invoice, balance in invoices_with_balances(invoices)}
    rows = []
    for entry in entries:
        balance = balances.get(entry.invoice_id)
        if balance is None:
            rows.append(EntryRow(entry, entry.fee == 0, Decimal(0), Decimal(0)))
        else:
            paid = entry.fee == 0 or balance.outstanding <= 0
            rows.append(EntryRow(entry, paid, balance.paid, balance.outstanding))
    return rows


def tournament_entries(tournament: Tournament, *, public: bool = False) -> list[EntryRow]:
    """The entrants in order of entry; the public list leaves out withdrawn and refused."""
    from tournaments.models import Entry

    qs = tournament.entries.select_related("invoice", "user", "member__club").order_by(
        "entered_at", "pk")
    if public:
        qs = qs.filter(status__in=Entry.ACTIVE)
    return entry_rows(qs)


@dataclass(frozen=True)
class Collected:
    currency: str
    collected: Decimal
    open: Decimal
    refund_due: Decimal = Decimal(0)  # owed back to the withdrawn (the refund rule)


def _collected(rows: list[EntryRow]) -> list[Collected]:
    totals: dict[str, list[Decimal]] = {}
    for row in rows:
        if row.entry.invoice_id is None:
            continue
        pair = totals.setdefault(row.entry.invoice.currency,
                                 [Decimal(0), Decimal(0), Decimal(0)])
        pair[0] += row.paid_amount
        if not row.entry.invoice.cancelled:
            pair[1] += row.outstanding
        if row.entry.refund:
            pair[2] += row.entry.refund
    return [Collected(c, v[0], v[1], v[2]) for c, v in sorted(totals.items())]


def entries_collected(tournament: Tournament) -> list[Collected]:
    """What a tournament's entries have paid and what is still open, per currency."""
    return _collected(tournament_entries(tournament))


@dataclass(frozen=True)
class DuesUnpaid:
    """A member charged the others' fee because their dues are not paid (issue 38, 12):
    what they pay and what a member in good standing pays."""

    fee: Decimal
    member_fee: Decimal
    currency: str


def dues_unpaid_fee(user: Any, tournament: Tournament, *, fee: Decimal | None = None,
                    today: Any = None) -> DuesUnpaid | None:
    """Whether ``user`` is a member who pays (or paid: ``fee``) more than the members' fee
    only because their dues are unpaid; None for a guest, a member in good standing, a
    tournament whose two fees are equal."""
    from federation import selectors as federation_selectors
    from federation.rules.standing import in_good_standing

    if not getattr(user, "is_authenticated", False) or tournament.fee_member is None:
        return None
    member = federation_selectors.member_for_user(user)
    if member is None or member.anonymised_at:
        return None
    if in_good_standing(federation_selectors.member_status(member, today)):
        return None
    charged = fee if fee is not None else tournament.fee_other
    if charged is None or charged <= tournament.fee_member:
        return None
    return DuesUnpaid(charged, tournament.fee_member, tournament.currency)


def entries_open(tournament: Tournament) -> bool:
    """Whether the public page offers the entry form (the service decides the rest)."""
    return entries_accepted(state=tournament.state, start_date=tournament.start_date,
                            today=timezone.localdate(), opens_on=tournament.entries_from,
                            closes_on=tournament.entries_until)


@dataclass(frozen=True)
class TournamentFees:
    tournament: Tournament
    totals: list[Collected]


def entry_fees_by_tournament() -> list[TournamentFees]:
    """The treasurer's view: every tournament with invoiced entries, what was collected
    and what is open, per currency (the newest first). Three queries, however many
    tournaments and entries."""
    from tournaments.models import Entry

    entries = Entry.objects.filter(invoice__isnull=False).select_related("invoice", "tournament")
    by_tournament: dict[int, list[EntryRow]] = {}
    tournaments: dict[int, Tournament] = {}
    for row in entry_rows(entries):
        tournaments[row.entry.tournament_id] = row.entry.tournament
        by_tournament.setdefault(row.entry.tournament_id, []).append(row)
    ordered = sorted(tournaments.values(), key=lambda t: (-t.start_date.toordinal(), t.pk))
    return [TournamentFees(t, _collected(by_tournament[t.pk])) for t in ordered]


def own_player_id(user: Any, tournament: Tournament) -> int | None:
    """The player the signed-in user plays as in this tournament (not a substitute): the
    registration of their entry or of their membership's player; None for anybody else."""
    from django.db.models import Q

    from tournaments.models import Registration

    if not getattr(user, "is_authenticated", False):
        return None
    return (Registration.objects.filter(tournament=tournament, substitute=False)
            .filter(Q(entry__user=user) | Q(player__member__user=user))
            .values_list("player_id", flat=True).first())
