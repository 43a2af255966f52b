"""Entry at the table (docs/decisions/0710-table-side-entry.md).

The organizer's session view (``/<lang>/tournaments/<pk>/sessions/<n>/``: which tables are
in, which are missing, what the core found, a QR code per table) and the table's own page
(``/<lang>/tournaments/table/<token>/``), reached without an account through the token of
the QR code. Plain forms: every submit saves and comes back to the page, so the page works
without JavaScript; its script (``tournaments/table_entry.js``) scores a hand typed as tiles
while it is typed (``table/<token>/score/``) and keeps a submit that could not be sent in
the page until it goes through. Thin: each action is one service call.

The session view's other forms are handled beside their subject: the clock's in
``tournaments.views.clock``, the penalties' in ``tournaments.views.penalties``.
"""

from __future__ import annotations

import secrets
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import DomainError, errors_as_messages, errors_collected
from core.site_url import site_base_url
from rulebook import error_texts
from rulebook.calculator import FLAGS
from rulebook.calculator_texts import FLAG_NAMES, WIND_NAMES
from rulebook.calculator_views import palette
from rulebook.fan_labels import fan_name_map
from rulebook.scoring import DEFAULT_CONFIG
from rulebook.scoring.result import ScoreError
from rulebook.scoring.standings import WINDS, Problem
from tournaments import pdf, selectors, services
from tournaments.models import Penalty, Seat, TableEntry, Tournament
from tournaments.permissions import can_manage, is_organizer
from tournaments.problem_texts import problem_message
from tournaments.table_sheet import line_score, sheet_view
from tournaments.views._common import _int
from tournaments.views.clock import CLOCK_ACTIONS, clock_action
from tournaments.views.penalties import ORGANIZER_ACTIONS, organizer_action
from tournaments.views.results import held_tables


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
        with errors_as_messages(request):
            if action in CLOCK_ACTIONS:
                clock_action(request, tournament, session, action)
            elif action in ORGANIZER_ACTIONS:
                organizer_action(request, tournament, session, action)
            elif action in HOLD_CHOICES:
                _hold_choice(request, tournament, session, HOLD_CHOICES[action])
            else:
                services.table_entries_open(tournament=tournament, session=session,
                                            user=request.user)
        if request.POST.get("next") in ("sheet", "totals"):  # the page the choice came from
            return redirect(f"tournaments:{request.POST['next']}", pk=pk, session=session)
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
    seats = selectors.session_seats(tournament, session)
    for r in rows:
        r["flag"] = flags.get(r["row"].table)
        r["seats"] = seats.get(r["row"].table, [])
    return render(request, "tournaments/session.html", {
        "tournament": tournament, "session": session, "rows": rows,
        "can_penalize": (is_organizer(request.user, tournament)
                         and tournament.state in open_states),
        "registrations": selectors.tournament_registrations(tournament),
        "penalties": [p for p in selectors.tournament_penalties(tournament)
                      if p.penalty.session == session],
        "absences": [a for a in selectors.tournament_absences(tournament)
                     if a.session == session],
        "kinds": Penalty.Kind.choices,
        "sessions": range(1, tournament.sessions + 1),
        "can_open": tournament.state in open_states,
        "can_choose": is_organizer(request.user, tournament),
        "held": held_tables(tournament, session),
        "unopened": any(r["row"].entry is None and r["row"].state != "agreed" for r in rows),
        "clock": selectors.session_clock(tournament, session),
        "counts": {state: sum(1 for r in rows if r["row"].state == state)
                   for state in ("missing", "entered", "agreed")},
    })


HOLD_CHOICES = {"keep_organizer": services.KEEP_ORGANIZER, "keep_table": services.KEEP_TABLE}
"""The session view's buttons for a table held for the organizer's choice."""


def _hold_choice(request: HttpRequest, tournament: Tournament, session: int, keep: str) -> None:
    """The organizer keeps their results of a held table or takes the players'."""
    if not is_organizer(request.user, tournament):
        raise PermissionDenied
    entry = get_object_or_404(TableEntry, tournament=tournament, session=session,
                              table=_int(request.POST.get("table")) or 0)
    services.table_entry_hold_resolve(entry=entry, user=request.user, keep=keep)
    messages.success(request, _("Session %(n)s is saved.") % {"n": session})


