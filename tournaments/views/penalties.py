"""The organizer's penalties, late arrivals, absences and unbalanced tables kept as
recorded (given on the session view, tournaments.views.table_entry), and revealing the
standings of the hidden last sessions.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import services
from tournaments.models import Penalty, Tournament
from tournaments.permissions import is_organizer
from tournaments.views._common import _int, _own


@login_required
@require_POST
def reveal(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer reveals the standings of the hidden last sessions."""
    tournament = _own(request, pk)
    services.standings_reveal(tournament=tournament, user=request.user)
    messages.success(request, _("The standings are revealed."))
    return redirect("tournaments:manage", pk=pk)


ORGANIZER_ACTIONS = ("penalty", "penalty_remove", "late", "absent", "confirm_recorded")


def organizer_action(request: HttpRequest, tournament: Tournament, session: int,
                     action: str) -> None:
    """A penalty, a late arrival, an absence or an unbalanced table kept as recorded: the
    organizer's own (officers correct through the correction)."""
    if not is_organizer(request.user, tournament):
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
            messages.success(request, ngettext(
                "%(points)s game point is deducted.", "%(points)s game points are deducted.",
                result.points) % {"points": result.points})
        else:
            messages.success(request, _("Late by more than 15 minutes: the player misses "
                                        "this session."))
    elif action == "absent":
        services.player_absent(**where, player=player, reason=post.get("reason", ""))
        messages.success(request, _("The absence is recorded."))
    else:
        services.unbalanced_table_confirm(**where, table=_int(post.get("table")) or 0)
        messages.success(request, _("The table is kept as recorded."))
