"""Tournament writes, by subject: ``lifecycle`` (create, submit, accredit, confirm, correct),
``players`` (matching and registrations), ``entries`` (players' own entries, fees, waiting
list), ``seating`` (the draw), ``results`` (storing what the scoring core checked),
``table_entry`` (score sheets entered at the table), ``clock`` (the session clock), ``penalties`` (penalties, late arrivals,
absences, hidden standings, unbalanced tables kept as recorded). Each runs in one transaction and is the only place its state
change happens; errors are in ``tournaments.errors``. The public services are re-exported
here, so callers write ``services.tournament_confirm(...)``.
"""

from tournaments.errors import ResultsConflict, ResultsError, TournamentError
from tournaments.permissions import ROLE_OFFICER, ROLE_ORGANIZER
from tournaments.services.clock import (
    session_clock_extra,
    session_clock_pause,
    session_clock_start,
)
from tournaments.services.corrections import (
    ema_number_holder,
    player_correct,
    players_correction_open,
    tournament_ema_sheet_taken,
)
from tournaments.services.entries import (
    ReleaseReport,
    entries_register,
    entries_release_unpaid,
    entry_cash_record,
    entry_create,
    entry_decide,
    entry_full_fee,
    entry_withdraw,
)
from tournaments.services.identity import (
    player_claim,
    player_claim_decide,
    player_merge,
    player_merge_undo,
)
from tournaments.services.imports import ImportRefused, ImportReport, tournament_import
from tournaments.services.lifecycle import (
    Check,
    roles_setup,
    tournament_checks,
    tournament_confirm,
    tournament_correct,
    tournament_create,
    tournament_decide,
    tournament_mers_set,
    tournament_submit,
    tournament_update,
)
from tournaments.services.penalties import (
    penalty_give,
    penalty_remove,
    player_absent,
    player_late,
    standings_reveal,
    unbalanced_table_confirm,
)
from tournaments.services.player_import import players_import
from tournaments.services.players import (
    PlayerEntry,
    players_register,
    registration_pending_remove,
    registration_remove,
    registration_withdraw,
    registrations_pending_confirm,
)
from tournaments.services.results import (
    correction_open,
    results_open,
    results_problems,
    results_record,
    stored_table_version,
    tournament_results_store,
)
from tournaments.services.seating import seating_draw, seating_publish
from tournaments.services.table_entry import (
    KEEP_ORGANIZER,
    KEEP_TABLE,
    organizer_version,
    sheet_digest,
    table_entries_open,
    table_entry_agree,
    table_entry_hold_resolve,
    table_entry_line_add,
    table_entry_line_check,
    table_entry_line_remove,
)

__all__ = [
    "KEEP_ORGANIZER",
    "KEEP_TABLE",
    "ROLE_OFFICER",
    "ROLE_ORGANIZER",
    "Check",
    "ImportRefused",
    "ImportReport",
    "PlayerEntry",
    "ReleaseReport",
    "ResultsConflict",
    "ResultsError",
    "TournamentError",
    "correction_open",
    "ema_number_holder",
    "entries_register",
    "entries_release_unpaid",
    "entry_cash_record",
    "entry_create",
    "entry_decide",
    "entry_full_fee",
    "entry_withdraw",
    "organizer_version",
    "penalty_give",
    "penalty_remove",
    "player_absent",
    "player_claim",
    "player_claim_decide",
    "player_correct",
    "player_late",
    "player_merge",
    "player_merge_undo",
    "players_correction_open",
    "players_import",
    "players_register",
    "registration_pending_remove",
    "registration_remove",
    "registration_withdraw",
    "registrations_pending_confirm",
    "results_open",
    "results_problems",
    "results_record",
    "roles_setup",
    "seating_draw",
    "seating_publish",
    "session_clock_extra",
    "session_clock_pause",
    "session_clock_start",
    "sheet_digest",
    "standings_reveal",
    "stored_table_version",
    "table_entries_open",
    "table_entry_agree",
    "table_entry_hold_resolve",
    "table_entry_line_add",
    "table_entry_line_check",
    "table_entry_line_remove",
    "tournament_checks",
    "tournament_confirm",
    "tournament_correct",
    "tournament_create",
    "tournament_decide",
    "tournament_ema_sheet_taken",
    "tournament_import",
    "tournament_mers_set",
    "tournament_results_store",
    "tournament_submit",
    "tournament_update",
    "unbalanced_table_confirm",
]
