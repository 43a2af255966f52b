"""Wagtail admin for accreditation officers: tournaments (list, inspect), the decision page
with the checks (accredit / reject with reasons), the MERS flag and weight after
accreditation and corrections of confirmed results."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail.admin.ui.tables import TitleColumn
from wagtail.admin.viewsets.base import ViewSetGroup
from wagtail.admin.viewsets.model import ModelViewSet

from core.errors import errors_collected
from tournaments.permissions import can_accredit
from tournaments.selectors.mers import mers_weight_computed
from tournaments.views._common import problems_with_place

from . import services
from .forms import CorrectionForm, DecisionForm, MersWeightForm
from .models import Accreditation, Player, Session, Tournament
from .problem_texts import check_message
from .rules import states
from .rules.results_files import parse_results_csv


class DecideColumn(TitleColumn):
    def get_value(self, instance: Tournament) -> str:
        if instance.state == Tournament.State.SUBMITTED:
            return str(_("Decide"))
        if instance.state == Tournament.State.RESULTS_CONFIRMED:
            return str(_("Correct results"))
        return str(_("Checks and log"))


class TournamentViewSet(ModelViewSet):
    model = Tournament
    icon = "date"
    menu_label = gettext_lazy("Tournaments")
    add_to_admin_menu = False
    copy_view_enabled = False
    inspect_view_enabled = True
    list_display = [
        "name", "start_date", "city", "country", "ruleset", "state", "organizer",
        DecideColumn("decide", label=gettext_lazy("Accreditation"),
                     get_url=lambda t: reverse("tournament_decide", args=[t.pk])),
    ]
    list_filter = ["state", "ruleset"]
    search_fields = ["name", "city"]
    form_fields = ["name", "start_date", "end_date", "city", "country", "venue", "club",
                   "ruleset", "sessions", "planned_players"]


class AccreditationViewSet(ModelViewSet):
    model = Accreditation
    icon = "list-ul"
    menu_label = gettext_lazy("Decision log")
    add_to_admin_menu = False
    copy_view_enabled = False
    inspect_view_enabled = True
    list_display = ["tournament", "action", "reason", "decided_by", "decided_at"]
    list_filter = ["action"]
    form_fields = ["reason"]


class PlayerViewSet(ModelViewSet):
    model = Player
    icon = "user"
    menu_label = gettext_lazy("Players")
    add_to_admin_menu = False
    copy_view_enabled = False
    list_display = ["name_latin", "name_native", "country", "ema_number", "member"]
    search_fields = ["name_latin", "name_native", "ema_number"]
    form_fields = ["name_latin", "name_native", "country", "ema_number", "member"]


class TournamentViewSetGroup(ViewSetGroup):
    menu_label = gettext_lazy("Tournaments")
    menu_icon = "date"
    menu_order = 320
    items = (
        TournamentViewSet("tournament_admin"),
        AccreditationViewSet("tournament_decisions"),
        PlayerViewSet("tournament_players"),
    )


def decide_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The checks of a tournament and the officer's decision, or a correction of its
    confirmed results (a CSV of the corrected sessions and a reason)."""
    if not can_accredit(request.user):
        raise PermissionDenied
    tournament = get_object_or_404(Tournament.objects.select_related("club", "organizer"),
                                   pk=pk)
    form = DecisionForm(request.POST or None)
    correction = CorrectionForm(request.POST or None, request.FILES or None,
                                prefix="correction")
    computed = mers_weight_computed(tournament)
    mers = MersWeightForm(
        request.POST if "mers-save" in request.POST else None, prefix="mers",
        initial={"mers": tournament.mers,
                 "mers_weight": tournament.mers_weight or computed.total,
                 "qualification": tournament.mers_qualification,
                 "reason": tournament.mers_weight_reason})
    problems: list[str] = []
    if request.method == "POST" and "mers-save" in request.POST:
        if mers.is_valid():
            with errors_collected(problems) as outcome:
                services.tournament_mers_set(
                    tournament=tournament, user=request.user, mers=mers.cleaned_data["mers"],
                    mers_weight=mers.cleaned_data["mers_weight"],
                    reason=mers.cleaned_data["reason"],
                    qualification=mers.cleaned_data["qualification"])
            if outcome.ok:
                messages.success(request, _("The MERS certification is recorded."))
                return redirect("tournament_decide", pk=pk)
    elif request.method == "POST" and request.POST.get("decision") in ("accredit", "reject"):
        if form.is_valid():
            with errors_collected(problems) as outcome:
                services.tournament_decide(
                    tournament=tournament, user=request.user,
                    decision=request.POST["decision"], reason=form.cleaned_data["reason"],
                    mers=form.cleaned_data["mers"], mers_weight=form.cleaned_data["mers_weight"])
            if outcome.ok:
                tournament.refresh_from_db()
                messages.success(request, _("%(name)s: %(state)s.") % {
                    "name": tournament.name, "state": tournament.get_state_display()})
                return redirect("tournament_decide", pk=pk)
    elif (request.method == "POST" and "correction-reason" in request.POST
          and correction.is_valid()):
        text = correction.cleaned_data["file"].read().decode("utf-8-sig", "replace")
        sessions, parse_problems = parse_results_csv(text)
        with errors_collected(problems, describe=problems_with_place) as outcome:
            if parse_problems:
                raise services.ResultsError(services.results_problems(
                    tournament=tournament, sessions=sessions, parse_problems=parse_problems))
            services.tournament_correct(
                tournament=tournament, user=request.user, sessions=sessions,
                reason=correction.cleaned_data["reason"], source=Session.Source.CSV)
        if outcome.ok:
            messages.success(request, _("The results are corrected."))
            return redirect("tournament_decide", pk=pk)
    checks = [
        {"level": c.level, "message": check_message(c.code, c.level, c.params)}
        for c in services.tournament_checks(tournament)
    ]
    return render(request, "tournaments/admin/decide.html", {
        "tournament": tournament, "checks": checks, "form": form, "correction": correction,
        "problems": problems, "decisions": tournament.decisions.select_related("decided_by"),
        "mers": mers, "mers_open": (tournament.state != Tournament.State.SUBMITTED
                                    and states.allows("mers", tournament.state)),
        "players": tournament.registrations.count(), "mers_computed": computed,
    })


__all__ = ["TournamentViewSetGroup", "decide_view"]