def _line_from_post(post: Any, rules: str) -> dict[str, Any]:
    kind = post.get("action")
    ident = {"id": post.get("line") or None}
    if kind == "draw":
        return {"kind": "draw", **ident}
    line = {"kind": kind, "seat": post.get("seat"), "points": _int(post.get("points")),
            **ident}
    if kind == "win":
        line["from"] = post.get("from") or None
        tiles = "".join(str(post.get("tiles") or "").split())
        if tiles:
            line["tiles"] = tiles
            context: dict[str, Any] = {"seat": post.get("seat_wind") or "E",
                                       "prevalent": post.get("prevalent") or "E"}
            for flag in FLAGS.get(rules, ()):
                if post.get(flag):
                    context[flag] = True
            line["context"] = context
    else:
        line["reason"] = post.get("reason", "")
    return line


def _tiles_error(problem: Problem, tiles: str) -> dict[str, Any]:
    """A problem of a hand as tiles, in words: what is wrong and the tile or meld at
    fault (the calculator's wording), with the notation cut around it."""
    if problem.field != "tiles":
        return {"title": problem_message(problem), "where": None, "marked": None}
    text = error_texts.error_text(ScoreError(
        problem.code, problem.message, problem.params.get("position"), "", {}), tiles)
    return {"title": text.title, "where": text.where, "before": text.before,
            "marked": text.marked if text.position is not None else None,
            "after": text.after}


def _problems_or_words(error: DomainError) -> list[Problem | str]:
    """The problems of a refused sheet, to show each at its place; another refusal's words."""
    if isinstance(error, services.ResultsError):
        return list(error.problems)
    return list(error.messages())


