"""Public club pages, mounted at /<lang>/clubs/ (decision 0808): the club ranking of a
ruleset and every club's page (city, the contact it publishes, its listed members, their
current ratings per ruleset, its tournaments). In ratings because they read the rating
lists and the tournaments; membership (federation) imports neither."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from federation.models import Club
from ratings.rankings import club_ranking_current, club_rankings_current
from ratings.rules.method import parse_period, period_first_day
from ratings.selectors import (
    RULESETS,
    club_listed_members,
    club_ratings,
    ruleset_name,
)
from ratings.views import _ruleset, _tabs
from tournaments.models import PUBLIC_STATES, Tournament

#: the club page lists its latest tournaments
CLUB_TOURNAMENTS = 30


def club_list(request: HttpRequest) -> HttpResponse:
    """The club ranking of a ruleset, then every club."""
    ruleset = _ruleset(request)
    period, rows = club_ranking_current(ruleset)
    ranked = [r for r in rows if r.score.rank is not None]
    return render(request, "ratings/clubs.html", {
        "tabs": _tabs(reverse("club_pages:list"), RULESETS, ruleset),
        "ruleset": ruleset,
        "ruleset_name": ruleset_name(ruleset),
        "period_date": period_first_day(parse_period(period)) if period else None,
        "ranked": ranked,
        "unranked": [r for r in rows if r.score.rank is None],
        "best": int(getattr(settings, "CLUB_RANKING_PLAYERS", 3)),
        "clubs": Club.objects.order_by("name"),
    })


def club_page(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    tournaments = (Tournament.objects.filter(club=club, state__in=PUBLIC_STATES)
                   .order_by("-start_date", "pk"))
    return render(request, "ratings/club.html", {
        "club": club,
        "members": club_listed_members(club.pk),
        "ratings": [
            {"ruleset": r.ruleset, "name": ruleset_name(r.ruleset),
             "date": period_first_day(parse_period(r.period)), "rows": r.rows}
            for r in club_ratings(club.pk, club_rankings_current())
        ],
        "tournaments": list(tournaments[:CLUB_TOURNAMENTS]),
        "tournament_count": tournaments.count(),
    })
