"""The announcement of a tournament to the members who follow its country's tournaments
(decision 0315), sent when it is accredited (opens for entries): a receiver of
``tournaments.signals.tournament_accredited`` that hands the texts in every language to
membership's service (``federation.services.announcement_send``), once per tournament (its
key), delivered like any mailing. (The entrants' audience of mailings:
``tournaments.entrants_audience``.)"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.dispatch import receiver
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django_countries import countries

from core.dates import date_display
from core.site_url import site_absolute_url
from federation import services
from tournaments.models import Tournament
from tournaments.signals import tournament_accredited


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
                "start": date_display(tournament.start_date),
                "end": date_display(tournament.end_date), "url": url,
            }
            texts[code] = (subject, body)
    return texts


@receiver(tournament_accredited, dispatch_uid="tournaments_announce_to_followers")
def announce_after_accreditation(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    services.announcement_send(
        key=f"tournament-{tournament.pk}-open", country=tournament.country,
        texts=announcement_texts(tournament),
    )
