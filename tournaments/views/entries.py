"""Players' own entries (issue 24): the public entrants list and the entry form,
withdrawing an entry; the organizer's entries page (decisions, cash, registering the
confirmed entries) and its exports for the venue; the treasurer's view of entry fees.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core import csv_export
from core.errors import DomainError, errors_as_messages, errors_on_form
from tournaments import selectors, services, xlsx
from tournaments.forms import EntryDecisionForm, EntryForm
from tournaments.models import Entry, Tournament
from tournaments.permissions import is_organizer
from tournaments.views._common import _own, _visible


def _entry_initial(user: Any) -> dict[str, str]:
    from federation.selectors import member_for_user

    member = member_for_user(user)
    if member is None:
        return {"first_name": user.first_name, "last_name": user.last_name}
    first, _space, last = member.name_latin.partition(" ")
    country = countries_alpha2(member.country)
    return {"first_name": first, "last_name": last, "country": country}


def countries_alpha2(value: str) -> str:
    from django_countries import countries

    return countries.alpha2(value or "") or ""


def entrants(request: HttpRequest, pk: int) -> HttpResponse:
    """The public entrants list: name, country, club, paid or waiting (no amounts); the
    signed-in person's own entry with its invoice and a withdraw button; the entry form."""
    tournament = _visible(request, pk)
    rows = selectors.tournament_entries(tournament, public=True)
    own = None
    if request.user.is_authenticated:
        own = next((r for r in rows if r.entry.user_id == request.user.pk), None)
    form = None
    if request.user.is_authenticated and own is None and selectors.entries_open(tournament):
        form = EntryForm(initial=_entry_initial(request.user), tournament=tournament)
    dues_unpaid = selectors.dues_unpaid_fee(
        request.user, tournament, fee=own.entry.fee if own else None) if (
        form is not None or own is not None) else None
    return render(request, "tournaments/entrants.html", {
        "tournament": tournament, "rows": rows, "own": own, "form": form,
        "places": selectors.places_left(tournament), "dues_unpaid": dues_unpaid,
    })


def _dues_unpaid_text(unpaid: selectors.DuesUnpaid) -> str:
    return _("You are charged the fee for non-members (%(fee)s %(currency)s instead of "
             "%(member_fee)s %(currency)s) because your membership dues are not paid.") % {
        "fee": unpaid.fee, "member_fee": unpaid.member_fee, "currency": unpaid.currency}


