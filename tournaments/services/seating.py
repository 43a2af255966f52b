"""The seating draw of a tournament's sessions (the draw itself is pure:
``tournaments.seating``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from rulebook.scoring.standings import WINDS
from tournaments import seating as seating_draw_module
from tournaments.errors import E_ILLEGAL_TRANSITION, E_NOT_MULTIPLE_OF_4, TournamentError
from tournaments.models import SeatingAssignment, Tournament
from tournaments.services._common import State, _audit, _locked


@transaction.atomic
def seating_draw(*, tournament: Tournament, user: Any, seed: int) -> seating_draw_module.Seating:
    """Draw the seating of every session for the registered players (replacing a former
    draw). The number of players must be a multiple of 4 (add substitutes otherwise)."""
    tournament = _locked(tournament)
    if tournament.state == State.RESULTS_CONFIRMED:
        raise TournamentError(E_ILLEGAL_TRANSITION, state=tournament.state, action="seating")
    registrations = list(tournament.registrations.order_by("number"))
    if not registrations or len(registrations) % 4:
        raise TournamentError(E_NOT_MULTIPLE_OF_4, players=len(registrations))
    teams = {r.player_id: r.team for r in registrations if r.team}
    result = seating_draw_module.draw(
        [r.player_id for r in registrations], tournament.sessions, seed=seed, teams=teams
    )
    SeatingAssignment.objects.filter(tournament=tournament).delete()
    SeatingAssignment.objects.bulk_create(
        SeatingAssignment(tournament=tournament, session=s, table=t, seat=WINDS[w], player_id=p)
        for s, session in enumerate(result.sessions, start=1)
        for t, table in enumerate(session, start=1)
        for w, p in enumerate(table)
    )
    tournament.seating_seed = seed
    tournament.seating_repeat_pairs = result.repeat_pairs
    tournament.save(update_fields=["seating_seed", "seating_repeat_pairs"])
    _audit(tournament, "tournaments.tournament.seating", user, seed=seed,
           repeat_pairs=result.repeat_pairs)
    return result
