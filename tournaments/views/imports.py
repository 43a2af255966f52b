"""The admin pages of issue 35 in tournaments: the accreditation officer imports a past
tournament's final standings (upload, preview with the review, commit; the reports kept);
the membership officer decides the members' claims of players."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.countries import country_choices
from core.errors import errors_as_messages
from tournaments.models import PlayerClaim, Tournament, TournamentImport
from tournaments.permissions import can_accredit, can_merge_players
from tournaments.services import identity
from tournaments.services.imports import ImportRefused, ImportReport, tournament_import

UPLOAD_SECONDS = 3600
"""How long an uploaded file waits between its preview and its commit."""


class TournamentImportForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("name"), max_length=200)
    ruleset = forms.ChoiceField(label=gettext_lazy("rules"), choices=Tournament.Ruleset.choices)
    start_date = forms.DateField(label=gettext_lazy("start date"),
                                 widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=gettext_lazy("end date"),
                               widget=forms.DateInput(attrs={"type": "date"}))
    city = forms.CharField(label=gettext_lazy("city"), max_length=100)
    country = forms.ChoiceField(label=gettext_lazy("country"))
    mers = forms.BooleanField(label=gettext_lazy("MERS tournament"), required=False)
    mers_weight = forms.DecimalField(label=gettext_lazy("MERS weight"), required=False,
                                     max_digits=4, decimal_places=2, min_value=0)
    abroad = forms.BooleanField(label=gettext_lazy("abroad"), required=False)
    rated = forms.BooleanField(label=gettext_lazy("counts in our rating list"),
                               required=False, initial=True)
    file = forms.FileField(label=gettext_lazy("file"), required=False)
    upload = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "—"), *country_choices()]


def _officer(request: HttpRequest) -> None:
    if not can_accredit(request.user):
        raise PermissionDenied


def tournament_import_view(request: HttpRequest) -> HttpResponse:
    """Upload and preview (the file is kept an hour under a token), then commit."""
    _officer(request)
    form = TournamentImportForm(request.POST or None, request.FILES or None)
    report: ImportReport | None = None
    committed = False
    choices: dict[int, int | None] = {}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        token = data["upload"] or ""
        if data["file"] is not None:
            token = secrets.token_urlsafe(16)
            cache.set(f"tournament-import:{token}", (data["file"].read(), data["file"].name),
                      UPLOAD_SECONDS)
        stored = cache.get(f"tournament-import:{token}") if token else None
        if stored is None:
            form.add_error("file", _("Choose the file of the final standings."))
        else:
            content, filename = stored
            fields = {
                "name": data["name"], "ruleset": data["ruleset"],
                "start_date": data["start_date"].isoformat(),
                "end_date": data["end_date"].isoformat(), "city": data["city"],
                "country": data["country"], "mers": "true" if data["mers"] else "",
                "mers_weight": str(data["mers_weight"] or ""),
                "abroad": "true" if data["abroad"] else "",
                "rated": "true" if data["rated"] else "false",
            }
            for key, value in request.POST.items():
                if key.startswith("choice-") and key[7:].isdigit() and value:
                    choices[int(key[7:])] = None if value == "new" else int(value) \
                        if value.isdigit() else None
            commit = "commit" in request.POST
            try:
                report = tournament_import(user=request.user, data=fields, content=content,
                                           filename=filename, dry_run=not commit,
                                           choices=choices)
                committed = commit
            except ImportRefused as refused:
                report = refused.report
            if committed:
                cache.delete(f"tournament-import:{token}")
                messages.success(request, _("The tournament was imported."))
            form = TournamentImportForm(
                initial={**data, "upload": token, "file": None}) if not committed else \
                TournamentImportForm()
    return render(request, "tournaments/admin/import.html", {
        "form": form, "report": report, "committed": committed,
        "choices": {} if committed else {row: "new" if value is None else value
                                         for row, value in choices.items()},
        "imports": TournamentImport.objects.select_related("tournament", "imported_by")[:20],
    })


def tournament_import_report(request: HttpRequest, pk: int) -> HttpResponse:
    """A committed import's report (counts and every decision), as a JSON download."""
    _officer(request)
    record = get_object_or_404(TournamentImport, pk=pk)
    response = JsonResponse(record.report, json_dumps_params={"ensure_ascii": False,
                                                              "indent": 2})
    response["Content-Disposition"] = (
        f'attachment; filename="tournament-import-{record.pk}-report.json"')
    return response


def _membership_officer(request: HttpRequest) -> None:
    if not can_merge_players(request.user):
        raise PermissionDenied


def player_claims_view(request: HttpRequest) -> HttpResponse:
    _membership_officer(request)
    claims = PlayerClaim.objects.filter(state=PlayerClaim.State.PENDING) \
        .select_related("player", "member")
    return render(request, "tournaments/admin/claims.html", {"claims": claims})


@require_POST
def player_claim_decide_view(request: HttpRequest, pk: int) -> HttpResponse:
    _membership_officer(request)
    claim = get_object_or_404(PlayerClaim, pk=pk)
    confirm = request.POST.get("decision") == "confirm"
    with errors_as_messages(request) as outcome:
        identity.player_claim_decide(claim=claim, user=request.user, confirm=confirm)
    if outcome.ok:
        messages.success(request, _("Confirmed.") if confirm else _("Refused."))
    return redirect("tournament_player_claims")
