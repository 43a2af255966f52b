"""The seating draw of a tournament's sessions (the draw itself is pure:
``tournaments.rules.seating_draw``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from rulebook.scoring.standings import WINDS
from tournaments.errors import (
    E_NOT_MULTIPLE_OF_4,
    E_SEATING_PUBLISH,
    E_SEATING_SESSION,
    TournamentError,
)
from tournaments.models import Registration, SeatingAssignment, Tournament
from tournaments.rules.seating_draw import Seating, country_pairs, draw_sessions
from tournaments.rules.session_players import allowed_players, expected_players
from tournaments.services._common import _audit, _locked, state_require


def _session_players(registrations: list[Registration], session: int,
                     absent: dict[int, set[int]] | None = None) -> list[int]:
    """Who is seated in ``session``: the players expected in it (not substitutes, not
    withdrawn by then, not absent for it) and, when their number is not a multiple of 4,
    the first substitutes (by start number) that fill the last table."""
    registered = [r.player_id for r in registrations]
    withdrawn = {r.player_id: r.withdrawn_from for r in registrations
                 if r.withdrawn_from is not None}
    substitutes = [r.player_id for r in registrations if r.substitute]
    expected = expected_players(session, registered=registered, withdrawn=withdrawn,
                                substitutes=substitutes, absent=absent)
    regular = [p for p in registered if p in expected]
    free = [p for p in substitutes if p in allowed_players(
        session, registered=registered, withdrawn=withdrawn, absent=absent)]
    need = -len(regular) % 4
    if not regular or need > len(free):
        raise TournamentError(E_NOT_MULTIPLE_OF_4, players=len(regular), session=session,
                              substitutes=len(free))
    return regular + free[:need]


@transaction.atomic
def seating_draw(
    *, tournament: Tournament, user: Any, seed: int, from_session: int | None = None,
    separate_countries: bool | None = None,
) -> Seating:
    """Draw the seating of every session (replacing a former draw), or of the sessions from
    ``from_session`` on, keeping the earlier ones. Each session seats the players expected
    in it (withdrawn players leave) and substitutes fill a table that needs a fourth.
    ``separate_countries`` (kept as the tournament's setting; None: the setting as it is):
    compatriots meet as rarely as possible, after repeat meetings. The tournament keeps the
    repeat pairs and the compatriots seated together, both counted over all its sessions."""
    tournament = _locked(tournament)
    state_require(tournament, "seating")
    first = from_session or 1
    if not 1 <= first <= tournament.sessions:
        raise TournamentError(E_SEATING_SESSION, count=tournament.sessions)
    if separate_countries is not None:
        tournament.seating_separate_countries = separate_countries
    registrations = list(tournament.registrations.select_related("player").order_by("number"))
    teams = {r.player_id: r.team for r in registrations if r.team}
    absent: dict[int, set[int]] = {}
    for session, player in tournament.absences.values_list("session", "player_id"):
        absent.setdefault(session, set()).add(player)
    countries = {r.player_id: r.player.country for r in registrations if r.player.country}
    players_by_session = [
        _session_players(registrations, session, absent)
        for session in range(first, tournament.sessions + 1)
    ]
    kept: dict[int, dict[int, dict[str, int]]] = {}
    for row in SeatingAssignment.objects.filter(tournament=tournament, session__lt=first):
        kept.setdefault(row.session, {}).setdefault(row.table, {})[row.seat] = row.player_id
    before = [
        [[seats[w] for w in WINDS if w in seats] for _, seats in sorted(tables.items())]
        for _, tables in sorted(kept.items())
    ]
    result = draw_sessions(
        players_by_session, seed=seed, teams=teams, before=before,
        countries=countries if tournament.seating_separate_countries else None,
    )
    SeatingAssignment.objects.filter(tournament=tournament, session__gte=first).delete()
    SeatingAssignment.objects.bulk_create(
        SeatingAssignment(tournament=tournament, session=s, table=t, seat=WINDS[w], player_id=p)
        for s, session in enumerate(result.sessions, start=first)
        for t, table in enumerate(session, start=1)
        for w, p in enumerate(table)
    )
    compatriots = country_pairs([*before, *result.sessions], countries)
    tournament.seating_seed = seed
    tournament.seating_repeat_pairs = result.repeat_pairs
    tournament.seating_repeat_minimum = result.fewest_repeat_pairs
    tournament.seating_country_pairs = compatriots
    tournament.save(update_fields=["seating_seed", "seating_repeat_pairs",
                                   "seating_repeat_minimum", "seating_separate_countries",
                                   "seating_country_pairs"])
    _audit(tournament, "tournaments.tournament.seating", user, seed=seed,
           repeat_pairs=result.repeat_pairs, country_pairs=compatriots, from_session=first,
           separate_countries=tournament.seating_separate_countries)
    return result


@transaction.atomic
def seating_publish(*, tournament: Tournament, user: Any, through: int) -> Tournament:
    """Publish the seating of the sessions up to ``through`` (0: none): the public pages
    (where do I sit, the room screen, the table distribution, the API) show those sessions'
    seating and no later one (decision 0730). A redraw keeps what is published."""
    tournament = _locked(tournament)
    state_require(tournament, "seating")
    if not 0 <= through <= tournament.sessions:
        raise TournamentError(E_SEATING_PUBLISH, count=tournament.sessions)
    before = tournament.seating_published
    tournament.seating_published = through
    tournament.save(update_fields=["seating_published"])
    _audit(tournament, "tournaments.tournament.seating_published", user, through=through,
           before=before)
    return tournament


def seat_substitute(tournament: Tournament, session: int, player: int) -> int | None:
    """A player misses ``session``: the first substitute (by start number) not seated in it
    takes their seat in the drawn seating; the substitute's id, or ``None`` when the player
    had no seat or no substitute is free (the organizer then redraws from that session)."""
    seat = SeatingAssignment.objects.filter(tournament=tournament, session=session,
                                            player_id=player).first()
    if seat is None:
        return None
    seated = SeatingAssignment.objects.filter(tournament=tournament, session=session)
    free = (tournament.registrations.filter(substitute=True)
            .exclude(player_id__in=seated.values("player_id"))
            .order_by("number").values_list("player_id", flat=True).first())
    if free is None:
        return None
    seat.player_id = free
    seat.save(update_fields=["player"])
    return free
