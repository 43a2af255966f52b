"""A tournament's states and the one table of its steps: which step is allowed in which
state, and the state it leads to (docs/decisions/0701-tournament-states.md).

    draft -> submitted -> accredited | rejected -> results submitted -> results confirmed
    (rejected -> submitted again after changes; accredited -> submitted again when what the
    officer accredited changes, before any results: decision 0721)

Every service checks its step here (``tournaments.services._common.state_require``); a
step refused raises the error ``illegal_transition`` with the state and the step's name,
so the names below are also the ``action`` of that error. The model's choices
(``tournaments.models.Tournament.State``) take their values from the constants below.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

DRAFT = "draft"
SUBMITTED = "submitted"
ACCREDITED = "accredited"
REJECTED = "rejected"
RESULTS_SUBMITTED = "results submitted"
RESULTS_CONFIRMED = "results confirmed"

STATES: tuple[str, ...] = (
    DRAFT, SUBMITTED, ACCREDITED, REJECTED, RESULTS_SUBMITTED, RESULTS_CONFIRMED,
)
"""Every state, in the order of a tournament's life."""

PUBLIC: tuple[str, ...] = (ACCREDITED, RESULTS_SUBMITTED, RESULTS_CONFIRMED)
"""The states in which everybody sees the tournament (the calendar, its pages, the API)."""

RESULTS_OPEN: tuple[str, ...] = (ACCREDITED, RESULTS_SUBMITTED)
"""The states in which results may be posted and the sessions run: the organizer enters
results, the players enter their tables, penalties and late arrivals are given, the clock
runs. Confirming the results closes them."""

BEFORE_CONFIRMATION: tuple[str, ...] = tuple(s for s in STATES if s != RESULTS_CONFIRMED)
"""Every state but results confirmed: organizers plan (players, seating) before they are
accredited, and confirmed results are final."""


@dataclass(frozen=True)
class Step:
    """A step of a tournament: the states it is allowed in, and the state it leads to
    (``None``: the state stays as it is)."""

    allowed_in: tuple[str, ...]
    leads_to: str | None = None


STEPS: Mapping[str, Step] = MappingProxyType({
    # the organizer prepares a draft, or changes a rejected one before submitting it again
    "update": Step((DRAFT, REJECTED)),
    "submit": Step((DRAFT, REJECTED), SUBMITTED),
    # after accreditation: what the accreditation did not decide changes freely (``AMENDABLE``;
    # the cap, the fees, the entry dates, the venue, the hidden sessions...), the rest only by
    # sending the tournament back to the officer, before any results (decision 0721)
    "amend": Step(RESULTS_OPEN),
    "resubmit": Step((ACCREDITED,), SUBMITTED),
    # the accreditation officer decides on what was submitted
    "accredit": Step((SUBMITTED,), ACCREDITED),
    "reject": Step((SUBMITTED,), REJECTED),
    # the EMA's certification, recorded at accreditation or later
    "mers": Step((SUBMITTED, *PUBLIC)),
    # players and the seating, planned in every state before confirmation
    "register": Step(BEFORE_CONFIRMATION),
    "seating": Step(BEFORE_CONFIRMATION),
    # players' own entries, while the tournament is accredited (and has not started)
    "enter": Step((ACCREDITED,)),
    # the sessions: results posted (the first one submits the results), the clock,
    # penalties, late arrivals and absences
    "results": Step(RESULTS_OPEN, RESULTS_SUBMITTED),
    "clock": Step(RESULTS_OPEN),
    "penalty": Step(RESULTS_OPEN),
    # the organizer's final word, then only the officer's corrections
    "confirm": Step((RESULTS_SUBMITTED,), RESULTS_CONFIRMED),
    "correct": Step((RESULTS_CONFIRMED,)),
    # the EMA results sheet, of confirmed results only
    "ema-results": Step((RESULTS_CONFIRMED,)),
    # the registered players' names, countries and EMA numbers corrected, in every state:
    # the organizer until they take the EMA sheet, an officer always (``players_correctable``)
    "correct-players": Step(STATES),
})
"""The one table of steps: step name -> where it is allowed and where it leads."""


AMENDABLE: frozenset[str] = frozenset({
    # the practical details of the event
    "venue", "contact", "website", "session_minutes", "planned_players",
    # entries: the cap, the prices, who may enter and when, refunds, payment delay
    "max_players", "fee", "currency", "fee_member", "fee_other", "fee_reduced", "reduced_for",
    "entries_open", "entries_from", "entries_until", "members_first_until", "refund_until",
    "payment_days",
    # how the standings are shown and how absences and withdrawals are ranked
    "hide_last_sessions", "withdrawn_ranking", "absent_score", "absent_table_points",
    "absent_game_points",
})
"""The fields of an accredited tournament its organizer changes without a new decision
(step "amend"). Every other field is what the officer accredited (the name, the dates, the
place, the organizing club, the rules and their variant, the kind of competition, the number
of sessions): changing one sends the tournament back to the officer (step "resubmit")."""


def needs_new_decision(fields: Iterable[str]) -> list[str]:
    """The fields among ``fields`` an accredited tournament changes only by going back to
    the accreditation officer, in the order given."""
    return [field for field in fields if field not in AMENDABLE]


def allows(step: str, state: str) -> bool:
    """Whether ``step`` is allowed in ``state`` (an unknown step is a ``KeyError``: a
    mistake in the code, not in the request)."""
    return state in STEPS[step].allowed_in


def state_after(step: str, state: str) -> str:
    """The state after ``step`` taken in ``state`` (``ValueError`` when not allowed)."""
    rule = STEPS[step]
    if state not in rule.allowed_in:
        raise ValueError(f"{step!r} is not allowed in the state {state!r}")
    return rule.leads_to or state


def accepts_results(state: str) -> bool:
    """Whether results may be posted in ``state`` (accredited or results submitted)."""
    return state in RESULTS_OPEN


def is_public(state: str) -> bool:
    return state in PUBLIC


def players_correctable(state: str, *, sheet_taken: bool, officer: bool) -> bool:
    """Whether the registered players' names, countries and EMA numbers may be corrected in
    ``state``: by an accreditation officer always, by the organizer until they took the EMA
    results sheet (``sheet_taken``: what the EMA has from then on is the officer's to
    correct; docs/decisions/0720-player-corrections.md)."""
    return allows("correct-players", state) and (officer or not sheet_taken)
