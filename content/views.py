"""Site search over the current language's live, public pages (the configured backend),
and above them the fans whose number or name matches (rulebook.selectors.fans_matching),
the players and the public tournaments (tournaments.selectors)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.translation import get_language
from wagtail.models import Locale

from content.search import get_backend
from rulebook.models import RULESET_CHOICES
from rulebook.selectors import fans_matching
from tournaments.selectors import players_matching, tournaments_matching

RESULTS_PER_PAGE = 20
PLAYERS_SHOWN = 20
TOURNAMENTS_SHOWN = 10
RULESET_LABELS = dict(RULESET_CHOICES)


def search(request):
    query = request.GET.get("q", "").strip()
    results = get_backend().search(query, locale=Locale.get_active()) if query else []
    paginator = Paginator(results, RESULTS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page", 1))
    fans, players, tournaments = [], [], []
    if query and page.number == 1:  # fans, players, tournaments once, above the pages
        fans = [
            {**fan, "ruleset_label": RULESET_LABELS[fan["ruleset"]]}
            for fan in fans_matching(query, get_language())
        ]
        players = players_matching(query, limit=PLAYERS_SHOWN)
        tournaments = tournaments_matching(query, limit=TOURNAMENTS_SHOWN)
    return render(
        request,
        "content/search.html",
        {
            "query": query,
            "results": page,
            "fans": fans,
            "players": players,
            "tournaments": tournaments,
            "found_above": bool(fans or players or tournaments),
        },
    )
