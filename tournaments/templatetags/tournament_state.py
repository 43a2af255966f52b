"""The state of a tournament as its pages show it: while results are coming in (some
sessions entered, not all) it reads "In progress", not "Results submitted". A display label
only; the state itself is unchanged."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from tournaments.models import TableResult, Tournament

register = template.Library()


def sessions_entered(tournament: Tournament) -> int:
    """Asked only of a tournament whose results are coming in (a handful at a time, never
    the history), once per page: the label and the badge's class share the count."""
    if not hasattr(tournament, "_sessions_entered"):
        tournament._sessions_entered = (  # type: ignore[attr-defined]
            TableResult.objects.filter(tournament=tournament)
            .values("session").distinct().count()
        )
    return tournament._sessions_entered  # type: ignore[attr-defined]


@register.filter
def state_label(tournament: Tournament) -> str:
    if (tournament.state == Tournament.State.RESULTS_SUBMITTED
            and sessions_entered(tournament) < tournament.sessions):
        return _("In progress")
    return str(tournament.get_state_display())


@register.filter
def state_class(tournament: Tournament) -> str:
    """The badge's CSS class: in progress looks like accredited."""
    if (tournament.state == Tournament.State.RESULTS_SUBMITTED
            and sessions_entered(tournament) < tournament.sessions):
        return "state-in-progress"
    return "state-" + tournament.state.replace(" ", "-")
