"""The public pages of the room: where do I sit (a player finds their table and seat wind
in every session, as far as the seating is published) and the room screen (a projector's
standings, the current session and its clock; decisions 0730 and 0731)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from rulebook.search_text import search_fold
from tournaments import selectors
from tournaments.models import Registration, Seat
from tournaments.permissions import can_manage
from tournaments.views._common import _int, _visible

ROOM_REFRESH_SECONDS = 20
"""How often the room screen fetches its content again (the clock counts in between)."""
ROOM_SLIDE_SECONDS = 12
"""How long a wide room screen shows each slide (a page of standings, of tables)."""
ROOM_STANDINGS_ROWS = 12
ROOM_TABLES = 6


def _matching(registrations: list[Registration], query: str) -> list[Registration]:
    words = search_fold(query).split()
    return [r for r in registrations
            if words and all(w in r.player.name_search for w in words)]


def seat_finder(request: HttpRequest, pk: int) -> HttpResponse:
    """Where do I sit: the player chooses their name (or types part of it) and sees their
    table, seat wind and table companions in every session whose seating is published;
    the same page for everyone, the organizer included (what the players see)."""
    tournament = _visible(request, pk)
    registrations = sorted(selectors.tournament_registrations(tournament),
                           key=lambda r: (search_fold(str(r.player)), r.number))
    by_player = {r.player_id: r for r in registrations}
    published = selectors.seating_published(tournament)
    query = request.GET.get("q", "").strip()[:100]
    chosen: Registration | None = None
    matches: list[Registration] = []
    unknown = False
    if request.GET.get("player", "").strip():  # "— choose your name —" is no choice
        chosen = by_player.get(_int(request.GET["player"]) or 0)
        unknown = chosen is None
    elif query:
        matches = _matching(registrations, query)
        if len(matches) == 1:
            chosen = matches[0]
    sessions: list[dict[str, Any]] = []
    if chosen is not None:
        seats = selectors.player_seats(tournament, chosen.player_id, published)
        for number in range(1, tournament.sessions + 1):
            seat = seats.get(number)
            sessions.append({
                "session": number, "published": number <= published,
                "table": seat["table"] if seat else None,
                "seat": Seat(seat["seat"]).label if seat else None,
                "others": [(Seat(wind).label, by_player.get(p)) for wind, p in seat["seats"]
                           if p != chosen.player_id] if seat else [],
            })
    drawn = (selectors.tournament_sessions_seated(tournament)
             if can_manage(request.user, tournament) else [])
    return render(request, "tournaments/seats.html", {
        "tournament": tournament, "registrations": registrations, "chosen": chosen,
        "query": query, "matches": matches, "searched": bool(query) and chosen is None,
        "unknown": unknown, "sessions": sessions, "published": published,
        "unpublished": [s for s in drawn if s > published],
    })


def _pages(items: tuple[Any, ...], size: int) -> list[tuple[Any, ...]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


@never_cache
def room_screen(request: HttpRequest, pk: int) -> HttpResponse:
    """The room screen for a projector: the public standings and the current session
    (its seating as published, its results as the public may see them) with its clock and
    the warning before time is up; always as the public sees it, whoever is logged in.
    ``?session=N`` holds a session; ``?panel=1`` is the part the page fetches again."""
    tournament = _visible(request, pk)
    held = _int(request.GET.get("session"))
    view = selectors.room_view(tournament, held)
    context = {
        "tournament": tournament, "room": view, "held": held,
        "standings_pages": _pages(view.standings, ROOM_STANDINGS_ROWS),
        "table_pages": _pages(view.tables, ROOM_TABLES),
        "refresh": ROOM_REFRESH_SECONDS, "slide": ROOM_SLIDE_SECONDS,
    }
    if request.GET.get("panel"):
        return render(request, "tournaments/_room_panel.html", context)
    return render(request, "tournaments/room.html", context)
