"""Reads of ratings, by subject: ``lists`` (the rulesets, the method's settings, a period's
list, the periods, the leaders), ``players`` (a player's rulesets, rating now and
tournaments), ``history`` (a player's months, chart and games explained; a ruleset's whole
history), ``ema`` (the EMA ranking), ``clubs`` (a club's ratings, the club ranking). The
public reads are re-exported here, so callers write ``selectors.period_list(...)``.
"""

from ratings.selectors.clubs import (
    ClubRankingRow,
    ClubRatingRow,
    ClubRatings,
    club_listed_members,
    club_of_players,
    club_ranking_stored,
    club_ratings,
)
from ratings.selectors.ema import (
    EmaCalculation,
    EmaTournament,
    ema_config,
    ema_player,
    ema_ranking,
    ema_ranking_stored,
)
from ratings.selectors.history import (
    ChartPoint,
    ExplanationLine,
    HistoryMonth,
    HistoryRow,
    period_explanations,
    player_chart,
    player_history,
    player_months,
    ruleset_history,
)
from ratings.selectors.lists import (
    RULESETS,
    ListEntry,
    ListLeaders,
    first_period_with_results,
    latest_period_with_results,
    list_countries,
    list_leaders,
    list_periods,
    list_stamp,
    method_config,
    period_list,
    players_by_id,
    ruleset_name,
    ruleset_or_none,
)
from ratings.selectors.players import (
    PlayerRatingNow,
    PlayerTournament,
    player_current,
    player_rulesets,
    player_tournament_results,
    player_tournaments,
)

__all__ = [
    "RULESETS",
    "ChartPoint",
    "ClubRankingRow",
    "ClubRatingRow",
    "ClubRatings",
    "EmaCalculation",
    "EmaTournament",
    "ExplanationLine",
    "HistoryMonth",
    "HistoryRow",
    "ListEntry",
    "ListLeaders",
    "PlayerRatingNow",
    "PlayerTournament",
    "club_listed_members",
    "club_of_players",
    "club_ranking_stored",
    "club_ratings",
    "ema_config",
    "ema_player",
    "ema_ranking",
    "ema_ranking_stored",
    "first_period_with_results",
    "latest_period_with_results",
    "list_countries",
    "list_leaders",
    "list_periods",
    "list_stamp",
    "method_config",
    "period_explanations",
    "period_list",
    "player_chart",
    "player_current",
    "player_history",
    "player_months",
    "player_rulesets",
    "player_tournament_results",
    "player_tournaments",
    "players_by_id",
    "ruleset_history",
    "ruleset_name",
    "ruleset_or_none",
]