@login_required
@require_POST
def enter(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _visible(request, pk)
    form = EntryForm(request.POST, tournament=tournament)
    if form.is_valid():
        with errors_on_form(form) as outcome:
            entry = services.entry_create(tournament=tournament, user=request.user,
                                          **form.cleaned_data)
        if outcome.ok:
            if entry.status == "waiting":
                messages.info(request, _("The tournament is full: you are on the waiting list."))
            else:
                messages.success(request, _("Your entry is received: a place is held for you."))
            unpaid = selectors.dues_unpaid_fee(request.user, tournament, fee=entry.fee)
            if unpaid:
                messages.warning(request, _dues_unpaid_text(unpaid))
            return redirect("tournaments:entrants", pk=tournament.pk)
    rows = selectors.tournament_entries(tournament, public=True)
    return render(request, "tournaments/entrants.html", {
        "tournament": tournament, "rows": rows, "own": None, "form": form,
        "places": selectors.places_left(tournament),
        "dues_unpaid": selectors.dues_unpaid_fee(request.user, tournament),
    }, status=400)


@login_required
@require_POST
def entry_withdraw(request: HttpRequest, pk: int, entry: int) -> HttpResponse:
    """The person who entered, or the tournament's organizer."""
    tournament = _visible(request, pk)
    row = get_object_or_404(Entry, pk=entry, tournament=tournament)
    if row.user_id != request.user.pk and not is_organizer(request.user, tournament):
        raise PermissionDenied
    with errors_as_messages(request) as outcome:
        services.entry_withdraw(entry=row, user=request.user)
    if outcome.ok:
        messages.success(request, _("The entry is withdrawn."))
    if is_organizer(request.user, tournament) and row.user_id != request.user.pk:
        return redirect("tournaments:entries", pk=tournament.pk)
    return redirect("tournaments:entrants", pk=tournament.pk)


@login_required
def entries_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer's view: every entry with contact details, fee and payment, actions,
    what was collected and what is open."""
    tournament = _own(request, pk)
    return render(request, "tournaments/entries.html", {
        "tournament": tournament,
        "rows": selectors.tournament_entries(tournament),
        "collected": selectors.entries_collected(tournament),
        "places": selectors.places_left(tournament),
    })


@login_required
@require_POST
def entry_decide(request: HttpRequest, pk: int, entry: int) -> HttpResponse:
    """The organizer confirms, refuses (with a reason), withdraws or records cash."""
    tournament = _own(request, pk)
    row = get_object_or_404(Entry, pk=entry, tournament=tournament)
    form = EntryDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose an action."))
        return redirect("tournaments:entries", pk=tournament.pk)
    action = form.cleaned_data["action"]
    with errors_as_messages(request) as outcome:
        if action == "cash":
            services.entry_cash_record(entry=row, user=request.user)
        elif action == "full_fee":
            services.entry_full_fee(entry=row, user=request.user)
        elif action == "withdraw":
            services.entry_withdraw(entry=row, user=request.user)
        else:
            services.entry_decide(entry=row, user=request.user, decision=action,
                                  reason=form.cleaned_data["reason"])
    if outcome.ok:
        messages.success(request, _("Done."))
    return redirect("tournaments:entries", pk=tournament.pk)


def _entry_problems(error: DomainError) -> list[str]:
    problems = getattr(error, "problems", None)
    if problems is None:
        return error.messages()
    return [f"{p.params['entry']}: {message}" if "entry" in p.params else message
            for p, message in zip(problems, error.messages(), strict=True)]


@login_required
@require_POST
def entries_register(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    # every problem of the entries in one message, each naming its entry
    with errors_as_messages(request, describe=lambda error: ["; ".join(_entry_problems(error))]
                            ) as outcome:
        count = services.entries_register(tournament=tournament, user=request.user)
    if outcome.ok:
        messages.success(request, ngettext(
            "%(count)d confirmed entry is now registered.",
            "%(count)d confirmed entries are now registered.", count) % {"count": count})
    return redirect("tournaments:entries", pk=tournament.pk)


ENTRIES_EXPORT_HEADER = [
    "id", "status", "first_name", "last_name", "country", "club", "email", "phone",
    "ema_number", "team", "fee", "reduced", "paid", "outstanding", "invoice", "refund",
]


def _entries_export_rows(tournament: Tournament) -> list[list[Any]]:
    rows = []
    for row in selectors.tournament_entries(tournament):
        e = row.entry
        rows.append([
            e.pk, e.status, e.first_name, e.last_name, e.country,
            e.member.club.name if e.member and e.member.club_id else "",
            (e.member.email if e.member and e.member.email else e.user.email),
            e.member.phone if e.member else "", e.ema_number, e.team, e.fee,
            "yes" if e.reduced else "no", "yes" if row.paid else "no", row.outstanding,
            e.invoice.number if e.invoice_id else "", "" if e.refund is None else e.refund,
        ])
    return rows


@login_required
def entries_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer's export for the venue (through the site's one CSV writer)."""
    tournament = _own(request, pk)
    return csv_export.csv_response(f"tournament-{tournament.pk}-entries.csv",
                                   ENTRIES_EXPORT_HEADER, _entries_export_rows(tournament))


@login_required
def entries_xlsx(request: HttpRequest, pk: int) -> HttpResponse:
    """The same export as XLSX; formula-like names are stored as text."""
    tournament = _own(request, pk)
    response = HttpResponse(content_type=xlsx.CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-entries.xlsx"'
    # EMA numbers and phone numbers stay text
    xlsx.sheet_write(response, tournament.name, ENTRIES_EXPORT_HEADER,
                     _entries_export_rows(tournament), text_columns=(7, 8))
    return response


@login_required
def entry_fees(request: HttpRequest) -> HttpResponse:
    """The treasurer's view of entry fees: per tournament, collected and open."""
    if not request.user.has_perm("federation.view_duesinvoice"):
        raise PermissionDenied
    return render(request, "tournaments/entry_fees.html", {
        "rows": selectors.entry_fees_by_tournament(),
    })
