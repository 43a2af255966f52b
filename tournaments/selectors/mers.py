"""The facts of a tournament as played that its MERS weight is computed from, and the weight
(decision 0830; the rule: ``tournaments.rules.mers_weight``)."""

from __future__ import annotations

from tournaments.models import Registration, Tournament, TournamentResult
from tournaments.rules.mers_weight import MersFacts, MersWeight, mers_weight


def mers_facts(tournament: Tournament) -> MersFacts:
    """Days from the tournament's dates; the players from its final standings (before there
    are any: its registrations), substitutes apart; the distinct countries of all of them;
    the qualification the officer recorded (2 queries)."""
    days = (tournament.end_date - tournament.start_date).days + 1
    substitutes = set(Registration.objects.filter(tournament=tournament, substitute=True)
                      .values_list("player_id", flat=True))
    rows = list(TournamentResult.objects.filter(tournament=tournament)
                .values_list("player_id", "player__country"))
    if not rows:
        rows = list(Registration.objects.filter(tournament=tournament)
                    .values_list("player_id", "player__country"))
    played = {pid for pid, _country in rows}
    countries = {country for _pid, country in rows if country}
    subs = len(played & substitutes)
    return MersFacts(days=days, players=len(played) - subs, substitutes=subs,
                     countries=len(countries), qualification=tournament.mers_qualification)


def mers_weight_computed(tournament: Tournament) -> MersWeight:
    """The tournament's MERS weight by the EMA's table, from the tournament as played."""
    return mers_weight(mers_facts(tournament))


def mers_weight_json(weight: MersWeight) -> dict[str, float]:
    """``{"total", "duration", "players", "countries", "qualification"}`` (the API)."""
    return {"total": float(weight.total), "duration": float(weight.duration),
            "players": float(weight.players), "countries": float(weight.countries),
            "qualification": float(weight.qualification)}
