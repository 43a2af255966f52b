"""Site search over the current language's live, public pages (the configured backend),
and above them the fans whose number or name matches (rulebook.selectors.fans_matching),
the players (20 a page, ``?players=``) and the public tournaments (tournaments.selectors)."""

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
PLAYERS_SHOWN = 20  # players a page (``?players=N``)
MAX_PLAYER_PAGES = 50  # a search is refined before it is read this far
TOURNAMENTS_SHOWN = 10
RULESET_LABELS = dict(RULESET_CHOICES)


def _players_page(request) -> int:
    """The page of players asked for (``?players=``), from 1 to MAX_PLAYER_PAGES."""
    text = request.GET.get("players", "")
    number = int(text) if text.isdigit() else 1
    return min(max(number, 1), MAX_PLAYER_PAGES)


def _players_url(request, number: int) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    query["players"] = str(number)
    return f"?{query.urlencode()}#search-players"


def search(request):
    query = request.GET.get("q", "").strip()
    players_page = _players_page(request)
    results = (get_backend().search(query, locale=Locale.get_active())
               if query and players_page == 1 else [])
    paginator = Paginator(results, RESULTS_PER_PAGE)
    page = paginator.get_page(request.GET.get("page", 1))
    fans, players, tournaments, players_pager = [], [], [], None
    if query and players_page > 1:  # a further page of players: that list alone
        players = players_matching(query, limit=PLAYERS_SHOWN + 1,
                                   offset=(players_page - 1) * PLAYERS_SHOWN)
    elif query and page.number == 1:  # fans, players, tournaments once, above the pages
        fans = [
            {**fan, "ruleset_label": RULESET_LABELS[fan["ruleset"]]}
            for fan in fans_matching(query, get_language())
        ]
        players = players_matching(query, limit=PLAYERS_SHOWN + 1)
        tournaments = tournaments_matching(query, limit=TOURNAMENTS_SHOWN)
    more = len(players) > PLAYERS_SHOWN and players_page < MAX_PLAYER_PAGES
    players = players[:PLAYERS_SHOWN]
    if more or players_page > 1:
        players_pager = {
            "number": players_page,
            "previous": _players_url(request, players_page - 1) if players_page > 1 else None,
            "next": _players_url(request, players_page + 1) if more else None,
        }
    return render(
        request,
        "content/search.html",
        {
            "query": query,
            "results": page,
            "fans": fans,
            "players": players,
            "players_pager": players_pager,
            "tournaments": tournaments,
            "found_above": bool(fans or players or tournaments),
        },
    )
