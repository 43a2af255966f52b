"""What the tournament services share: the audit log entry, the row lock, the state check
(read from the table of steps, ``tournaments.rules.states``) and the MCR variant of a
tournament."""

from __future__ import annotations

import dataclasses
from typing import Any

from wagtail.log_actions import log

from rulebook.scoring import MCRConfig
from tournaments.errors import E_BAD_VARIANT, E_ILLEGAL_TRANSITION, TournamentError
from tournaments.models import Tournament
from tournaments.rules import states
from tournaments.selectors import mcr_config


def _audit(tournament: Tournament, action: str, user: Any, **data: Any) -> None:
    log(instance=tournament, action=action, user=user,
        title=f"tournament #{tournament.pk}", data={"tournament": tournament.pk, **data})


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def state_require(tournament: Tournament, step: str) -> None:
    """Raise ``illegal_transition`` (with the state and the step) unless the table of steps
    allows ``step`` in the tournament's state."""
    if not states.allows(step, tournament.state):
        raise TournamentError(E_ILLEGAL_TRANSITION, state=tournament.state, action=step)


def _mcr_config(tournament: Tournament) -> MCRConfig:
    config = mcr_config(tournament)
    if config is None:
        names = {f.name for f in dataclasses.fields(MCRConfig)}
        unknown = sorted(set(tournament.variant) - names)
        raise TournamentError(E_BAD_VARIANT, names=", ".join(unknown))
    return config
