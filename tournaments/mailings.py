"""Tournaments in the membership's mail (decision 0315): the "entrants of a tournament"
audience of editors' mailings, and the announcement to members who follow a country's
tournaments when one is accredited (open for entries). Membership sits below tournaments,
so the audience is registered here and the announcement goes through its service; the
announcement is sent once per tournament (its key) and delivered like any mailing."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.dispatch import receiver
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django_countries import countries

from core.site_url import site_absolute_url
from federation import mailing_audiences, services
from tournaments.models import Entry, Tournament
from tournaments.signals import tournament_accredited


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
    mailing_audiences.audience_register(
        "tournament",
        mailing_audiences.ExternalAudience(choices=_choices, member_ids=_member_ids, name=_name),
    )


def announcement_texts(tournament: Tournament) -> dict[str, tuple[str, str]]:
    """The announcement in every language of the site."""
    texts = {}
    for code, _language in settings.LANGUAGES:
        with translation.override(code):
            url = site_absolute_url(reverse("tournaments:detail", args=[tournament.pk]))
            subject = _("Open for entries: %(name)s") % {"name": tournament.name}
            body = _(
                "%(name)s, %(city)s (%(country)s), from %(start)s to %(end)s, is accredited "
                "by the federation and open for entries.\n\nThe tournament and its entry "
                "form: %(url)s"
            ) % {
                "name": tournament.name, "city": tournament.city,
                "country": countries.name(tournament.country.upper()) or tournament.country,
                "start": date_format(tournament.start_date),
                "end": date_format(tournament.end_date), "url": url,
            }
            texts[code] = (subject, body)
    return texts


@receiver(tournament_accredited, dispatch_uid="tournaments_announce_to_followers")
def announce_after_accreditation(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    services.announcement_send(
        key=f"tournament-{tournament.pk}-open", country=tournament.country,
        texts=announcement_texts(tournament),
    )
