"""The organizer's pages of the tournament itself: a new tournament, editing it, the manage
page (checks, players, seating, sessions, decisions), submitting it, confirming the results.
Officers decide in the Wagtail admin (tournaments.viewsets).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import errors_as_messages, errors_on_form
from tournaments import selectors, services
from tournaments.forms import PlayerForm, SeatingForm, SeatingPublishForm, TournamentForm
from tournaments.models import SeatingAssignment, Session, Tournament
from tournaments.permissions import can_organize
from tournaments.problem_texts import check_message, seating_advice
from tournaments.rules import states
from tournaments.rules.seating_draw import drawn_repeat_pairs_bound
from tournaments.views._common import _names, _own, player_labels, problems_with_place


def _organizer_required(request: HttpRequest) -> None:
    if not can_organize(request.user):
        raise PermissionDenied


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    _organizer_required(request)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form, None) as outcome:
            tournament = services.tournament_create(organizer=request.user,
                                                    data=form.cleaned_data)
        if outcome.ok:
            messages.success(request, _("The tournament is saved as a draft."))
            return redirect("tournaments:manage", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=pk))
    if not (states.allows("update", tournament.state)
            or states.allows("amend", tournament.state)):
        raise PermissionDenied
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        resubmit = bool(data.pop("resubmit", False))
        with errors_on_form(form) as outcome:
            updated = services.tournament_update(tournament=tournament, user=request.user,
                                                 data=data, resubmit=resubmit)
        if outcome.ok:
            if updated.state != tournament.state:
                messages.info(request, _("The tournament is sent back to the accreditation "
                                         "officer."))
            else:
                messages.success(request, _("The tournament is saved."))
            return redirect("tournaments:manage", pk=pk)
    return render(request, "tournaments/tournament_form.html",
                  {"form": form, "tournament": tournament})


@login_required
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    checks = [
        {"level": c.level, "message": check_message(c.code, c.level, c.params)}
        for c in services.tournament_checks(tournament)
    ]
    entered = set(Session.objects.filter(tournament=tournament).values_list("number",
                                                                             flat=True))
    registrations = sorted(_names(tournament).values(), key=lambda r: r.number)
    # the players of the first session: neither substitutes nor withdrawn from it
    regular = sum(1 for r in registrations if not r.substitute and r.withdrawn_from != 1)
    free = sum(1 for r in registrations if r.substitute and r.withdrawn_from != 1)
    seated = SeatingAssignment.objects.filter(tournament=tournament)
    tables = seated.values("session", "table").distinct().count()
    drawn = tables > 0
    # the fewest repeat pairs the last draw could reach, the sessions it kept counted (a
    # changed field included); for a draw made before it was stored, the seating's own bound
    minimum = tournament.seating_repeat_minimum
    if minimum is None:
        minimum = (drawn_repeat_pairs_bound(
            tables, seated.values("player_id").distinct().count()) if drawn else 0)
    return render(request, "tournaments/manage.html", {
        "tournament": tournament,
        "checks": checks,
        "registrations": registrations,
        # rows naming a member number, waiting for the organizer (issue 37, item 2)
        "pending": tournament.pending_registrations.order_by("pk"),
        "seating_advice": seating_advice(regular, free) if registrations else "",
        "seating_minimum": minimum,
        "can_remove": not drawn and states.allows("register", tournament.state),
        "player_form": PlayerForm(),
        "seating_form": SeatingForm(initial={
            "seed": tournament.seating_seed or 1,
            "separate_countries": tournament.seating_separate_countries,
        }),
        "seated_sessions": selectors.tournament_sessions_seated(tournament),
        "publish_form": SeatingPublishForm(sessions=tournament.sessions, initial={
            "through": tournament.seating_published or tournament.sessions}),
        "session_numbers": [
            {"number": n, "entered": n in entered} for n in range(1, tournament.sessions + 1)
        ],
        "decisions": tournament.decisions.select_related("decided_by"),
        "flags": [f for f in selectors.unbalanced_tables(tournament) if f.confirmed_at is None],
        "can_edit": (states.allows("update", tournament.state)
                     or states.allows("amend", tournament.state)),
        "can_submit": states.allows("submit", tournament.state),
        "can_enter": states.allows("results", tournament.state),
        "can_confirm": states.allows("confirm", tournament.state),
        "can_register": states.allows("register", tournament.state),
        "can_correct": services.players_correction_open(tournament, request.user),
    })


@login_required
@require_POST
def submit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    with errors_as_messages(request):
        services.tournament_submit(tournament=tournament, user=request.user)
        messages.success(request, _("The tournament is submitted for accreditation."))
    return redirect("tournaments:manage", pk=pk)


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    names = player_labels(tournament)
    with errors_as_messages(request, describe=lambda error: problems_with_place(
            error, players=names)):
        services.tournament_confirm(tournament=tournament, user=request.user)
        messages.success(request, _("The results are confirmed."))
    return redirect("tournaments:manage", pk=pk)
