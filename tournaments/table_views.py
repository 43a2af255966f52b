"""Entry at the table (docs/decisions/0710-table-side-entry.md).

The organizer's session view (``/<lang>/tournaments/<pk>/sessions/<n>/``: which tables are
in, which are missing, what the core found, a QR code per table) and the table's own page
(``/<lang>/tournaments/table/<token>/``), reached without an account through the token of
the QR code. Plain forms: every submit saves and comes back to the page, so the page works
without JavaScript. Thin: each action is one service call.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from config.site_url import site_base_url
from rulebook.scoring import DEFAULT_CONFIG
from rulebook.scoring.standings import WINDS
from tournaments.permissions import can_manage

from . import pdf, selectors, services
from .models import Penalty, Seat, TableEntry, Tournament
from .problem_texts import error_message, problem_message
from .table_sheet import sheet_view


def _managed(request: HttpRequest, pk: int, session: int) -> Tournament:
    tournament = get_object_or_404(selectors.tournaments_visible_to(request.user), pk=pk)
    if not can_manage(request.user, tournament):
        raise PermissionDenied
    if not 1 <= session <= tournament.sessions:
        raise Http404
    return tournament


def _problem_text(problem: Any) -> str:
    where = []
    if problem.hand is not None:
        where.append(_("line %(n)s") % {"n": problem.hand})
    if problem.seat is not None:
        where.append(str(Seat(problem.seat).label))
    text = problem_message(problem)
    return f"{', '.join(where)}: {text}" if where else text


def _table_url(request: HttpRequest, token: str) -> str:
    return site_base_url(request).rstrip("/") + reverse("tournaments:table", args=[token])


@login_required
def session_view(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """The organizer's (or an officer's) view of a session: each table's state and
    problems, and its QR code once the tables are opened for entry at the table."""
    tournament = _managed(request, pk, session)
    if request.method == "POST":
        action = request.POST.get("action", "open")
        where = {"tournament": tournament, "session": session, "user": request.user}
        try:
            if action == "clock_start":
                services.session_clock_start(**where)
            elif action == "clock_pause":
                services.session_clock_pause(**where)
            elif action == "clock_extra":
                services.session_clock_extra(
                    **where, table=_int(request.POST.get("table")) or 0,
                    minutes=_int(request.POST.get("minutes")) or 0)
            elif action in ORGANIZER_ACTIONS:
                _organizer_action(request, tournament, session, action)
            else:
                services.table_entries_open(**where)
        except services.TournamentError as err:
            messages.error(request, error_message(err.code, err.params))
        return redirect("tournaments:session", pk=pk, session=session)
    open_states = selectors.TABLE_ENTRY_OPEN
    rows = []
    for row in selectors.session_tables(tournament, session):
        qr = url = None
        if row.entry is not None and tournament.state in open_states and row.state != "agreed":
            url = _table_url(request, row.entry.token)
            # segno writes the SVG itself from the URL: nothing of the user's is in it
            qr = mark_safe(segno.make(url, error="m").svg_inline(scale=4))
        rows.append({"row": row, "url": url, "qr": qr,
                     "problems": [_problem_text(p) for p in row.problems]})
    flags = {f.table: f for f in selectors.unbalanced_tables(tournament, session)}
    for r in rows:
        r["flag"] = flags.get(r["row"].table)
    is_organizer = tournament.organizer_id == request.user.pk
    return render(request, "tournaments/session.html", {
        "tournament": tournament, "session": session, "rows": rows,
        "can_penalize": is_organizer and tournament.state in open_states,
        "registrations": selectors.tournament_registrations(tournament),
        "penalties": [p for p in selectors.tournament_penalties(tournament)
                      if p.penalty.session == session],
        "absences": [a for a in selectors.tournament_absences(tournament)
                     if a.session == session],
        "kinds": Penalty.Kind.choices,
        "sessions": range(1, tournament.sessions + 1),
        "can_open": tournament.state in open_states,
        "unopened": any(r["row"].entry is None and r["row"].state != "agreed" for r in rows),
        "clock": selectors.session_clock(tournament, session),
        "counts": {state: sum(1 for r in rows if r["row"].state == state)
                   for state in ("missing", "entered", "agreed")},
    })


ORGANIZER_ACTIONS = ("penalty", "penalty_remove", "late", "absent", "confirm_recorded")


def _organizer_action(request: HttpRequest, tournament: Tournament, session: int,
                      action: str) -> None:
    """A penalty, a late arrival, an absence or an unbalanced table kept as recorded: the
    organizer's own (officers correct through the correction)."""
    if tournament.organizer_id != request.user.pk:
        raise PermissionDenied
    post = request.POST
    where = {"tournament": tournament, "session": session, "user": request.user}
    player = _int(post.get("player"))
    if action == "penalty":
        services.penalty_give(**where, player=player, kind=post.get("kind", ""),
                              points=_int(post.get("points")),
                              reason=post.get("reason", ""),
                              to_player=_int(post.get("to_player")))
        messages.success(request, _("The penalty is recorded."))
    elif action == "penalty_remove":
        services.penalty_remove(tournament=tournament, user=request.user,
                                penalty=_int(post.get("penalty")) or 0)
        messages.success(request, _("The penalty is taken back."))
    elif action == "late":
        result = services.player_late(**where, player=player,
                                      minutes=_int(post.get("minutes")))
        if isinstance(result, Penalty):
            messages.success(request, _("%(points)s game points are deducted.") % {
                "points": result.points})
        else:
            messages.success(request, _("Late by more than 15 minutes: the player misses "
                                        "this session."))
    elif action == "absent":
        services.player_absent(**where, player=player, reason=post.get("reason", ""))
        messages.success(request, _("The absence is recorded."))
    else:
        services.unbalanced_table_confirm(**where, table=_int(post.get("table")) or 0)
        messages.success(request, _("The table is kept as recorded."))


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _line_from_post(post: Any) -> dict[str, Any]:
    kind = post.get("action")
    if kind == "draw":
        return {"kind": "draw"}
    line = {"kind": kind, "seat": post.get("seat"), "points": _int(post.get("points"))}
    if kind == "win":
        line["from"] = post.get("from") or None
    else:
        line["reason"] = post.get("reason", "")
    return line


