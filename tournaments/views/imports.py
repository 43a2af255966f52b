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
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.countries import country_choices
from core.errors import errors_as_messages
from core.imports import mapping_columns, mapping_posted
from core.spreadsheets import SpreadsheetError, spreadsheet_read
from federation.import_views import import_runs_page
from tournaments.models import PlayerClaim, Tournament
from tournaments.permissions import can_accredit, can_merge_players
from tournaments.services import identity
from tournaments.services.imports import (
    FIELDS,
    KIND,
    ImportRefused,
    ImportReport,
    tournament_import,
)

UPLOAD_SECONDS = 3600
"""How long an uploaded file waits between its preview and its commit."""


class TournamentImportForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("name"), max_length=200)
    ruleset = forms.ChoiceField(label=gettext_lazy("rules"), choices=Tournament.Ruleset.choices)
    start_date = forms.DateField(label=gettext_lazy("start date"),
                                 widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end_date = forms.DateField(label=gettext_lazy("end date"),
                               widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
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


def field_labels() -> dict[str, Any]:
    """The columns of a standings file as the mapping step names them."""
    return {
        "place": gettext_lazy("Place"), "first_name": gettext_lazy("First name"),
        "last_name": gettext_lazy("Last name"),
        "name": gettext_lazy("Name (first and last name in one column)"),
        "ema_number": gettext_lazy("EMA number"), "country": gettext_lazy("Country"),
        "table_points": gettext_lazy("Table points"),
        "score": gettext_lazy("Score (game points)"), "team": gettext_lazy("Team"),
    }


def _header(content: bytes) -> tuple[str, ...]:
    """The file's header for the mapping step (a file that cannot be read has none: the
    import's report says why)."""
    try:
        return spreadsheet_read(content).header
    except SpreadsheetError:
        return ()


def _runs(page: Any) -> Any:
    """The committed imports, latest first, a page of them, each with its tournament."""
    runs = import_runs_page(KIND, page)
    ids = {int(run.tournament_ref) for run in runs
           if run.tournament_ref and str(run.tournament_ref).isdigit()}
    names = {t.pk: str(t) for t in Tournament.objects.filter(pk__in=ids).only("pk", "name")}
    for run in runs:
        ref = str(run.tournament_ref or "")
        run.tournament_label = names.get(int(ref), "") if ref.isdigit() else ""
    return runs


def tournament_import_view(request: HttpRequest) -> HttpResponse:
    """Upload, map the file's columns and preview (the file is kept an hour under a
    token), then commit."""
    _officer(request)
    form = TournamentImportForm(request.POST or None, request.FILES or None)
    report: ImportReport | None = None
    committed = False
    choices: dict[int, int | None] = {}
    columns: list[dict[str, Any]] = []
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
            header = _header(content)
            # the guess from the headers, or the officer's choice per column (a new file
            # starts from the guess)
            mapping = mapping_posted(header, FIELDS,
                                     request.POST if data["file"] is None else {})
            columns = mapping_columns(header, mapping)
            try:
                report = tournament_import(user=request.user, data=fields, content=content,
                                           filename=filename, dry_run=not commit,
                                           choices=choices, mapping=mapping)
                committed = commit
            except ImportRefused as refused:
                report = refused.report
            if committed:
                cache.delete(f"tournament-import:{token}")
                messages.success(request, _("The tournament was imported."))
                columns = []
            form = TournamentImportForm(
                initial={**data, "upload": token, "file": None}) if not committed else \
                TournamentImportForm()
    return render(request, "tournaments/admin/import.html", {
        "form": form, "report": report, "committed": committed,
        "choices": {} if committed else {row: "new" if value is None else value
                                         for row, value in choices.items()},
        "columns": columns,
        "field_choices": list(field_labels().items()),
        "runs": _runs(request.GET.get("page")), "show_tournament": True,
    })


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
