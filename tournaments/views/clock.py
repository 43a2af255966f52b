"""The session clock: its screen at the venue, and the organizer's start, pause and extra
minutes (on the session view, tournaments.views.table_entry).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.views._common import _int


def clock_screen(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """The session clock for a screen at the venue: big, in the language of the address
    (the organizer opens /ru/..., /en/...); counts down in the page, and the page reloads
    itself every 30 seconds to follow a start, a pause or extra minutes."""
    tournament = get_object_or_404(selectors.tournaments_visible_to(request.user), pk=pk)
    if not 1 <= session <= tournament.sessions:
        raise Http404
    return render(request, "tournaments/clock.html", {
        "tournament": tournament, "clock": selectors.session_clock(tournament, session),
    })


CLOCK_ACTIONS = ("clock_start", "clock_pause", "clock_extra")


def clock_action(request: HttpRequest, tournament: Tournament, session: int,
                 action: str) -> None:
    """Start or pause the session's clock, or give a table extra minutes."""
    where = {"tournament": tournament, "session": session, "user": request.user}
    if action == "clock_start":
        services.session_clock_start(**where)
    elif action == "clock_pause":
        services.session_clock_pause(**where)
    else:
        services.session_clock_extra(
            **where, table=_int(request.POST.get("table")) or 0,
            minutes=_int(request.POST.get("minutes")) or 0)
