"""Players' own entries (issue 24): entering, the waiting list, withdrawing and moving up,
the entry fee as a federation invoice (numbering, PDF receipt, EPC QR, card payment, bank
matching and reversal are the dues' machinery), cash at the venue, the organizer's
confirmation or refusal, turning confirmed entries into registrations, and releasing the
places of entries not paid in time (a reminder first).

Every write locks the tournament row first: two people entering for the last place are
serialised, so exactly one of them gets it and the other waits."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django_countries import countries

from federation import selectors as federation_selectors
from federation.errors import MembershipError
from federation.models import Member, Payment
from federation.rules.standing import in_good_standing
from federation.services import dues_invoice_cancel, payment_record
from tournaments import emails
from tournaments.errors import (
    E_ALREADY_ENTERED,
    E_AMOUNT_NOT_POSITIVE,
    E_BAD_COUNTRY,
    E_BAD_DECISION,
    E_BAD_EMA_NUMBER,
    E_EMA_NUMBER_ASKED,
    E_ENTRIES_CLOSED,
    E_ENTRIES_NOT_OPEN,
    E_ENTRY_NOT_ACTIVE,
    E_ENTRY_NOT_HOLDING,
    E_MEMBERS_ONLY,
    E_NAME_REQUIRED,
    E_NO_REDUCED_FEE,
    E_NO_TEAM_COMPETITION,
    E_NOTHING_TO_PAY,
    E_REASON_REQUIRED,
    E_REDUCED_FEE_PAID,
    ResultsError,
    TournamentError,
)
from tournaments.models import EntriesOpen, Entry, Tournament
from tournaments.rules import states
from tournaments.rules.ema_numbers import ema_number_normalise
from tournaments.rules.entry_admission import entries_accepted, members_only
from tournaments.rules.entry_price import entry_fee
from tournaments.rules.refund import refund_due
from tournaments.services._common import _audit, _locked
from tournaments.services.places import (
    entry_invoice_issue,
    has_room,
    place_give,
    waiting_list_move_up,
)
from tournaments.services.players import PlayerEntry, players_register

Status = Entry.Status


def _today() -> date:
    return federation_selectors.today()


def member_in_good_standing(user: Any, today: date | None = None) -> Member | None:
    """The person's membership if it counts for a tournament: in good standing
    (``federation.rules.standing``: dues paid, or within grace)."""
    member = federation_selectors.member_for_user(user)
    if member is None or member.anonymised_at:
        return None
    status = federation_selectors.member_status(member, today)
    return member if in_good_standing(status) else None


def _fee(tournament: Tournament, *, is_member: bool, reduced: bool = False) -> Decimal:
    """The tournament's price for this person (``tournaments.rules.entry_price``)."""
    return entry_fee(fee_member=tournament.fee_member, fee_other=tournament.fee_other,
                     fee_reduced=tournament.fee_reduced, is_member=is_member, reduced=reduced)


@transaction.atomic
def entry_create(
    *,
    tournament: Tournament,
    user: Any,
    first_name: str,
    last_name: str,
    country: str,
    ema_number: str = "",
    team: str = "",
    reduced: bool = False,
    ema_number_none: bool = False,
    today: date | None = None,
) -> Entry:
    """Enter ``user`` into an accredited tournament: a place while there is one (the fee
    invoiced), else the waiting list. Mails the person (entry received, or waiting)."""
    today = today or _today()
    tournament = _locked(tournament)
    if not entries_accepted(state=tournament.state, start_date=tournament.start_date,
                            today=today, opens_on=tournament.entries_from,
                            closes_on=tournament.entries_until):
        if (tournament.entries_from and today < tournament.entries_from
                and states.allows("enter", tournament.state)):
            raise TournamentError(E_ENTRIES_NOT_OPEN, date=tournament.entries_from.isoformat())
        raise TournamentError(E_ENTRIES_CLOSED)
    first_name, last_name = first_name.strip(), last_name.strip()
    if not first_name or not last_name:
        raise TournamentError(E_NAME_REQUIRED, field="first_name" if not first_name
                              else "last_name")
    code = countries.alpha2(country.strip())
    if not code:
        raise TournamentError(E_BAD_COUNTRY, field="country")
    ema = ema_number_normalise(ema_number)
    if ema.error:
        raise TournamentError(E_BAD_EMA_NUMBER, field="ema_number", number=ema_number.strip())
    if ema.number:
        ema_number_none = False
    elif tournament.mers and not ema_number_none:
        # the EMA ranking counts the result on the number: asked, or "none yet" said
        raise TournamentError(E_EMA_NUMBER_ASKED, field="ema_number")
    team = team.strip()
    if team and not tournament.team:
        raise TournamentError(E_NO_TEAM_COMPETITION, field="team")
    if reduced and tournament.fee_reduced is None:
        raise TournamentError(E_NO_REDUCED_FEE, field="reduced")
    member = member_in_good_standing(user, today)
    if member is None and members_only(
        open_to_members_only=tournament.entries_open == EntriesOpen.MEMBERS,
        members_first_until=tournament.members_first_until, today=today,
    ):
        raise TournamentError(E_MEMBERS_ONLY)
    if tournament.entries.filter(user=user, status__in=Entry.ACTIVE).exists():
        raise TournamentError(E_ALREADY_ENTERED)
    entry = Entry(
        tournament=tournament, user=user, member=member, first_name=first_name,
        last_name=last_name, country=code, ema_number=ema.number, team=team,
        ema_number_none=ema_number_none,
        reduced=reduced, fee=_fee(tournament, is_member=member is not None, reduced=reduced),
    )
    if has_room(tournament):
        place_give(entry, by=user, today=today)
    else:
        entry.status = Status.WAITING
    entry.save()
    _audit(tournament, "tournaments.entry.create", user, entry=entry.pk, status=entry.status)
    emails.on_commit_send("received" if entry.status == Status.ENTERED else "waiting", entry.pk)
    return entry


