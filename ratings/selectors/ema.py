"""The EMA ranking (MERS, decision 0806): its settings, the ranking of a ruleset, a player's
score with every result it counts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings

from ratings.rules import ema
from ratings.rules.ema import AgeStep, EmaConfig
from tournaments.models import Player


def ema_config() -> EmaConfig:
    """The EMA ranking's settings: the age window (EMA_AGE_STEPS)."""
    steps = getattr(settings, "EMA_AGE_STEPS", None)
    if not steps:
        return EmaConfig()
    return EmaConfig(
        age_steps=tuple(AgeStep(int(days), Fraction(str(factor))) for days, factor in steps)
    )


@dataclass(frozen=True, slots=True)
class EmaTournament:
    id: int
    name: str
    end_date: date
    mers_weight: Decimal
    players: int
    """Players ranked (substitutes left out)."""


def _ema_results(
    ruleset: str, on: date, config: EmaConfig, player: Player | None = None
) -> tuple[dict[int, list[ema.Result]], dict[int, EmaTournament], dict[int, dict[int, int]]]:
    """The results of the MERS tournaments of `ruleset` in the window before `on`, per
    player, with the tournaments and each player's place among the ranked (3 queries)."""
    from tournaments.models import Registration, Tournament, TournamentResult

    longest = max((s.days for s in config.age_steps), default=0)
    tournaments = Tournament.objects.filter(
        ruleset=ruleset, mers=True, mers_weight__gt=0,
        state=Tournament.State.RESULTS_CONFIRMED,
        end_date__lte=on, end_date__gt=on - timedelta(days=longest),
    )
    if player is not None:
        tournaments = tournaments.filter(final_results__player=player)
    rows = list(
        TournamentResult.objects.filter(tournament__in=tournaments)
        .select_related("tournament")
        .only("tournament_id", "player_id", "rank", "tournament__name",
              "tournament__end_date", "tournament__mers_weight")
    )
    substitutes = set(
        Registration.objects.filter(tournament__in=tournaments, substitute=True)
        .values_list("tournament_id", "player_id")
    )
    placings: dict[int, list[ema.Placing]] = {}
    info: dict[int, Any] = {}
    for row in rows:
        placings.setdefault(row.tournament_id, []).append(
            ema.Placing(row.player_id, row.rank,
                        (row.tournament_id, row.player_id) in substitutes)
        )
        info[row.tournament_id] = row.tournament
    results: dict[int, list[ema.Result]] = {}
    events: dict[int, EmaTournament] = {}
    places: dict[int, dict[int, int]] = {}
    for tid, field in placings.items():
        t = info[tid]
        ranked = ema.base_ranks(field)
        events[tid] = EmaTournament(tid, t.name, t.end_date, t.mers_weight, len(ranked))
        places[tid] = {p.player: p.rank for p in field if p.player in ranked}
        weight = Fraction(str(t.mers_weight))
        for pid, base in ranked.items():
            results.setdefault(pid, []).append(ema.Result(tid, t.end_date, base, weight))
    return results, events, places


def ema_ranking(ruleset: str, on: date) -> list[ema.RankedPlayer]:
    """The EMA ranking of `ruleset` on `on`, best first (computed live, 3 queries)."""
    config = ema_config()
    results, _, _ = _ema_results(ruleset, on, config)
    return ema.ranking(results, on, config)


@dataclass(frozen=True, slots=True)
class EmaCalculation:
    score: ema.PlayerScore
    tournaments: dict[int, EmaTournament]
    places: dict[int, int]
    """The player's place in each tournament (ties: the same place)."""
    config: EmaConfig


def ema_player(player: Player, ruleset: str, on: date) -> EmaCalculation:
    """The player's EMA score on `on`, with every result it counts (4 queries)."""
    config = ema_config()
    results, events, places = _ema_results(ruleset, on, config, player)
    score = ema.player_score(player.pk, results.get(player.pk, []), on, config)
    mine = {tid: ranks[player.pk] for tid, ranks in places.items() if player.pk in ranks}
    return EmaCalculation(score, events, mine, config)
