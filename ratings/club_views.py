"""Public club pages, mounted at /<lang>/clubs/ (decision 0808): the club ranking of a
ruleset and every club's page (city, the contact it publishes, its listed members, their
current ratings per ruleset, its tournaments). In ratings because they read the rating
lists and the tournaments; membership (federation) imports neither."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.defaultfilters import floatformat
from django.urls import reverse

from federation.models import Club
from ratings.rankings import club_ranking_current_stored, club_rankings_current
from ratings.rules.method import parse_period, period_first_day
from ratings.selectors import (
    RULESETS,
    club_listed_members,
    club_ranking_rows,
    club_ratings,
    ruleset_name,
)
from ratings.views import _pager, _ruleset, _tabs
from tournaments.models import PUBLIC_STATES, Tournament

#: the club page lists its latest tournaments
CLUB_TOURNAMENTS = 30
#: the club ranking a page at a time (``?page=``), ranked clubs then those not ranked yet
CLUBS_PAGE_SIZE = 50
#: the index of every club a page at a time (``?cpage=``), by name
CLUB_INDEX_PAGE_SIZE = 100


@dataclass(frozen=True, slots=True)
class RankingRow:
    """A row of the club ranking ready to print (formatted here with the template's own
    filters and one ``reverse`` a page, which cost most of a 50-club page)."""

    rank: int | None
    players: int
    name: str
    city: str
    url: str
    mean: str
    counted: list[tuple[str, str, str]]  # (player, url, rating)


def _ranking_rows(rows: list[Any], ruleset: str) -> list[RankingRow]:
    club_url = reverse("club_pages:detail", args=[0])
    player_url = reverse("ratings:player", args=[0])
    return [RankingRow(
        rank=row.score.rank, players=row.score.players, name=row.club.name,
        city=row.club.city, url=club_url.replace("/0/", f"/{row.club.pk}/"),
        mean=floatformat(row.score.mean, 1) if row.score.mean is not None else "",
        counted=[(str(player), player_url.replace("/0/", f"/{player.pk}/")
                  + f"?ruleset={ruleset}", floatformat(rating, 0))
                 for player, rating in row.counted],
    ) for row in rows]


def club_list(request: HttpRequest) -> HttpResponse:
    """The club ranking of a ruleset, then every club: both in pages (decision 0826), the
    ranking's rows read from the stored ranking, so the page costs the same queries and
    about the same time however many clubs the federation has."""
    ruleset = _ruleset(request)
    stored = club_ranking_current_stored(ruleset)
    page = Paginator(stored.club_rows.all(), CLUBS_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = _ranking_rows(club_ranking_rows(page.object_list), ruleset)
    clubs = Paginator(Club.objects.order_by("name", "pk"), CLUB_INDEX_PAGE_SIZE).get_page(
        request.GET.get("cpage"))
    period = stored.period or None
    club_url = reverse("club_pages:detail", args=[0])
    return render(request, "ratings/clubs.html", {
        "tabs": _tabs(reverse("club_pages:list"), RULESETS, ruleset),
        "ruleset": ruleset,
        "ruleset_name": ruleset_name(ruleset),
        "period_date": period_first_day(parse_period(period)) if period else None,
        "ranked": [r for r in rows if r.rank is not None],
        "unranked": [r for r in rows if r.rank is None],
        "ranking_count": page.paginator.count,
        "ranking_pager": _pager(request, page, "page", "club-ranking-heading"),
        "best": int(getattr(settings, "CLUB_RANKING_PLAYERS", 3)),
        "clubs": [(club, club_url.replace("/0/", f"/{club.pk}/")) for club in clubs],
        "clubs_pager": _pager(request, clubs, "cpage", "all-clubs-heading"),
        "updating": stored.updating_since is not None,
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
