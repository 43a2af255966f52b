"""Corrections of a tournament's registered players (names as the EMA lists them, country,
EMA number) by its organizer or an accreditation officer, and the EMA results sheet's page:
the sheet as it will read, or the players to fix before it can be taken (decision 0720).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from core.errors import errors_on_form
from tournaments import ema_export, selectors, services
from tournaments.forms import PlayerCorrectionForm
from tournaments.models import Player, Tournament
from tournaments.permissions import can_manage
from tournaments.rules import states
from tournaments.views._common import _visible


def _managed(request: HttpRequest, pk: int) -> Tournament:
    tournament = _visible(request, pk)
    if not can_manage(request.user, tournament):
        raise PermissionDenied
    return tournament


@login_required
def player_correct(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    """The organizer (until they take the EMA sheet) or an officer corrects a registered
    player; back to the EMA sheet's page when they came from it, else to the players."""
    tournament = _managed(request, pk)
    registration = get_object_or_404(
        tournament.registrations.select_related("player"), player_id=player)
    target = registration.player
    back_to_sheet = request.GET.get("next") == "sheet" or request.POST.get("next") == "sheet"
    back = (reverse("tournaments:ema_sheet", args=[pk]) if back_to_sheet
            else reverse("tournaments:detail", args=[pk]) + "#players")
    if not services.players_correction_open(tournament, request.user):
        raise PermissionDenied(_("The EMA results sheet was taken: ask an accreditation "
                                 "officer to correct the players now."))
    first, last = target.latin_first_last
    form = PlayerCorrectionForm(request.POST or None, initial={
        "first_name": first, "last_name": last, "country": target.country,
        "ema_number": target.ema_number,
    })
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form) as outcome:
            services.player_correct(tournament=tournament, player=target, user=request.user,
                                    **form.cleaned_data)
        if outcome.ok:
            messages.success(request, _("%(name)s is corrected.")
                             % {"name": f"{form.cleaned_data['first_name']} "
                                        f"{form.cleaned_data['last_name']}"})
            return redirect(back)
    return render(request, "tournaments/player_correct.html", {
        "tournament": tournament, "registration": registration, "form": form,
        "back": back, "next": "sheet" if back_to_sheet else "",
    }, status=400 if form.errors else 200)


@login_required
def ema_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The EMA results sheet as it will read, each row with a link to correct its player;
    or, while it is refused, the players to fix first, each with that link (409)."""
    tournament = _managed(request, pk)
    if not states.allows("ema-results", tournament.state):
        raise Http404(_("The results are not confirmed yet."))
    standings = selectors.tournament_ema_standings(tournament)
    missing = ema_export.players_to_fix(standings, mers=tournament.mers)
    fix = []
    if missing:
        players = Player.objects.in_bulk(missing)
        fix = [players[pk] for pk in missing]
    rows = ema_export.ema_rows(standings)
    by_place = sorted((s for s in standings if not s.substitute),
                      key=lambda s: (s.rank, s.player))
    return render(request, "tournaments/ema_sheet.html", {
        "tournament": tournament, "fix": fix,
        "rows": list(zip(rows, (s.player for s in by_place), strict=True)),
        "header": ema_export.HEADER,
        "can_correct": services.players_correction_open(tournament, request.user),
    }, status=409 if fix else 200)
