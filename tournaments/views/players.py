"""The organizer's players: registering one, removing one registered by mistake,
withdrawing one from a session on. A player named by member number waits for the
organizer's confirmation, which alone matches the number with the name (issue 37, item 2).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.errors import errors_as_messages, errors_collected, errors_on_form
from core.throttles import member_lookups_allowed
from tournaments import selectors, services
from tournaments.forms import PlayerForm, WithdrawForm
from tournaments.models import PendingRegistration
from tournaments.views._common import _int, _own


@login_required
@require_POST
def players_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = PlayerForm(request.POST)
    if (form.is_valid() and form.cleaned_data.get("member_number") is not None
            and not member_lookups_allowed(request)):
        # the organizer's budget of member numbers, shared with the API (issue 37, item 2)
        messages.error(request, _("Too many member numbers were looked up; try again later."))
    elif form.is_valid():
        registered_before = set(tournament.registrations.values_list("pk", flat=True))
        with errors_as_messages(request):
            (registration,) = services.players_register(
                tournament=tournament, user=request.user,
                entries=[services.PlayerEntry(**form.cleaned_data)],
                hold_member_numbers=True,
            )
            if isinstance(registration, PendingRegistration):
                # the same words whether the number and the name belong together or not
                messages.info(request, _(
                    "The row with member number %(number)s waits for your confirmation "
                    "below.") % {"number": registration.member_number})
            elif registration.pk in registered_before:
                messages.warning(request, _("This player is already registered (No. %(number)s).")
                                 % {"number": registration.number})
            else:
                messages.success(request, _("The player is registered."))
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {' '.join(errors)}")
    return redirect(reverse("tournaments:manage", args=[pk]) + "#players")


@login_required
@require_POST
def pending_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer confirms one waiting row (``pending``) or all of them: each is matched
    now and registered; a number and a name that do not belong together are said, and the
    rows keep waiting."""
    tournament = _own(request, pk)
    rows = tournament.pending_registrations.order_by("pk")
    if request.POST.get("pending"):
        number = _int(request.POST["pending"]) or 0
        rows = rows.filter(pk=number if 0 < number < 2**31 else 0)
    rows = list(rows)
    if not rows:
        messages.error(request, _("No row waits for your confirmation."))
    elif not member_lookups_allowed(request, len(rows)):
        messages.error(request, _("Too many member numbers were looked up; try again later."))
    else:
        with errors_as_messages(request) as outcome:
            registrations = services.registrations_pending_confirm(
                tournament=tournament, user=request.user, pending=rows)
        if outcome.ok:
            messages.success(request, ngettext(
                "%(count)s player is registered.", "%(count)s players are registered.",
                len(registrations)) % {"count": len(registrations)})
    return redirect(reverse("tournaments:manage", args=[pk]) + "#pending")


@login_required
@require_POST
def pending_remove(request: HttpRequest, pk: int, pending: int) -> HttpResponse:
    """The organizer drops a waiting row."""
    tournament = _own(request, pk)
    row = get_object_or_404(tournament.pending_registrations, pk=pending)
    services.registration_pending_remove(pending=row, user=request.user)
    messages.success(request, _("The row with member number %(number)s is removed.")
                     % {"number": row.member_number})
    return redirect(reverse("tournaments:manage", args=[pk]) + "#players")


@login_required
def remove(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    """The organizer removes a player registered by mistake, before the seating is drawn
    (GET: the confirmation, with Cancel)."""
    tournament = _own(request, pk)
    registration = get_object_or_404(
        tournament.registrations.select_related("player"), player_id=player)
    refused: list[str] = []
    if request.method == "POST":
        with errors_collected(refused) as outcome:
            services.registration_remove(registration=registration, user=request.user)
        if outcome.ok:
            messages.success(request, _("%(name)s is removed from the tournament.")
                             % {"name": registration.player})
            return redirect(reverse("tournaments:manage", args=[pk]) + "#players")
    error = " ".join(refused)
    return render(request, "tournaments/remove.html", {
        "tournament": tournament, "registration": registration, "error": error,
    }, status=400 if error else 200)


@login_required
def withdraw(request: HttpRequest, pk: int, player: int) -> HttpResponse:
    """The organizer withdraws a player from a session on (GET: the form, with Cancel)."""
    tournament = _own(request, pk)
    registration = get_object_or_404(
        tournament.registrations.select_related("player"), player_id=player)
    form = WithdrawForm(request.POST or None, initial={
        "from_session": registration.withdrawn_from
        or selectors.registration_next_session(registration),
        "reason": registration.withdrawal_reason,
    })
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form, "from_session") as outcome:
            services.registration_withdraw(
                registration=registration, user=request.user, **form.cleaned_data)
        if outcome.ok:
            messages.success(request, _(
                "%(name)s is withdrawn from session %(session)s on. Redraw the seating from "
                "that session."
            ) % {"name": registration.player, "session": registration.withdrawn_from})
            return redirect(reverse("tournaments:manage", args=[pk]) + "#players")
    return render(request, "tournaments/withdraw.html", {
        "tournament": tournament, "registration": registration, "form": form,
        "sessions": range(1, tournament.sessions + 1),
    })
