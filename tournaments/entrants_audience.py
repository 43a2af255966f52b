"""The entrants of a tournament as an audience of the editors' mailings (decision 0315).
Membership sits below tournaments and may not import it, so this app registers the audience
with membership (``federation.mailing_audiences.audience_register``) at start-up: the
tournaments the editor can choose, the members who entered one (entries entered, waiting or
confirmed) and its name for the line that says why a member receives the mail."""

from __future__ import annotations

from django.utils.formats import date_format

from federation.mailing_audiences import ExternalAudience, audience_register
from tournaments.models import Entry, Tournament


def _choices() -> list[tuple[int, str]]:
    rows = Tournament.objects.filter(entries__isnull=False).distinct().order_by("-start_date")
    return [(t.pk, f"{t.name} ({date_format(t.start_date, 'SHORT_DATE_FORMAT')})")
            for t in rows[:100]]


def _member_ids(tournament_id: int) -> list[int]:
    return list(
        Entry.objects.filter(tournament_id=tournament_id, status__in=Entry.ACTIVE,
                             member__isnull=False).values_list("member_id", flat=True)
    )


def _name(tournament_id: int) -> str | None:
    return Tournament.objects.filter(pk=tournament_id).values_list("name", flat=True).first()


def register_audience() -> None:
    audience_register(
        "tournament",
        ExternalAudience(choices=_choices, member_ids=_member_ids, name=_name),
    )