def _lock_entry(entry: Entry) -> tuple[Tournament, Entry]:
    tournament = _locked(entry.tournament)
    return tournament, Entry.objects.select_for_update().select_related("user").get(pk=entry.pk)


def _paid_amount(entry: Entry) -> Decimal:
    if entry.invoice_id is None:
        return Decimal(0)
    return federation_selectors.invoice_balance(entry.invoice).paid


def _close_invoice(entry: Entry, *, by: Any) -> None:
    """An unpaid invoice of an entry that no longer holds a place is cancelled."""
    if entry.invoice_id and not entry.invoice.cancelled and not _paid_amount(entry):
        dues_invoice_cancel(invoice=entry.invoice, cancelled_by=by)


@transaction.atomic
def entry_withdraw(*, entry: Entry, user: Any, today: date | None = None) -> Entry:
    """Withdraw an entry (the person, or the organizer: the caller checks who). The refund
    rule is applied and recorded; a freed place goes to the first waiting person."""
    today = today or _today()
    tournament, entry = _lock_entry(entry)
    if entry.status not in Entry.ACTIVE:
        raise TournamentError(E_ENTRY_NOT_ACTIVE)
    held = entry.status in Entry.HOLDING
    entry.status = Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    paid = _paid_amount(entry)
    entry.refund = refund_due(paid=paid, today=today, refund_until=tournament.refund_until,
                              start_date=tournament.start_date) if paid else None
    entry.save()
    _close_invoice(entry, by=user)
    _audit(tournament, "tournaments.entry.withdraw", user, entry=entry.pk,
           refund=str(entry.refund) if entry.refund is not None else None)
    if held:
        waiting_list_move_up(tournament, by=user, today=today)
    emails.on_commit_send("withdrawn", entry.pk)
    return entry


@transaction.atomic
def entry_decide(
    *, entry: Entry, user: Any, decision: str, reason: str = "", today: date | None = None
) -> Entry:
    """The organizer confirms an entry holding a place, or refuses an entry with a reason
    (mailed to the person; a place it held goes to the waiting list)."""
    today = today or _today()
    tournament, entry = _lock_entry(entry)
    if decision not in ("confirm", "refuse"):
        raise TournamentError(E_BAD_DECISION)
    if decision == "confirm":
        if entry.status not in Entry.HOLDING:
            raise TournamentError(E_ENTRY_NOT_HOLDING)
        entry.status = Status.CONFIRMED
        entry.save(update_fields=["status"])
        _audit(tournament, "tournaments.entry.confirm", user, entry=entry.pk)
        return entry
    reason = reason.strip()
    if not reason:
        raise TournamentError(E_REASON_REQUIRED, field="reason")
    if entry.status not in Entry.ACTIVE:
        raise TournamentError(E_ENTRY_NOT_ACTIVE)
    held = entry.status in Entry.HOLDING
    paid = _paid_amount(entry)
    entry.status = Status.REFUSED
    entry.reason = reason
    entry.refund = paid or None  # refused: whatever was paid goes back
    entry.save()
    _close_invoice(entry, by=user)
    _audit(tournament, "tournaments.entry.refuse", user, entry=entry.pk)
    emails.on_commit_send("refused", entry.pk)
    if held:
        waiting_list_move_up(tournament, by=user, today=today)
    return entry


@transaction.atomic
def entry_full_fee(*, entry: Entry, user: Any, today: date | None = None) -> Entry:
    """The organizer does not grant the reduced fee the person claimed: the entry costs the
    person's full price. While nothing is paid, the invoice is replaced by one of the full
    price (mailed); once something is paid the difference is the organizer's to collect."""
    today = today or _today()
    tournament, entry = _lock_entry(entry)
    if entry.status not in Entry.ACTIVE:
        raise TournamentError(E_ENTRY_NOT_ACTIVE)
    if not entry.reduced:
        raise TournamentError(E_BAD_DECISION)
    if _paid_amount(entry):
        raise TournamentError(E_REDUCED_FEE_PAID)
    if entry.invoice_id and not entry.invoice.cancelled:
        dues_invoice_cancel(invoice=entry.invoice, cancelled_by=user)
    entry.invoice = None
    entry.reduced = False
    entry.fee = _fee(tournament, is_member=entry.member_id is not None)
    if entry.status in Entry.HOLDING:
        entry_invoice_issue(entry, by=user, today=today)
    entry.save()
    _audit(tournament, "tournaments.entry.full_fee", user, entry=entry.pk, fee=str(entry.fee))
    emails.on_commit_send("full_fee", entry.pk)
    return entry


