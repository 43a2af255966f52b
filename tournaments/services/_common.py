"""What the tournament services share: the audit log entry, the row lock, the state check
and the MCR variant of a tournament."""

from __future__ import annotations

import dataclasses
from typing import Any

from wagtail.log_actions import log

from rulebook.scoring import MCRConfig
from tournaments.errors import E_BAD_VARIANT, E_ILLEGAL_TRANSITION, TournamentError
from tournaments.models import Tournament
from tournaments.selectors import mcr_config

State = Tournament.State


def _audit(tournament: Tournament, action: str, user: Any, **data: Any) -> None:
    log(instance=tournament, action=action, user=user,
        title=f"tournament #{tournament.pk}", data={"tournament": tournament.pk, **data})


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _require(tournament: Tournament, *states: str, action: str) -> None:
    if tournament.state not in states:
        raise TournamentError(E_ILLEGAL_TRANSITION, state=tournament.state, action=action)


def _mcr_config(tournament: Tournament) -> MCRConfig:
    config = mcr_config(tournament)
    if config is None:
        names = {f.name for f in dataclasses.fields(MCRConfig)}
        unknown = sorted(set(tournament.variant) - names)
        raise TournamentError(E_BAD_VARIANT, names=", ".join(unknown))
    return config
