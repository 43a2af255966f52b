"""The seating: the organizer's draw, and a session's printable table distribution
(Appendix 3) with the seat rotation of Appendix 4.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.errors import errors_as_messages
from rulebook.scoring.standings import WINDS
from tournaments import pdf, selectors, services
from tournaments.forms import SeatingForm, SeatingPublishForm
from tournaments.models import Tournament
from tournaments.permissions import can_manage
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
    """Appendix 3 for one session, with the seat rotation of Appendix 4; printable. The
    public sees the published sessions (decision 0730), the organizer and officers all."""
    tournament = _visible(request, pk)
    names = _names(tournament)
    through = selectors.seating_visible_through(tournament, request.user)
    sessions = {s["session"]: s for s in _seating_sessions(tournament, names)
                if s["session"] <= through}
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
    else:  # a seed out of range (2**40): said, field named, nothing drawn
        for name, errors in form.errors.items():
            messages.error(request, f"{form.fields[name].label}: {' '.join(errors)}")
    return redirect(reverse("tournaments:manage", args=[pk]) + "#seating")


@login_required
@require_POST
def seating_publish(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer publishes the seating up to a session (0: withdraws it from view)."""
    tournament = _own(request, pk)
    form = SeatingPublishForm(request.POST, sessions=tournament.sessions)
    if form.is_valid():
        with errors_as_messages(request):
            through = form.cleaned_data["through"]
            services.seating_publish(tournament=tournament, user=request.user,
                                     through=through)
            if through == 1:
                messages.success(request, _("The seating of session 1 is published."))
            elif through:
                messages.success(request, _(
                    "The seating of sessions 1 to %(n)s is published.") % {"n": through})
            else:
                messages.success(request, _("The seating is not published."))
    else:
        for name, errors in form.errors.items():
            messages.error(request, f"{form.fields[name].label}: {' '.join(errors)}")
    return redirect(reverse("tournaments:manage", args=[pk]) + "#seating")


def _session_tables(request: HttpRequest, pk: int, session: int
                    ) -> tuple[Tournament, list[tuple[int, list[tuple[str, Any]]]]]:
    """The tournament and one session's tables (table, [(wind, registration)]) for the
    organizer and the officers, published or not (they print ahead)."""
    tournament = _visible(request, pk)
    if not can_manage(request.user, tournament):
        raise PermissionDenied
    drawn = selectors.session_seating(tournament, session)
    if not drawn:
        raise Http404(_("This session has no seating."))
    names = _names(tournament)
    return tournament, [
        (table, [(wind, names.get(seats[wind])) for wind in WINDS if wind in seats])
        for table, seats in sorted(drawn.items())
    ]


def _pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
def seat_cards_pdf(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """A card for each seat of the session (its wind, table and player), to cut out."""
    tournament, tables = _session_tables(request, pk, session)
    return _pdf_response(pdf.seat_cards_pdf(tournament, session, tables),
                         f"tournament-{tournament.pk}-session-{session}-seat-cards.pdf")


@login_required
def table_tents_pdf(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """A tent for each table of the session (folded, readable from both sides)."""
    tournament, tables = _session_tables(request, pk, session)
    return _pdf_response(pdf.table_tents_pdf(tournament, session, tables),
                         f"tournament-{tournament.pk}-session-{session}-table-tents.pdf")