def _is_fetch(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """A table's score sheet on the players' phones; no account, the token is the key.

    Each submit is a plain form post (post/redirect/get). The page's script sends the same
    forms with ``X-Requested-With: fetch`` and gets ``{"ok": ...}`` instead of a redirect
    (the messages wait for the page's next load). A hand as tiles that the core cannot
    score is not added: without the script the page comes back with the tiles kept and the
    tile at fault shown."""
    entry = selectors.table_entry_for_token(token)
    if entry is None:
        raise Http404
    if request.method != "POST":
        return render(request, "tournaments/table_entry.html", _table_context(entry))
    action = request.POST.get("action")
    refused: list[Problem | str] = []
    with errors_collected(refused, describe=_problems_or_words) as outcome:
        if action in ("win", "draw", "penalty"):
            services.table_entry_line_add(
                entry=entry, line=_line_from_post(request.POST, entry.tournament.ruleset))
        elif action == "remove":
            services.table_entry_line_remove(
                entry=entry, number=_int(request.POST.get("number")),
                line_id=request.POST.get("line") or None)
        elif action == "agree":
            entry = services.table_entry_agree(entry=entry, seat=request.POST.get("seat", ""),
                                               sheet=request.POST.get("sheet") or None)
            if entry.state == TableEntry.State.AGREED:
                messages.success(request, _("All four agreed: the table is submitted."))
    ok = outcome.ok
    # a hand as tiles that the core cannot score is shown with its tiles; the rest as messages
    tiles = "".join(str(request.POST.get("tiles") or "").split())
    tiles_problem: dict[str, Any] | None = None
    for problem in refused:
        if isinstance(problem, str):
            messages.error(request, problem)
        elif action == "win" and tiles and problem.field in ("tiles", "context"):
            tiles_problem = _tiles_error(problem, tiles)
        else:
            messages.error(request, _problem_text(problem))
    if _is_fetch(request):
        if tiles_problem is not None:
            messages.error(request, " ".join(
                str(t) for t in (tiles_problem["title"], tiles_problem["where"]) if t))
        return JsonResponse({"ok": ok, "problem": tiles_problem,
                             "organizer_entered": services.organizer_version(entry) is not None,
                             }, status=200 if ok else 400)
    if tiles_problem is not None:
        context = _table_context(entry)
        context.update(tiles_problem=tiles_problem, form=request.POST, open_tiles=True)
        return render(request, "tournaments/table_entry.html", context)
    return redirect("tournaments:table", token=token)


def table_score(request: HttpRequest, token: str) -> JsonResponse:
    """A hand typed as tiles, scored by the core as the sheet will score it (the
    tournament's rules and variant), for the table's page while the hand is typed:
    ``{"ok": true, "points", "fans": [{"id", "name", "count"}]}`` or ``{"ok": false,
    "problem": {"field", "title", "where"}}``. The same token as the page; nothing is
    stored."""
    entry = selectors.table_entry_for_token(token)
    if entry is None:
        raise Http404
    tournament = entry.tournament
    params = request.GET.copy()
    params["action"] = "win"
    line = _line_from_post(params, tournament.ruleset) | {"points": None, "id": None}
    if not line.get("tiles"):
        return JsonResponse({"ok": False, "problem": {"field": "tiles", "title": str(
            error_texts.CODE_TEXT["empty_hand"]), "where": None}})
    refused: list[dict[str, Any]] = []
    with errors_collected(refused, describe=lambda error: [
            {"field": error.field, "title": error.message, "where": None}]) as outcome:
        clean = services.table_entry_line_check(entry=entry, line=line)
    if not outcome.ok:
        return JsonResponse({"ok": False, "problem": refused[0]})
    outcome = line_score(clean, rules=tournament.ruleset,
                         config=selectors.mcr_config(tournament) or DEFAULT_CONFIG,
                         number=len(entry.hands) + 1)
    if isinstance(outcome, Problem):
        problem = _tiles_error(outcome, clean["tiles"])
        return JsonResponse({"ok": False, "problem": {
            "field": outcome.field, "title": problem["title"], "where": problem["where"]}})
    names = fan_name_map(tournament.ruleset)
    fans: dict[str, int] = {}
    for fid in outcome.fans:
        fans[fid] = fans.get(fid, 0) + 1
    # the words with the number's plural form ("29 очков", issue 38): the page says them
    points_text = ngettext("%(n)s point", "%(n)s points", outcome.points) % {
        "n": outcome.points}
    return JsonResponse({"ok": True, "points": outcome.points, "points_text": points_text,
                         "fans": [
        {"id": fid, "name": names.get(fid, fid), "count": count}
        for fid, count in fans.items()]})


def _count(value: Any) -> int:
    """A number for choosing the plural form (a value that is none counts as many)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return 2


def _line_text(hand: dict[str, Any], label: dict[str, Any]) -> str:
    kind = hand.get("kind")
    if kind == "win" and hand.get("from"):
        return ngettext("%(winner)s wins %(points)s point from %(from)s",
                        "%(winner)s wins %(points)s points from %(from)s",
                        _count(hand["points"])) % {
            "winner": label[hand["seat"]], "points": hand["points"],
            "from": label[hand["from"]]}
    if kind == "win":
        return ngettext("%(winner)s wins %(points)s point, self-drawn",
                        "%(winner)s wins %(points)s points, self-drawn",
                        _count(hand["points"])) % {
            "winner": label[hand["seat"]], "points": hand["points"]}
    if kind == "penalty":
        return ngettext("Penalty: %(offender)s, %(points)s point (%(reason)s)",
                        "Penalty: %(offender)s, %(points)s points (%(reason)s)",
                        _count(hand["points"])) % {
            "offender": label[hand["seat"]], "points": hand["points"],
            "reason": hand.get("reason", "")}
    return _("Draw")


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
        lines.append({"number": number, "id": hand.get("id") or "",
                      "text": _line_text(hand, label), "tiles": hand.get("tiles") or "",
                      "running": running})
    closed = entry.state == TableEntry.State.AGREED
    return {
        "entry": entry, "tournament": tournament, "seats": seats, "lines": lines,
        "totals": view.totals, "problems": [_problem_text(p) for p in view.problems],
        # the organizer entered this table's results: agreeing does not replace them
        "organizer_entered": services.organizer_version(entry) is not None,
        "closed": closed, "can_agree": bool(entry.hands) and not view.problems and not closed,
        "winds": [{"wind": w, "label": label[w], "name": WIND_NAMES[w]} for w in WINDS],
        "sheet": services.sheet_digest(entry.hands),
        # a fresh id for each form: the same submit sent twice adds its line once
        "line_ids": {kind: secrets.token_urlsafe(12) for kind in ("win", "draw", "penalty")},
        "flags": [{"name": f, "label": FLAG_NAMES[f]}
                  for f in FLAGS.get(tournament.ruleset, ())],
        "palette": palette(),
        "prevalent": WINDS[(sum(1 for h in entry.hands if h.get("kind") != "penalty") // 4)
                           % 4],
        "form": {}, "tiles_problem": None, "open_tiles": False,
    }


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
