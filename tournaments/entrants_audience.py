"""The entrants of a tournament as an audience of the editors' mailings (decision 0315).
Membership sits below tournaments and may not import it, so this app registers the audience
with membership (``federation.mailing_audiences.audience_register``) at start-up: the
tournaments the editor can choose, the people holding a place in one (entered or confirmed:
members whatever fee they paid, and the paying guests; not the waiting list) and its name for the line that says why a member receives the mail."""

from __future__ import annotations

from core.dates import date_display
from federation.mailing_audiences import ExternalAudience, audience_register
from tournaments.models import Entry, Tournament


def _choices() -> list[tuple[int, str]]:
    rows = Tournament.objects.filter(entries__isnull=False).distinct().order_by("-start_date")
    return [(t.pk, f"{t.name} ({date_display(t.start_date, 'SHORT_DATE_FORMAT')})")
            for t in rows[:100]]


def _holders(tournament_id: int):
    """The entries holding a place (entered or confirmed; not the waiting list, not the
    withdrawn or refused), decision 0728."""
    return Entry.objects.filter(tournament_id=tournament_id, status__in=Entry.HOLDING)


def _member_ids(tournament_id: int) -> set[int]:
    """Every member among them, whatever fee they paid: the entry's member, and the
    membership of the entrant's account (a member whose dues are unpaid entered at the
    other fee, and the entry names no member)."""
    from federation.models import Member

    entries = _holders(tournament_id)
    return set(entries.filter(member__isnull=False).values_list("member_id", flat=True)) | set(
        Member.objects.filter(user__in=entries.values("user_id")).values_list("pk", flat=True))


def _guest_user_ids(tournament_id: int) -> list[int]:
    """The accounts of the entrants whose entry names no member: the paying guests (the
    members among them are told apart by membership, ``mailing_guests``)."""
    return list(_holders(tournament_id).filter(member__isnull=True)
                .values_list("user_id", flat=True))


def _name(tournament_id: int) -> str | None:
    return Tournament.objects.filter(pk=tournament_id).values_list("name", flat=True).first()


def register_audience() -> None:
    audience_register(
        "tournament",
        ExternalAudience(choices=_choices, member_ids=_member_ids, name=_name,
                         guest_user_ids=_guest_user_ids),
    )
