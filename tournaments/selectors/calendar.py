"""Which tournaments a reader sees: visibility, the public calendar, the next ones, the search."""

from __future__ import annotations

import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from tournaments.models import PUBLIC_STATES, Tournament
from tournaments.permissions import can_accredit


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    """Public tournaments for everyone; a user's own tournaments in any state; every
    tournament for accreditation officers."""
    qs = Tournament.objects.all()
    if can_accredit(user):
        return qs
    public = Q(state__in=PUBLIC_STATES)
    if user.is_authenticated:
        return qs.filter(public | Q(organizer=user))
    return qs.filter(public)


def public_calendar(*, state: str | None = None) -> QuerySet[Tournament]:
    qs = Tournament.objects.filter(state__in=PUBLIC_STATES).select_related("club")
    if state:
        qs = qs.filter(state=state)
    return qs.order_by("start_date", "name", "pk")


def upcoming_tournaments(*, limit: int) -> list[Tournament]:
    """The next public tournaments that have not ended, soonest first (the home page)."""
    return list(public_calendar().filter(end_date__gte=today())[:limit])


def _every_word_in(fields: tuple[str, ...], query: str) -> Q:
    """Each word of the query in one of the fields (any order, any case)."""
    condition = Q()
    for word in query.split():
        either = Q()
        for field in fields:
            either |= Q(**{f"{field}__icontains": word})
        condition &= either
    return condition


def tournaments_matching(query: str, *, limit: int) -> list[Tournament]:
    """Public tournaments whose name or city holds every word of the query, newest first."""
    if not query.split():
        return []
    return list(
        public_calendar()
        .filter(_every_word_in(("name", "city"), query))
        .order_by("-start_date", "name", "pk")[:limit]
    )


def today() -> datetime.date:
    return timezone.localdate()
