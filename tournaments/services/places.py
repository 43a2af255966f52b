"""Places of a tournament with a maximum number of players (decisions 0706, 0716): who
holds one, giving one to an entry (its fee invoiced), moving the waiting list up when a
place frees. Shared by the entries and the registrations the organizer adds by hand, which
take places too."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.utils import timezone

from federation.services import invoice_issue
from tournaments import emails, selectors
from tournaments.models import Entry, Tournament
from tournaments.services._common import _audit


def has_room(tournament: Tournament) -> bool:
    return tournament.max_players is None or \
        selectors.places_taken(tournament) < tournament.max_players


def place_give(entry: Entry, *, by: Any, today: date) -> None:
    """The entry holds a place from now: its invoice is issued when there is a fee."""
    entry.status = Entry.Status.ENTERED
    entry.place_at = timezone.now()
    entry_invoice_issue(entry, by=by, today=today)


def entry_invoice_issue(entry: Entry, *, by: Any, today: date) -> None:
    """The entry's fee invoice, when there is a fee and none yet (not saved here)."""
    if entry.fee > 0 and entry.invoice_id is None:
        entry.invoice = invoice_issue(
            user=entry.user,
            billed_name=entry.name,
            amount=entry.fee,
            purpose=entry.tournament.name,
            due_on=min(today + timedelta(days=entry.tournament.payment_days),
                       entry.tournament.start_date),
            issued_by=by,
            currency=entry.tournament.currency or None,
            today=today,
        )


def waiting_list_move_up(tournament: Tournament, *, by: Any, today: date) -> list[Entry]:
    """Give freed places to the waiting list in order of entry, before the start only. The
    caller holds the tournament's row lock."""
    moved: list[Entry] = []
    if tournament.start_date <= today:
        return moved
    waiting = tournament.entries.select_for_update().filter(
        status=Entry.Status.WAITING).order_by("entered_at", "pk")
    for entry in waiting:
        if not has_room(tournament):
            break
        place_give(entry, by=by, today=today)
        entry.save()
        moved.append(entry)
        _audit(tournament, "tournaments.entry.move_up", by, entry=entry.pk)
        emails.on_commit_send("moved_up", entry.pk)
    return moved