@transaction.atomic
def entry_cash_record(
    *, entry: Entry, user: Any, amount: Decimal | None = None, paid_on: date | None = None,
    today: date | None = None,
) -> Payment:
    """Cash at the venue, recorded by the organizer on the entry's invoice (a receipt is
    mailed like for any payment)."""
    paid_on = paid_on or today or _today()
    tournament, entry = _lock_entry(entry)
    if entry.status not in Entry.HOLDING or entry.invoice_id is None:
        raise TournamentError(E_NOTHING_TO_PAY)
    outstanding = federation_selectors.invoice_balance(entry.invoice).outstanding
    amount = Decimal(amount) if amount is not None else outstanding
    if amount <= 0:
        raise TournamentError(E_AMOUNT_NOT_POSITIVE if outstanding else E_NOTHING_TO_PAY,
                              field="amount")
    try:
        payment = payment_record(
            invoice=entry.invoice, amount=amount, paid_on=paid_on,
            method=Payment.Method.CASH, recorded_by=user,
            reference=f"{tournament.name}: {entry.name}", confirm_duplicate=True,
            today=today,
        )
    except MembershipError as error:
        raise TournamentError(error.code, field="amount") from error
    _audit(tournament, "tournaments.entry.cash", user, entry=entry.pk,
           amount=str(payment.amount))
    return payment


@transaction.atomic
def entries_register(*, tournament: Tournament, user: Any) -> int:
    """Turn the confirmed entries not registered yet into the tournament's registrations
    (matched to players like any registration). Each entry keeps its registration, so that
    the place it holds is counted once. Returns how many were registered."""
    tournament = _locked(tournament)
    by_member: dict[int, Any] = {}
    by_name: dict[str, Any] = {}
    for reg in tournament.registrations.filter(entry__isnull=True).select_related("player"):
        if reg.player.member_id:
            by_member[reg.player.member_id] = reg
        by_name.setdefault(reg.player.name_latin.casefold(), reg)
    rows, pending = [], []
    for entry in tournament.entries.filter(status=Status.CONFIRMED,
                                           registration__isnull=True).select_related("member"):
        # registered by hand before: the entry takes that registration
        known = by_member.get(entry.member_id) if entry.member_id else \
            by_name.get(entry.name.casefold())
        if known is not None:
            entry.registration = known
            entry.save(update_fields=["registration"])
            continue
        rows.append(PlayerEntry(
            name=entry.name, first_name=entry.first_name, last_name=entry.last_name,
            country=entry.country,
            member_number=entry.member.membership_number if entry.member else None,
            date_of_birth=entry.member.date_of_birth if entry.member else None,
            ema_number=entry.ema_number, team=entry.team,
        ))
        pending.append(entry)
    if rows:
        try:
            registrations = players_register(tournament=tournament, user=user, entries=rows)
        except ResultsError as error:  # each problem names the entry it is about
            raise ResultsError([
                replace(p, params={**p.params, "entry": pending[p.row - 1].name})
                if p.row and 1 <= p.row <= len(pending) else p
                for p in error.problems]) from error
        for entry, registration in zip(pending, registrations, strict=True):
            entry.registration = registration
            entry.save(update_fields=["registration"])
    return len(rows)


@dataclass(frozen=True)
class ReleaseReport:
    reminded: list[int]
    released: list[int]


@transaction.atomic
def entries_release_unpaid(*, today: date | None = None, by: Any = None) -> ReleaseReport:
    """Daily: an entry whose invoice is past its due date is reminded once; one still unpaid
    three days after the reminder loses its place (it goes to the waiting list)."""
    today = today or _today()
    reminded: list[int] = []
    released: list[int] = []
    candidates = Entry.objects.filter(
        status=Status.ENTERED, invoice__isnull=False, invoice__cancelled=False,
        invoice__due_on__lt=today, tournament__start_date__gt=today,
    ).select_related("invoice", "tournament")
    for entry in candidates:
        if federation_selectors.invoice_balance(entry.invoice).outstanding <= 0:
            continue
        if entry.reminded_on is None:
            entry.reminded_on = today
            entry.save(update_fields=["reminded_on"])
            reminded.append(entry.pk)
            emails.on_commit_send("reminder", entry.pk)
            continue
        if entry.reminded_on + timedelta(days=3) > today:
            continue
        tournament, entry = _lock_entry(entry)
        entry.status = Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.reason = "unpaid"
        entry.save()
        _close_invoice(entry, by=by)
        released.append(entry.pk)
        _audit(tournament, "tournaments.entry.release", by, entry=entry.pk)
        emails.on_commit_send("released", entry.pk)
        waiting_list_move_up(tournament, by=by, today=today)
    return ReleaseReport(reminded=reminded, released=released)