def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """A table's score sheet on the players' phones; no account, the token is the key."""
    entry = selectors.table_entry_for_token(token)
    if entry is None:
        raise Http404
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action in ("win", "draw", "penalty"):
                services.table_entry_line_add(entry=entry, line=_line_from_post(request.POST))
            elif action == "remove":
                services.table_entry_line_remove(entry=entry,
                                                 number=_int(request.POST.get("number")) or 0)
            elif action == "agree":
                entry = services.table_entry_agree(entry=entry,
                                                   seat=request.POST.get("seat", ""))
                if entry.state == TableEntry.State.AGREED:
                    messages.success(request, _("All four agreed: the table is submitted."))
        except services.TournamentError as err:
            messages.error(request, error_message(err.code, err.params))
        except services.ResultsError as err:
            for problem in err.problems:
                messages.error(request, _problem_text(problem))
        return redirect("tournaments:table", token=token)
    return render(request, "tournaments/table_entry.html", _table_context(entry))


def _table_context(entry: TableEntry) -> dict[str, Any]:
    tournament = entry.tournament
    names = {r.player_id: r for r in selectors.tournament_registrations(tournament)}
    players = selectors.table_players(entry)
    seats = [{"wind": w, "label": Seat(w).label, "player": names.get(p),
              "agreed": w in entry.agreed}
             for w, p in zip(WINDS, players, strict=True)]
    label = {w: Seat(w).label for w in WINDS}
    view = sheet_view(entry.hands, rules=tournament.ruleset,
                      config=selectors.mcr_config(tournament) or DEFAULT_CONFIG)
    for seat, total in zip(seats, view.totals, strict=True):
        seat["total"] = total
    lines = []
    for number, (hand, running) in enumerate(zip(entry.hands, view.running, strict=True),
                                             start=1):
        kind = hand.get("kind")
        if kind == "win" and hand.get("from"):
            text = _("%(winner)s wins %(points)s points from %(from)s") % {
                "winner": label[hand["seat"]], "points": hand["points"],
                "from": label[hand["from"]]}
        elif kind == "win":
            text = _("%(winner)s wins %(points)s points, self-drawn") % {
                "winner": label[hand["seat"]], "points": hand["points"]}
        elif kind == "penalty":
            text = _("Penalty: %(offender)s, %(points)s points (%(reason)s)") % {
                "offender": label[hand["seat"]], "points": hand["points"],
                "reason": hand.get("reason", "")}
        else:
            text = _("Draw")
        lines.append({"number": number, "text": text, "running": running})
    closed = entry.state == TableEntry.State.AGREED
    return {
        "entry": entry, "tournament": tournament, "seats": seats, "lines": lines,
        "totals": view.totals, "problems": [_problem_text(p) for p in view.problems],
        "closed": closed, "can_agree": bool(entry.hands) and not view.problems and not closed,
        "winds": [{"wind": w, "label": label[w]} for w in WINDS],
    }


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


@login_required
def session_codes_pdf(request: HttpRequest, pk: int, session: int) -> HttpResponse:
    """The opened tables' QR codes, a page per table, to print and put on the tables."""
    tournament = _managed(request, pk, session)
    if tournament.state not in selectors.TABLE_ENTRY_OPEN:
        raise Http404
    tables = [(row.table, _table_url(request, row.entry.token))
              for row in selectors.session_tables(tournament, session)
              if row.entry is not None and row.state != "agreed"]
    if not tables:
        raise Http404
    response = HttpResponse(pdf.table_codes_pdf(tournament, session, tables),
                            content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="tournament-{tournament.pk}-session-{session}-tables.pdf"'
    )
    return response
