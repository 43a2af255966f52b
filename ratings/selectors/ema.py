"""The EMA ranking (MERS, decision 0806): its settings, the ranking of a ruleset, a player's
score with every result it counts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from django.conf import settings

from ratings.models import EmaBaseRank, StoredRanking
from ratings.rules import ema
from ratings.rules.ema import AgeStep, EmaConfig, Freeze
from tournaments.models import Player


def ema_config(ruleset: str | None = None) -> EmaConfig:
    """The EMA ranking's settings: the age window (EMA_AGE_STEPS), the rounding of base
    ranks (EMA_BASE_RANK_ROUNDING) and, for the rulesets in EMA_FREEZE_RULESETS, the EMA's
    freeze (EMA_FREEZE; decision 0831)."""
    steps = getattr(settings, "EMA_AGE_STEPS", None)
    freeze = getattr(settings, "EMA_FREEZE", None)
    frozen = ruleset is not None and ruleset in getattr(settings, "EMA_FREEZE_RULESETS", ())
    return EmaConfig(
        age_steps=(tuple(AgeStep(int(days), Fraction(str(factor))) for days, factor in steps)
                   if steps else EmaConfig().age_steps),
        base_rank_rounding=getattr(settings, "EMA_BASE_RANK_ROUNDING", "down"),
        freeze=Freeze(*freeze) if freeze and frozen else None,
    )


def ema_config_key(ruleset: str | None = None) -> str:
    return repr(ema_config(ruleset))[:500]


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
    player, with the tournaments and each player's place among the ranked: the base ranks
    stored with the final standings (decision 0821), one query; for one player, only that
    player's rows."""
    from tournaments.models import Tournament

    rows = EmaBaseRank.objects.filter(
        tournament__ruleset=ruleset, tournament__mers=True, tournament__mers_weight__gt=0,
        tournament__state=Tournament.State.RESULTS_CONFIRMED,
        tournament__end_date__lte=on, tournament__end_date__gt=ema.window_start(on, config),
    )
    if player is not None:
        rows = rows.filter(player=player)
    results: dict[int, list[ema.Result]] = {}
    events: dict[int, EmaTournament] = {}
    places: dict[int, dict[int, int]] = {}
    weights: dict[int, Fraction] = {}
    for tid, pid, num, den, place, field, name, end_date, mers_weight in rows.values_list(
        "tournament_id", "player_id", "numerator", "denominator", "place", "field",
        "tournament__name", "tournament__end_date", "tournament__mers_weight",
    ).iterator(chunk_size=5000):
        if tid not in events:
            events[tid] = EmaTournament(tid, name, end_date, mers_weight, field)
            weights[tid] = Fraction(str(mers_weight))
        places.setdefault(tid, {})[pid] = place
        results.setdefault(pid, []).append(
            ema.Result(tid, end_date, Fraction(num, den), weights[tid]))
    return results, events, places


def ema_ranking_computed(ruleset: str, on: date) -> list[ema.RankedPlayer]:
    """The EMA ranking of `ruleset` on `on`, best first, computed (what is stored)."""
    config = ema_config(ruleset)
    results, _, _ = _ema_results(ruleset, on, config)
    return ema.ranking(results, on, config)


def ema_ranking(ruleset: str, on: date) -> list[ema.RankedPlayer]:
    """The EMA ranking of `ruleset` on `on`, computed (a date other than the stored one)."""
    return ema_ranking_computed(ruleset, on)


def ema_ranking_stored(ruleset: str, on: date | None = None) -> StoredRanking | None:
    """The stored EMA ranking of `ruleset` if it is the ranking on `on` (default: the one
    stored, whatever its day), else None (one query)."""
    stored = StoredRanking.objects.filter(kind=StoredRanking.Kind.EMA, ruleset=ruleset).first()
    if stored is None or stored.on is None or (on is not None and stored.on != on):
        return None
    if stored.config != ema_config_key(ruleset):  # the settings changed since
        return None
    return stored


@dataclass(frozen=True, slots=True)
class EmaCalculation:
    score: ema.PlayerScore
    tournaments: dict[int, EmaTournament]
    places: dict[int, int]
    """The player's place in each tournament (ties: the same place)."""
    config: EmaConfig


def ema_player(player: Player, ruleset: str, on: date) -> EmaCalculation:
    """The player's EMA score on `on`, with every result it counts (4 queries)."""
    config = ema_config(ruleset)
    results, events, places = _ema_results(ruleset, on, config, player)
    score = ema.player_score(player.pk, results.get(player.pk, []), on, config)
    mine = {tid: ranks[player.pk] for tid, ranks in places.items() if player.pk in ranks}
    return EmaCalculation(score, events, mine, config)
