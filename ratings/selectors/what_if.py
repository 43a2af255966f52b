"""What would a place do (issue 39, decision 0840): on a tournament a player has entered,
each possible final place and what it would do to the player's EMA score and rating.

Nothing here is a rule of its own: the EMA figures are ``ratings.rules.ema`` (base rank of
the place, the player's score with that one result added) over the results the EMA ranking
reads (``ratings.selectors.ema``); the rating is one run of the rating method's period
(``ratings.rules.method.rate_period``) over the player's confirmed games of the
tournament's month plus the place, counted as the final standings of a tournament are
(decision 0810): one table of the whole field, the player beating every entrant placed
below and losing to every entrant placed above. The opponents above are the strongest
other entrants by their rating at the start of the month (decision 0840)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.utils import timezone

from ratings.rules import ema
from ratings.rules.method import (
    Outcome,
    Rating,
    period_first_day,
    period_label,
    period_of,
    rate_period,
    start_of_period,
)
from ratings.selectors.ema import _ema_results, ema_config
from ratings.selectors.lists import method_config
from tournaments.models import Entry, Player, Registration, Tournament
from tournaments.selectors import confirmed_table_results
from tournaments.selectors.entries import own_player_id  # noqa: F401 (re-exported)


@dataclass(frozen=True, slots=True)
class WhatIfPlace:
    place: int
    ema_score: Fraction | None
    """None: the tournament does not count in the EMA ranking (not MERS, no weight)."""
    rating: Rating | None
    """None: the tournament does not count in the rating list."""


@dataclass(frozen=True, slots=True)
class WhatIf:
    tournament: Tournament
    player: Player
    entrants: int
    ema_on: date
    """The day the EMA scores are computed for: today, or the tournament's last day."""
    ema_now: Fraction | None
    rating_now: Rating | None
    """The player's rating at the end of the tournament's month without the tournament."""
    places: tuple[WhatIfPlace, ...]


def registration_of(tournament: Tournament, player: Player) -> Registration | None:
    return Registration.objects.filter(tournament=tournament, player=player).first()


def entrants(tournament: Tournament) -> tuple[list[int], int]:
    """The players of the field: the registered players who are neither substitutes nor
    withdrawn, and how many entries hold a place without a registration yet (they play as
    new players, decision 0840)."""
    registered = list(Registration.objects.filter(
        tournament=tournament, substitute=False, withdrawn_from__isnull=True,
    ).order_by("player_id").values_list("player_id", flat=True))
    waiting = Entry.objects.filter(tournament=tournament, status__in=Entry.HOLDING,
                                   registration__isnull=True).count()
    return registered, waiting


def _ema_scores(tournament: Tournament, player: Player, field: int,
                on: date) -> tuple[Fraction | None, list[Fraction | None]]:
    config = ema_config()
    results, _events, _places = _ema_results(tournament.ruleset, on, config, player)
    mine = [r for r in results.get(player.pk, []) if r.tournament != tournament.pk]
    now = ema.player_score(player.pk, mine, on, config).score
    if not (tournament.mers and tournament.mers_weight and tournament.mers_weight > 0):
        return now, [None] * field
    weight = Fraction(str(tournament.mers_weight))
    scores: list[Fraction | None] = []
    for place in range(1, field + 1):
        # the player at `place`, every other place held by somebody (no ties)
        placings = [ema.Placing(player.pk if rank == place else -rank, rank)
                    for rank in range(1, field + 1)]
        base = ema.base_ranks(placings)[player.pk]
        result = ema.Result(tournament.pk, tournament.end_date, base, weight)
        scores.append(ema.player_score(player.pk, [*mine, result], on, config).score)
    return now, scores


def _ratings(tournament: Tournament, player: Player, others: list[int],
             waiting: int) -> tuple[Rating | None, list[Rating | None]]:
    # imported here: ratings.services imports the selectors package
    from ratings.services import _states_before

    config = method_config()
    field = len(others) + 1 + waiting
    period = period_of(tournament.end_date)
    played = [
        o for o in confirmed_table_results(ruleset=tournament.ruleset,
                                           since=period_first_day(period))
        if period_of(o.end_date) == period and o.tournament_id != tournament.pk
        and any(pid == player.pk for pid, _points in o.seats)
    ]
    # only the player is rated: every other seat is "unrated" (it still counts as an
    # opponent, with its rating at the start of the month, as in a real run)
    played = [Outcome(o.tournament_id, o.end_date, o.session, o.table, tuple(o.seats),
                      frozenset(pid for pid, _ in o.seats if pid != player.pk))
              for o in played]
    seated = {pid for o in played for pid, _ in o.seats} | set(others) | {player.pk}
    states, _totals = _states_before(tournament.ruleset, period_label(period), seated)
    state = states.get(player.pk)
    if played:
        now = next(c.after for c in rate_period(period, played, states, config)
                   if c.player == player.pk)
    else:
        now = start_of_period(state, period, config) if state is not None else None
    if not tournament.rated:
        return now, [None] * field
    # the other entrants, strongest first at the start of the month; the entries without a
    # registration yet: new players (ids below zero: no state)
    strength = {o: start_of_period(states.get(o), period, config).rating for o in others}
    ordered = sorted(others, key=lambda o: (-strength[o], o)) + [-i for i in
                                                                range(1, waiting + 1)]
    ratings: list[Rating | None] = []
    for place in range(1, field + 1):
        line = [*ordered[:place - 1], player.pk, *ordered[place - 1:]]
        table = Outcome(tournament.pk, tournament.end_date, 1, 1,
                        tuple((pid, -rank) for rank, pid in enumerate(line, start=1)),
                        frozenset(pid for pid in line if pid != player.pk))
        change = next(c for c in rate_period(period, [*played, table], states, config)
                      if c.player == player.pk)
        ratings.append(change.after)
    return now, ratings


def what_if(tournament: Tournament, player: Player) -> WhatIf:
    """Every final place 1..N of the field (N: the entrants, decision 0840) with the
    player's EMA score and rating after it; the caller has checked that the player has
    entered and the results are not confirmed."""
    registered, waiting = entrants(tournament)
    others = [p for p in registered if p != player.pk]
    field = len(others) + 1 + waiting
    on = max(timezone.localdate(), tournament.end_date)
    ema_now, scores = _ema_scores(tournament, player, field, on)
    rating_now, ratings = _ratings(tournament, player, others, waiting)
    return WhatIf(
        tournament=tournament, player=player, entrants=field, ema_on=on, ema_now=ema_now,
        rating_now=rating_now,
        places=tuple(WhatIfPlace(k, s, r) for k, (s, r) in
                     enumerate(zip(scores, ratings, strict=True), start=1)),
    )

