"""The membership officer's merge of two players found to be one person (decision 0811,
the admin's pages; decision 0814): find the players, choose the one kept, see what moves,
confirm; the merges done, each with its undo while nothing newer depends on it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import errors_as_messages, errors_collected
from tournaments import selectors
from tournaments.models import Player, PlayerMerge
from tournaments.permissions import can_merge_players
from tournaments.services import identity

SEARCH_LIMIT = 50
MERGES_PER_PAGE = 20
RERATING = gettext_lazy("The ratings are being updated: the rating lists, the rankings and "
                        "the players' pages show the change in a few minutes.")


def _membership_officer(request: HttpRequest) -> None:
    if not can_merge_players(request.user):
        raise PermissionDenied


def player_merge_view(request: HttpRequest) -> HttpResponse:
    """Find the two players (by name or EMA number), then the merges done."""
    _membership_officer(request)
    query = request.GET.get("q", "").strip()[:100]
    found = selectors.players_to_merge(query, limit=SEARCH_LIMIT) if query else []
    page = Paginator(PlayerMerge.objects.select_related("kept", "merged", "merged_by")
                     .order_by("-merged_at", "-pk"), MERGES_PER_PAGE
                     ).get_page(request.GET.get("page"))
    merges = list(page.object_list)
    return render(request, "tournaments/admin/merge.html", {
        "query": query, "found": found, "limit": SEARCH_LIMIT,
        "merges": page, "undoable": identity.merge_undoable(merges),
        # the merges whose re-rate is still on the task queue (decision 0825)
        "rerating": {m.pk for m in merges if {m.kept_id, m.merged_id} & selected}
        if (selected := selectors.players_rerate_pending(
            [i for m in merges for i in (m.kept_id, m.merged_id)])) else set(),
    })


def _player(value: str | None) -> Player | None:
    return Player.objects.select_related("member").filter(pk=int(value)).first() \
        if value and value.isdigit() else None


@require_http_methods(["GET", "POST"])
def player_merge_preview_view(request: HttpRequest) -> HttpResponse:
    """What merging ``player`` into ``into`` moves; confirmed by a POST."""
    _membership_officer(request)
    data = request.POST if request.method == "POST" else request.GET
    merged, kept = _player(data.get("player")), _player(data.get("into"))
    if merged is None or kept is None:
        messages.error(request, _("Choose the player to merge and the player to keep."))
        return redirect(reverse("tournament_player_merge") + "?q="
                        + request.GET.get("q", ""))
    if request.method == "POST":
        with errors_as_messages(request) as outcome:
            identity.player_merge(player=merged, into=kept, user=request.user)
        if outcome.ok:
            messages.success(request, _("%(merged)s was merged into %(kept)s.")
                             % {"merged": merged, "kept": kept})
            if selectors.players_rerate_pending([kept.pk]):
                messages.info(request, str(RERATING))  # in the request's language
            return redirect("tournament_player_merge")
    problems: list[str] = []
    preview = None
    with errors_collected(problems):
        preview = identity.player_merge_preview(player=merged, into=kept)
    return render(request, "tournaments/admin/merge_preview.html", {
        "merged": merged, "kept": kept, "preview": preview, "problems": problems,
        "moves": _moves(preview) if preview else [],
        "taken": _taken(preview) if preview else [],
    })


def _moves(preview: identity.MergePreview) -> list[tuple[str, int]]:
    labels = {
        "tournaments.Registration.player": _("tournaments entered"),
        "tournaments.TournamentResult.player": _("final standings"),
        "tournaments.TableResult.player": _("table results"),
        "tournaments.SeatingAssignment.player": _("seats"),
        "tournaments.HandRecord.winner": _("hands won"),
        "tournaments.HandRecord.discarder": _("hands discarded"),
        "tournaments.Penalty.player": _("penalties"),
        "tournaments.Penalty.to_player": _("penalties received"),
        "tournaments.Absence.player": _("absences"),
    }
    return [(labels.get(key, key), count) for key, count in preview.moves.items()]


def _taken(preview: identity.MergePreview) -> list[tuple[str, str]]:
    labels = {"ema_number": _("EMA number"), "member": _("member"),
              "first_name": _("First name"), "last_name": _("Last name"),
              "name_native": _("name in native script")}
    shown = {**preview.taken}
    if "member" in shown:
        shown["member"] = str(preview.merged.member)
    return [(labels.get(key, key), str(value)) for key, value in shown.items()]


@require_POST
def player_merge_undo_view(request: HttpRequest, pk: int) -> HttpResponse:
    _membership_officer(request)
    merge = get_object_or_404(PlayerMerge, pk=pk)
    with errors_as_messages(request) as outcome:
        identity.player_merge_undo(merge=merge, user=request.user)
    if outcome.ok:
        messages.success(request, _("The merge was undone: %(merged)s is a player of their "
                                    "own again.") % {"merged": merge.merged})
        if selectors.players_rerate_pending([merge.kept_id, merge.merged_id]):
            messages.info(request, str(RERATING))  # in the request's language
    return redirect("tournament_player_merge")
