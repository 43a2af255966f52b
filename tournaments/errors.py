"""The errors of the tournament services: a stable ``code`` with its parameters (the edge
turns them into words with ``tournaments.problem_texts``), or every problem of an import."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.errors import DomainError
from rulebook.scoring.standings import Problem

E_ILLEGAL_TRANSITION = "illegal_transition"
E_TOO_FEW_SESSIONS = "too_few_sessions"
E_TOO_FEW_PLAYERS = "too_few_players"
E_REASON_REQUIRED = "reason_required"
E_BAD_DECISION = "bad_decision"
E_REGISTRATION_CLOSED = "registration_closed"
E_NOT_MULTIPLE_OF_4 = "players_not_multiple_of_4"
E_RESULTS_MISSING = "results_missing"
E_NO_TEAM_COMPETITION = "no_team_competition"
E_TEAM_FULL = "team_full"
E_MEMBER_UNKNOWN = "member_unknown"
E_CONFLICTING_IDS = "conflicting_ids"
E_NAME_REQUIRED = "name_required"
E_BAD_COUNTRY = "bad_country"
E_BAD_VARIANT = "bad_variant"
E_PLAYER_HAS_RESULTS = "player_has_results"
E_SEATING_DRAWN = "seating_drawn"
E_WITHDRAW_SESSION = "withdraw_session"
E_SEATING_SESSION = "seating_session"
E_SEATING_PUBLISH = "seating_publish"
E_WITHDRAW_AFTER_RESULTS = "withdraw_after_results"
E_MERS_WEIGHT = "mers_weight"
E_MERS_REASON = "mers_weight_reason"
E_BAD_EMA_NUMBER = "bad_ema_number"
E_EMA_IDS_MISSING = "ema_ids_missing"
E_NO_SEATING = "no_seating"
E_TABLE_CLOSED = "table_closed"
E_TABLE_NOT_HELD = "table_not_held"
E_BAD_CHOICE = "bad_choice"
E_BAD_LINE = "bad_line"
E_SHEET_CHANGED = "sheet_changed"
E_TOO_MANY_LINES = "too_many_lines"
E_BAD_EXTRA = "bad_extra_minutes"
E_ENTRIES_CLOSED = "entries_closed"
E_ENTRIES_NOT_OPEN = "entries_not_open"
E_EMA_NUMBER_ASKED = "ema_number_asked"
E_EMA_NUMBER_TAKEN = "ema_number_taken"
E_PLAYER_NOT_REGISTERED = "player_not_registered"
E_CORRECTIONS_CLOSED = "corrections_closed"
E_CHANGE_AFTER_ACCREDITATION = "change_after_accreditation"
E_MEMBERS_ONLY = "members_only"
E_ALREADY_ENTERED = "already_entered"
E_ENTRY_NOT_ACTIVE = "entry_not_active"
E_ENTRY_NOT_HOLDING = "entry_not_holding"
E_NOT_YOUR_ENTRY = "not_your_entry"
E_NOTHING_TO_PAY = "nothing_to_pay"
E_AMOUNT_NOT_POSITIVE = "amount_not_positive"
E_NO_REDUCED_FEE = "no_reduced_fee"
E_REDUCED_FEE_PAID = "reduced_fee_paid"
E_PENALTY_SESSION = "penalty_session"
E_PENALTY_KIND = "penalty_kind"
E_PENALTY_PLAYER = "penalty_player"
E_PENALTY_POINTS_RANGE = "penalty_points_range"
E_PENALTY_RECEIVER = "penalty_receiver"
E_PENALTY_NOT_GIVEN = "penalty_not_given"  # no such penalty given by the organizer
E_LATE_MINUTES = "late_minutes"
E_ALREADY_ABSENT = "already_absent"
E_ABSENT_AFTER_RESULTS = "absent_after_results"
E_TABLE_NOT_FLAGGED = "table_not_flagged"
E_NAME_MATCH = "name_match"  # a name and country known: the caller confirms (issue 35)


class TournamentError(DomainError):
    """A tournament service refused: ``code`` and ``params``, said by
    ``tournaments.problem_texts.error_message``."""

    @property
    def message(self) -> str:
        from tournaments.problem_texts import error_message

        return error_message(self.code, self.params)


E_RESULTS_INVALID = "results_invalid"


class ResultsError(DomainError):
    """Every problem of posted results; nothing was stored. The API lists each problem
    (``Problem.to_dict`` with its message), ordered by row."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(E_RESULTS_INVALID)
        self.args = (f"{len(problems)} problem(s)",)
        self.problems = list(problems)

    @property
    def message(self) -> str:
        return " ".join(item["message"] for item in self.items())

    def items(self) -> list[dict[str, Any]]:
        from tournaments.problem_texts import problem_message

        items = []
        for problem in self.problems:
            item = {**problem.to_dict(), "message": problem_message(problem)}
            if "candidates" in problem.params:  # a name-only match: who it could be
                item["candidates"] = problem.params["candidates"]
            items.append(item)
        return items


E_RESULTS_CONFLICT = "results_conflict"


@dataclass(frozen=True)
class TableVersion:
    """One version of a table's results: the four seats (wind order E, S, W, N) as
    ``(player, game_points, penalty)``, how they came in and their version number (the
    stored one's; ``None`` for results not stored)."""

    seats: tuple[tuple[int, int, int], ...]
    source: str
    version: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "source": self.source, "seats": [
            {"player": p, "game_points": g, "penalty": pen} for p, g, pen in self.seats]}


@dataclass(frozen=True)
class TableConflict:
    """A table someone else saved meanwhile: the results stored (``stored``) and the ones
    being saved (``yours``, with the version its sender saw)."""

    session: int
    table: int
    stored: TableVersion
    yours: TableVersion
    seen: int | None  # the version the sender saw; None: not given

    def to_dict(self) -> dict[str, Any]:
        return {"session": self.session, "table": self.table, "seen": self.seen,
                "stored": self.stored.to_dict(), "yours": self.yours.to_dict()}


class ResultsConflict(DomainError):
    """Results that would replace a table saved by someone else since the sender read it:
    nothing was stored. The API answers 409 with both versions of each table
    (``conflicts``); the sender saves again with the stored version to keep theirs."""

    status = 409

    def __init__(self, conflicts: Sequence[TableConflict]) -> None:
        super().__init__(E_RESULTS_CONFLICT)
        self.conflicts = list(conflicts)

    def items(self) -> list[dict[str, Any]]:
        from tournaments.problem_texts import error_message

        return [{"code": self.code, "field": "version", "session": c.session,
                 "table": c.table,
                 "message": error_message(self.code, {"session": c.session, "table": c.table,
                                                      "version": c.stored.version})}
                for c in self.conflicts]

    @property
    def message(self) -> str:
        return " ".join(item["message"] for item in self.items())

    def body(self) -> dict[str, Any]:
        return {"errors": self.items(), "conflicts": [c.to_dict() for c in self.conflicts],
                **self.extra_body}
