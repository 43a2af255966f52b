"""The public calendar and a tournament's own page (players, seating, the results by
session, the leaders).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from rulebook.scoring.standings import WINDS
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.permissions import can_manage, can_organize, is_organizer
from tournaments.rules import states
from tournaments.selectors.entries import own_player_id
from tournaments.selectors.mers import mers_weight_computed
from tournaments.views._common import _names, _visible

PAST_PAGE_SIZE = 30
# the organizer's own tournaments, newest first, ``?mine=N`` (decision 0823)
MINE_PAGE_SIZE = 30


RESULTS_CACHE_SECONDS = 7 * 24 * 3600


def calendar(request: HttpRequest) -> HttpResponse:
    today = selectors.today()
    rows = selectors.public_calendar()
    upcoming = list(rows.filter(end_date__gte=today))
    past = Paginator(
        rows.filter(end_date__lt=today).order_by("-start_date", "name", "pk"), PAST_PAGE_SIZE
    ).get_page(request.GET.get("page"))
    mine = None
    if can_organize(request.user):
        mine = Paginator(
            Tournament.objects.filter(organizer=request.user)
            .order_by("-start_date", "name", "pk"), MINE_PAGE_SIZE,
        ).get_page(request.GET.get("mine"))
    return render(request, "tournaments/calendar.html", {
        "upcoming": upcoming, "past": past, "mine": mine,
    })


def _results_sessions(tables, names: dict[int, Any]) -> list[dict[str, Any]]:
    from rulebook.scoring.standings import table_points

    sessions: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        points = table_points([s.game_points for s in table.seats])
        sessions.setdefault(table.session, []).append({
            "table": table.table,
            "seats": [
                {"wind": w, "player": names.get(s.player), "game_points": s.game_points,
                 "penalty": s.penalty, "table_points": selectors.table_points_number(p)}
                for w, s, p in zip(WINDS, table.seats, points, strict=True)
            ],
        })
    return [{"session": s, "tables": t} for s, t in sorted(sessions.items())]


LEADERS_SHOWN = 10


def _results_html(request: HttpRequest, tournament: Tournament, names: dict[int, Any],
                  up_to: int | None = None) -> str:
    """The results by session (up to session ``up_to`` while the last are hidden), rendered
    once and kept in the cache under a digest of everything they show (every seat's result
    with the penalties given since, and every player's name, in the page's language): a
    correction, a penalty or a renamed player is a new key, so that nothing stale is ever
    served. About 80 tables at 40 players and 8 sessions: most of the page's cost
    (issue 26)."""
    tables = selectors.tournament_tables(tournament, up_to)
    if not tables:
        return ""
    shown = (tables, sorted((pk, str(r.player), r.player_id) for pk, r in names.items()))
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()
    key = f"tournaments:results:{tournament.pk}:{get_language()}:{digest}"
    html = cache.get(key)
    if html is None:
        html = render_to_string("tournaments/_results_by_session.html", {
            "results": _results_sessions(tables, names),
        }, request)
        cache.set(key, html, timeout=RESULTS_CACHE_SECONDS)
    return mark_safe(html)


def tournament_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    names = _names(tournament)
    up_to = selectors.standings_cutoff(tournament, request.user)
    results = _results_html(request, tournament, names, up_to)
    seen = selectors.seating_visible_through(tournament, request.user)
    return render(request, "tournaments/tournament.html", {
        "tournament": tournament,
        "registrations": sorted(names.values(), key=lambda r: r.number),
        "seated_sessions": [s for s in selectors.tournament_sessions_seated(tournament)
                            if s <= seen],
        "results": results,
        "standings": selectors.tournament_leaders(tournament, limit=LEADERS_SHOWN, up_to=up_to)
        if results else [],
        "hidden_after": up_to,
        "flags": [f for f in selectors.unbalanced_tables(tournament)
                  if f.confirmed_at is None] if can_manage(request.user, tournament) else [],
        "is_organizer": is_organizer(request.user, tournament),
        # the player's own "what would a place do" (ratings, decision 0840)
        "own_player": own_player_id(request.user, tournament)
        if tournament.state != Tournament.State.RESULTS_CONFIRMED else None,
        "can_export_ema": (states.allows("ema-results", tournament.state)
                           and can_manage(request.user, tournament)),
        "can_correct": services.players_correction_open(tournament, request.user),
        "mers_computed": mers_weight_computed(tournament) if tournament.mers else None,
    })
