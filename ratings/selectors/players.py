"""A player's ratings: the rulesets they are rated in, their rating now, their tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ratings.models import DEFAULT_RULESET, RatingEntry
from ratings.rules.glicko import Rating
from ratings.rules.method import PlayerState, is_provisional, parse_period, rating_at
from ratings.selectors.lists import RULESETS, latest_period_with_results, method_config
from tournaments.models import Player


def player_rulesets(player: Player) -> list[str]:
    """The rulesets in which the player has a rating, in the order of `RULESETS`."""
    played = set(
        RatingEntry.objects.filter(player=player).order_by()
        .values_list("ruleset", flat=True).distinct()
    )
    return [r for r in RULESETS if r in played]


@dataclass(frozen=True, slots=True)
class PlayerRatingNow:
    period: str
    rating: Rating
    provisional: bool


def player_current(
    player: Player, period: str | None = None, ruleset: str = DEFAULT_RULESET
) -> PlayerRatingNow | None:
    """The player's rating at the end of `period` (default: the ruleset's latest period with
    results)."""
    period = period or latest_period_with_results(ruleset)
    if period is None:
        return None
    last = (
        RatingEntry.objects.filter(player=player, ruleset=ruleset, period__lte=period)
        .order_by("-period")
        .first()
    )
    if last is None:
        return None
    config = method_config()
    state = PlayerState(
        rating=Rating(last.rating, last.rd, last.vol),
        period=parse_period(last.period),
        first_period=parse_period(last.period),
    )
    rating = rating_at(state, parse_period(period), config)
    return PlayerRatingNow(period=period, rating=rating, provisional=is_provisional(rating, config))


@dataclass(frozen=True, slots=True)
class PlayerTournament:
    tournament_id: int
    name: str
    end_date: object
    city: str
    country: str
    rank: int | None
    players: int
    table_points: float
    game_points: int
    final_only: bool = False
    """Imported from its final standings only (decision 0810)."""
    abroad: bool = False
    rated: bool = True
    """Counts in our rating list."""


def player_tournament_results(player: Player, ruleset: str | None = DEFAULT_RULESET):
    """The player's stored final standings (``tournaments.models.TournamentResult``) in the
    confirmed tournaments of `ruleset` (None: any), newest first, with their tournament: a
    queryset, so that a page of them is one query (and its count another)."""
    from tournaments.models import Tournament, TournamentResult

    rows = TournamentResult.objects.filter(
        player=player, tournament__state=Tournament.State.RESULTS_CONFIRMED
    )
    if ruleset is not None:
        rows = rows.filter(tournament__ruleset=ruleset)
    return rows.select_related("tournament").order_by("-tournament__end_date", "tournament_id")


def player_tournaments(
    player: Player, ruleset: str | None = DEFAULT_RULESET, *, rows: Any = None
) -> list[PlayerTournament]:
    """The confirmed tournaments the player played under `ruleset` (None: any), newest first,
    with their standing; `rows`: a slice of `player_tournament_results` (a page) instead of
    all of them."""
    if rows is None:
        rows = player_tournament_results(player, ruleset)
    return [
        PlayerTournament(
            tournament_id=row.tournament_id,
            name=row.tournament.name,
            end_date=row.tournament.end_date,
            city=row.tournament.city,
            country=row.tournament.country,
            rank=row.rank,
            players=row.players,
            table_points=float(row.table_points),
            game_points=row.game_points,
            final_only=row.tournament.results_kind == "final",
            abroad=row.tournament.abroad,
            rated=row.tournament.rated,
        )
        for row in rows
    ]
