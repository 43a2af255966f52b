"""The seating: the organizer's draw, and a session's printable table distribution
(Appendix 3) with the seat rotation of Appendix 4.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.errors import errors_as_messages
from rulebook.scoring.standings import WINDS
from tournaments import services
from tournaments.forms import SeatingForm
from tournaments.models import Tournament
from tournaments.rules.seating_draw import round_seats
from tournaments.views._common import _names, _own, _visible


def _seating_sessions(tournament: Tournament, names: dict[int, Any]) -> list[dict[str, Any]]:
    sessions: dict[int, dict[int, dict[str, Any]]] = {}
    for row in tournament.seating.all():
        sessions.setdefault(row.session, {}).setdefault(row.table, {})[row.seat] = names.get(
            row.player_id)
    return [
        {"session": s, "tables": [
            {"table": t, "seats": [seats.get(w) for w in WINDS]}
            for t, seats in sorted(tables.items())
        ]}
        for s, tables in sorted(sessions.items())
    ]


def table_distribution(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """Appendix 3 for one session, with the seat rotation of Appendix 4; printable."""
    tournament = _visible(request, pk)
    names = _names(tournament)
    sessions = {s["session"]: s for s in _seating_sessions(tournament, names)}
    if session not in sessions:
        raise Http404
    tables = []
    for table in sessions[session]["tables"]:
        ids = [r.player_id if r else None for r in table["seats"]]
        rounds = round_seats(ids) if None not in ids else []
        tables.append({
            "table": table["table"], "seats": table["seats"],
            "rounds": [[names.get(r[w]) for w in WINDS] for r in rounds],
        })
    return render(request, "tournaments/distribution.html", {
        "tournament": tournament, "session": session, "tables": tables,
        "sessions": sorted(sessions),
    })


@login_required
@require_POST
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = SeatingForm(request.POST)
    if form.is_valid():
        with errors_as_messages(request):
            result = services.seating_draw(
                tournament=tournament, user=request.user, seed=form.cleaned_data["seed"],
                from_session=form.cleaned_data.get("from_session"),
                separate_countries=form.cleaned_data["separate_countries"])
            messages.success(request, ngettext(
                "The seating is drawn: %(pairs)s pair of players meets more than once.",
                "The seating is drawn: %(pairs)s pairs of players meet more than once.",
                result.repeat_pairs,
            ) % {"pairs": result.repeat_pairs})
    return redirect(reverse("tournaments:manage", args=[pk]) + "#seating")
