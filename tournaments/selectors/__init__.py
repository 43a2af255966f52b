"""Reads of tournaments and their results that are more than a one-line query, by subject:
``calendar`` (which tournaments a reader sees, the calendar, the search), ``players`` (the
players shown, the search by name, registrations), ``results`` (the confirmed tables the
ratings read, the standings, the session grid, the EMA's standings), ``seating``,
``table_entry`` (a token's entry, a session's tables, the MCR variant), ``clock``,
``penalties`` (penalties, absences, unbalanced tables, hidden standings), ``entries``
(payments, what was collected), ``places`` (places taken and left). The public reads are
re-exported here, so callers write ``selectors.tournament_standings(...)``.
"""

from tournaments.selectors.calendar import (
    public_calendar,
    today,
    tournaments_matching,
    tournaments_visible_to,
    upcoming_tournaments,
)
from tournaments.selectors.clock import ClockView, session_clock
from tournaments.selectors.entries import (
    Collected,
    DuesUnpaid,
    EntryRow,
    TournamentFees,
    dues_unpaid_fee,
    entries_collected,
    entries_open,
    entry_fees_by_tournament,
    entry_is_paid,
    entry_rows,
    tournament_entries,
)
from tournaments.selectors.penalties import (
    PenaltyRow,
    standings_cutoff,
    tournament_absences,
    tournament_penalties,
    unbalanced_tables,
)
from tournaments.selectors.places import places_left, places_taken
from tournaments.selectors.players import (
    players_matching,
    players_shown,
    registration_next_session,
    tournament_registrations,
)
from tournaments.selectors.results import (
    Leader,
    SessionCell,
    StandingRow,
    TableOutcome,
    Transfer,
    confirmed_table_results,
    session_grid,
    table_points_number,
    tournament_ema_standings,
    tournament_leaders,
    tournament_ranking,
    tournament_standings,
    tournament_tables,
    tournament_team_standings,
)
from tournaments.selectors.seating import tournament_sessions_seated
from tournaments.selectors.table_entry import (
    TABLE_ENTRY_OPEN,
    SeatLine,
    SessionTable,
    mcr_config,
    session_seats,
    session_tables,
    table_entry_for_token,
    table_players,
    table_sheet_version,
)

__all__ = [
    "TABLE_ENTRY_OPEN",
    "ClockView",
    "Collected",
    "DuesUnpaid",
    "EntryRow",
    "Leader",
    "PenaltyRow",
    "SeatLine",
    "SessionCell",
    "SessionTable",
    "StandingRow",
    "TableOutcome",
    "TournamentFees",
    "Transfer",
    "confirmed_table_results",
    "dues_unpaid_fee",
    "entries_collected",
    "entries_open",
    "entry_fees_by_tournament",
    "entry_is_paid",
    "entry_rows",
    "mcr_config",
    "places_left",
    "places_taken",
    "players_matching",
    "players_shown",
    "public_calendar",
    "registration_next_session",
    "session_clock",
    "session_grid",
    "session_seats",
    "session_tables",
    "standings_cutoff",
    "table_entry_for_token",
    "table_players",
    "table_points_number",
    "table_sheet_version",
    "today",
    "tournament_absences",
    "tournament_ema_standings",
    "tournament_entries",
    "tournament_leaders",
    "tournament_penalties",
    "tournament_ranking",
    "tournament_registrations",
    "tournament_sessions_seated",
    "tournament_standings",
    "tournament_tables",
    "tournament_team_standings",
    "tournaments_matching",
    "tournaments_visible_to",
    "unbalanced_tables",
    "upcoming_tournaments",
]
